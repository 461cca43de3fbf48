import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appTestBed } from '../support/app-bed.js';
import { keys } from '../keys.js';
import { flat, focusOn, onScreen, press, waitFor } from '../support/terminal.js';

const bed = appTestBed('old-system');
const cognitoExport = new URL('../../fixtures/exports/cognito/list-users.json', import.meta.url);
const cognitoSettings = { kind: 'cognito', region: 'eu-west-1', clientId: '1example23456789' };

/** The Cognito pool's list-users export (no hashes at all) and the settings file of the pool to ask, in the test's folder. */
async function cognitoPool(): Promise<void> {
  await copyFile(cognitoExport, join(bed.folder(), 'list-users.json'));
  await writeFile(join(bed.folder(), 'cognito.json'), JSON.stringify(cognitoSettings));
}

async function toHashes(app: ReturnType<typeof bed.open>): Promise<string> {
  await waitFor(app, 'Where is the core?');
  await press(app, keys.enter);
  await waitFor(app, onScreen('Source'));
  await press(app, keys.enter);
  return waitFor(app, 'Hash families in the file');
}

describe('the app with an old system asked for the users without a hash', () => {
  it('Hashes and Identity say who is parked and how each will be checked, at 80x24', async () => {
    await cognitoPool();
    const app = bed.open({ file: 'list-users.json', loginTime: 'waiting.sqlite', verifyWith: 'cognito.json' }, { size: { columns: 80, rows: 24 } });
    const hashes = flat(await toHashes(app));
    expect(hashes).toMatch(/no usable hash\s+3\s+parked: asked of AWS Cognito at first sign-in/);
    expect(hashes).toContain('old system to ask');
    expect(hashes).toContain('cognito.json');
    await press(app, keys.enter);
    const identity = flat(await waitFor(app, (frame) => onScreen('Identity')(frame) && frame.includes('In this file')));
    expect(identity).toMatch(/at first sign-in\s+3\s+parked, created then: 3 asked of AWS Cognito/);
    app.unmount();
  });

  it('the old system is set on the Hashes screen: the users without a hash are parked for it; a file that names none says why', async () => {
    await cognitoPool();
    await writeFile(join(bed.folder(), 'wrong.json'), JSON.stringify({ kind: 'ldap' }));
    const app = bed.open({ file: 'list-users.json', loginTime: 'waiting.sqlite' }, { size: { columns: 120, rows: 40 } });
    expect(flat(await toHashes(app))).not.toContain('no usable hash');

    await focusOn(app, 'old system to ask');
    await press(app, 'wrong.json');
    await waitFor(app, (frame) => flat(frame).includes('✗ old system to ask:') && flat(frame).includes('wrong.json: kind'));
    await press(app, keys.ctrlU);
    await press(app, 'cognito.json');
    const parked = flat(await waitFor(app, (frame) => flat(frame).includes('no usable hash')));
    expect(parked).toMatch(/no usable hash\s+3\s+parked: asked of AWS Cognito at first sign-in/);
    app.unmount();
  });

  it('after the push, the service line Summary prints asks the same old system', async () => {
    await cognitoPool();
    const app = bed.open({ file: 'list-users.json', loginTime: 'waiting.sqlite', verifyWith: 'cognito.json' }, { size: { columns: 160, rows: 50 } });
    await toHashes(app);
    await press(app, keys.enter, keys.enter);
    await waitFor(app, (frame) => onScreen('Review')(frame) && frame.includes('The plan'));
    await press(app, keys.enter, 'y');
    const summary = flat(await waitFor(app, 'Push finished.', 20_000));
    expect(summary).toMatch(/login-migration serve --store waiting\.sqlite .*--verify-with cognito\.json/);
    app.unmount();
  }, 30_000);
});
