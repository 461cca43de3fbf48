import { appTestBed } from '../support/app-bed.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keys } from '../keys.js';
import { flat, focusOn, press, waitFor } from '../support/terminal.js';

const bed = appTestBed('export-shape');

describe('an export of no known shape in the app (issue 43)', () => {
  it('the Source screen names the shapes core-migrate reads and the format field, in its own words', async () => {
    await writeFile(join(bed.folder(), 'accounts.json'), '{"kind":"identitytoolkit#DownloadAccountResponse","accounts":[]}\n');
    const app = bed.open({ file: 'accounts.json' }, { size: { columns: 400, rows: 30 } });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await waitFor(app, '✗');
    await focusOn(app, 'format');
    const frame = await waitFor(app, (shown: string) => flat(shown).includes('set format if the file is one of these'));
    expect(flat(frame)).toContain('one JSON object of no shape core-migrate reads');
    expect(frame).not.toContain('{setting}');
  }, 30_000);
});
