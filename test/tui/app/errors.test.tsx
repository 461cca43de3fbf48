import { appTestBed } from '../support/app-bed.js';
import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MigrationSettingsInput } from '../../../core-client/src/settings/settings.js';
import { type AppResult } from '../../../tui/src/terminal-app.js';
import { startCoreDouble } from '../../core-double/index.js';
import { keys } from '../keys.js';
import { flat, focusOn, focusedLine, onScreen, press, settle, waitFor, type Terminal, walkToReview } from '../support/terminal.js';

const bed = appTestBed('errors');

function open(input: MigrationSettingsInput, onDone?: (result: AppResult) => void, coreUrl?: string): Terminal {
  return bed.open(input, { ...(onDone === undefined ? {} : { onDone }), ...(coreUrl === undefined ? {} : { coreUrl }) });
}

describe('errors lead back to the field that fixes them', () => {
  it('a missing credentials file and a bad concurrency are named at their field when entered, and nothing can start', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt', verifyCredentials: 'credentials.txt' });
    await walkToReview(app);
    await focusOn(app, 'concurrency');
    await press(app, '0');
    await waitFor(app, (frame) => flat(frame).includes('✗ concurrency must be a whole number from 1 to 1024, not "0"'));
    // A file named while another setting has a problem is still checked as it is typed.
    await focusOn(app, 'credentials');
    await press(app, keys.ctrlU, 'missing.txt');
    await waitFor(app, (frame) => flat(frame).includes('missing.txt: no such file'));
    await press(app, keys.enter);
    expect(app.lastFrame()).not.toContain('(y/n)');
    // The fixes, typed where the problems are.
    await press(app, keys.ctrlU, 'credentials.txt');
    await focusOn(app, 'concurrency');
    await press(app, keys.ctrlU, '4');
    // The file is checked as it is typed, in the background: Enter asks once both problems are gone.
    await waitFor(app, (frame) => !flat(frame).includes('✗ concurrency') && !flat(frame).includes('no such file'));
    await press(app, keys.enter);
    await waitFor(app, '(y/n)');
  }, 30_000);

  it('a plan that failed on a file mended outside the app is read again with Enter', async () => {
    const rolesFile = join(bed.folder(), 'roles.json');
    await writeFile(rolesFile, '{"admin":"all"}');
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt', rolesFrom: 'customClaims.roles', rolesFile: 'roles.json' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, onScreen('Source'));
    await press(app, keys.enter);
    await waitFor(app, (frame) => flat(frame).includes('must be a JSON object of role → list of permissions'));
    // No field changes: the file is mended where the operator keeps it, and Enter reads the plan again.
    await writeFile(rolesFile, '{"admin":["users:write"]}');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
  }, 30_000);

  it('a file a field names, created outside the app after it was found missing, is checked again with Enter on Review', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt', verifyCredentials: 'later.txt' });
    await walkToReview(app);
    await waitFor(app, (frame) => flat(frame).includes('later.txt: no such file'));
    await press(app, keys.enter);
    expect(app.lastFrame()).not.toContain('(y/n)');
    await writeFile(join(bed.folder(), 'later.txt'), await readFile(join(bed.folder(), 'credentials.txt')), { mode: 0o600 });
    await press(app, keys.enter);
    await waitFor(app, (frame) => !flat(frame).includes('no such file'));
    await press(app, keys.enter);
    await waitFor(app, '(y/n)');
  }, 30_000);

  it('Review warns, as push does, of a secret file others can read, before anything is sent', async () => {
    await chmod(join(bed.folder(), 'credentials.txt'), 0o644);
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt', verifyCredentials: 'credentials.txt' });
    await walkToReview(app);
    await waitFor(app, (frame) => flat(frame).includes('holds passwords of known accounts and is readable by every user of this machine'));
    expect(bed.core().users()).toEqual([]);
  }, 30_000);

  it("a push that cannot start says why on the Push screen, leads to the field with Enter, and quits with push's exit code", async () => {
    const journal = join(bed.folder(), 'journal.ndjson');
    await writeFile(`${journal}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: 'push' }));
    let result: AppResult | undefined;
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson' }, (done) => (result = done));
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Nothing was sent.');
    expect(flat(app.lastFrame())).toContain('is in use by another push');
    expect(bed.core().emailPasswordUsers()).toEqual([]);
    await press(app, keys.enter);
    await waitFor(app, 'Review]');
    expect(focusedLine(app.lastFrame())).toContain('journal');
    await press(app, keys.ctrlU, 'another-journal.ndjson', keys.enter, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    await press(app, 'q');
    expect(result?.exitCode).toBe(1);
  }, 30_000);

  it('a core gone by the time of the push: exit 3 on quitting, and Enter leads to the core URL', async () => {
    const short = await startCoreDouble({ apiKeys: [bed.apiKey], signerKey: bed.signerKey.toString('base64') });
    let result: AppResult | undefined;
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt' }, (done) => (result = done), short.url);
    await walkToReview(app);
    await short.close();
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Nothing was sent.');
    expect(flat(app.lastFrame())).toContain('the pre-flight failed');
    await press(app, keys.enter);
    await waitFor(app, 'Where is the core?');
    expect(focusedLine(app.lastFrame())).toContain('core URL');
    await press(app, keys.ctrlC);
    expect(result?.exitCode).toBe(3);
  }, 30_000);

  it('a push the known accounts stopped: no file named that was never written, and h leads to the hash parameters', async () => {
    const wrong = join(bed.folder(), 'wrong_hash_config.txt');
    const right = await readFile(join(bed.folder(), 'hash_config.txt'), 'utf8');
    await writeFile(wrong, right.replace(bed.signerKey.toString('base64'), randomBytes(64).toString('base64')), { mode: 0o600 });
    const app = open({ file: 'users.json', hashConfig: 'wrong_hash_config.txt', verifyCredentials: 'credentials.txt' });
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Push stopped early.', 20_000);
    const stopped = flat(app.lastFrame());
    expect(stopped).toContain('do not match their planned hash');
    expect(stopped).toContain('report (not written)');
    expect(stopped).toContain('journal (not written)');
    expect(stopped).toContain('no sign-in was tried');
    expect(stopped).not.toContain('offers no');
    expect(stopped).toContain('h: fix the hash parameters');
    expect(bed.core().emailPasswordUsers()).toEqual([]);
    await press(app, 'h');
    await waitFor(app, 'Hashes]');
    await focusOn(app, 'hash_config file');
    await press(app, keys.ctrlU, 'hash_config.txt');
    await settle(300);
    await press(app, keys.enter, keys.enter);
    await waitFor(app, 'Nothing is sent until you confirm.');
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    expect(flat(app.lastFrame())).toContain('7 of 7 logged in at the core');
  }, 40_000);

  it('ends with exit 0 after a push where every record was imported', async () => {
    await writeFile(
      join(bed.folder(), 'clean.ndjson'),
      ['ada', 'alan']
        .map((name) => JSON.stringify({ id: name, email: `${name}@example.com`, passwordHash: '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }))
        .join('\n'),
    );
    let result: AppResult | undefined;
    const app = open({ file: 'clean.ndjson' }, (done) => (result = done));
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    await press(app, keys.enter);
    expect(result?.exitCode).toBe(0);
    expect(result?.command?.line).toContain('core-migrate push clean.ndjson');
  }, 30_000);
});
