import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appTestBed } from '../support/app-bed.js';
import { keys } from '../keys.js';
import { flat, focusOn, focusedLine, onScreen, press, waitFor } from '../support/terminal.js';

const bed = appTestBed('origins');
const size = { columns: 110, rows: 30 };

/** The line of the field labelled `label` in the frame. */
function fieldLine(frame: string, label: string): string {
  return frame.split('\n').find((line) => line.slice(2).startsWith(label)) ?? '';
}

describe('what the screen shows is what is used', () => {
  it('CORE_URL: Connect shows its address as the value, says it is from CORE_URL, and the pre-flight goes there', async () => {
    const app = bed.open({}, { size, coreFromEnvironment: true });
    const frame = await waitFor(app, 'Where is the core?');
    const core = fieldLine(frame, 'core URL');
    expect(core).toContain(bed.core().url);
    expect(core).toContain('from CORE_URL');
    // The default address is not shown beside it (the double's own port may begin with 3567: it is taken out first).
    expect(core.replace(bed.core().url, '')).not.toMatch(/127\.0\.0\.1:3567\b/);
    await press(app, keys.enter);
    await waitFor(app, onScreen('Source'));
    expect(
      bed
        .core()
        .requests()
        .some((request) => request.path === '/hello'),
    ).toBe(true);
    await press(app, keys.escape);
    expect(flat(await waitFor(app, 'core from CORE_URL'))).toContain(`${bed.core().url}`);
  });

  it('CORE_API_KEY: after the pre-flight the Connect screen says the key came from CORE_API_KEY, not "as typed"', async () => {
    const app = bed.open({}, { size });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, onScreen('Source'));
    await press(app, keys.escape);
    const frame = flat(await waitFor(app, 'api-key '));
    expect(frame).toContain('api-key from CORE_API_KEY');
    expect(frame).not.toContain('as typed');
  });

  it('a value the operator changes is theirs: the origin goes, and the typed address is the one used', async () => {
    const app = bed.open({}, { size, coreFromEnvironment: true });
    await waitFor(app, 'Where is the core?');
    await focusOn(app, 'core URL');
    await press(app, keys.backspace);
    const line = focusedLine(app.lastFrame());
    expect(line).not.toContain('from CORE_URL');
    await press(app, keys.enter);
    // The address without its last digit is refused or unreachable: the pre-flight used the field, not CORE_URL.
    await waitFor(app, (frame) => frame.includes('✗'));
    expect(onScreen('Connect')(app.lastFrame())).toBe(true);
  });

  it('flags: the tenant, the export and the journal show as values with the flag they came from', async () => {
    const app = bed.open({ tenant: 'public', file: 'users.json', journal: 'run.journal' }, { size });
    const frame = await waitFor(app, 'Where is the core?');
    expect(fieldLine(frame, 'tenant')).toMatch(/public\s+from --tenant/);
    expect(fieldLine(frame, 'core URL')).toMatch(/from --core/);
    await press(app, keys.enter);
    const source = await waitFor(app, onScreen('Source'));
    expect(fieldLine(source, 'export file')).toMatch(/users\.json\S*\s+from the command line/);
  });

  it('the key source: with an api-key file the key shown is not the one used, and the screen says so', async () => {
    await writeFile(join(bed.folder(), 'core.key'), `${bed.apiKey}\n`, { mode: 0o600 });
    const app = bed.open({ apiKeyFile: 'core.key' }, { size });
    const frame = await waitFor(app, 'Where is the core?');
    expect(fieldLine(frame, 'api-key file')).toMatch(/core\.key\s+from --api-key-file/);
    expect(fieldLine(frame, 'API key ')).toContain('not used: the API key file comes first');
  });
});
