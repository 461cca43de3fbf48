import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { Secret } from '../../../core-client/src/secret.js';
import { App } from '../../../tui/src/terminal-app.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { keys } from '../keys.js';
import { flat, onScreen, press, renderInTerminal, waitFor, type Terminal, walkToReview } from '../support/terminal.js';

const apiKey = randomBytes(24).toString('hex');
let core: CoreDouble;
let folder: string;
let terminal: Terminal | undefined;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey] });
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  core.reset();
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-report-'));
  const bcrypt = '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
  const lines = [
    ...Array.from({ length: 30 }, (_, index) => ({ email: `not-an-email-${index}`, passwordHash: bcrypt })),
    ...Array.from({ length: 3 }, (_, index) => ({ email: `md5-${index}@example.com`, passwordHash: '5f4dcc3b5aa765d61d8327deb882cf99' })),
    { email: 'ok@example.com', passwordHash: bcrypt },
    // An escape sequence in an export's value is shown escaped, never sent to the terminal.
    { email: 'evil\u001b[2J@example.com', passwordHash: bcrypt },
  ];
  await writeFile(join(folder, 'users.ndjson'), lines.map((line) => JSON.stringify(line)).join('\n'));
});
afterEach(async () => {
  terminal?.unmount();
  terminal = undefined;
  await rm(folder, { recursive: true, force: true });
});

function open(file = 'users.ndjson'): Terminal {
  terminal = renderInTerminal(
    <App
      env={{}}
      cwd={folder}
      colour={false}
      settings={MigrationSettingsSchema.parse({ file, core: [core.url] })}
      invocation="core-migrate"
      apiKey={new Secret(apiKey)}
      pulumiBinary={join(folder, 'no-pulumi-here')}
    />,
  );
  return terminal;
}

describe('the report view', () => {
  it('browses what the plan refused, by reason, scrolling rather than cutting, and goes back with Esc', async () => {
    const app = open();
    await walkToReview(app);
    await press(app, keys.up, keys.enter);
    await waitFor(app, 'records not imported, by reason');
    expect(app.lastFrame()).toContain('[invalidEmail 31]');
    expect(app.lastFrame()).toContain('not-an-email-0');
    expect(app.lastFrame()).not.toContain('not-an-email-29');
    for (let page = 0; page < 6; page += 1) await press(app, keys.pageDown);
    await waitFor(app, 'not-an-email-29');
    expect(app.lastFrame()).not.toContain('\u001b[2J');
    expect(flat(app.lastFrame())).toContain('evil\\x1b[2j@example.com');
    await press(app, keys.right);
    await waitFor(app, '[unsupportedHashFamily 3]');
    expect(app.lastFrame()).toContain('line 32');
    await press(app, keys.escape);
    await waitFor(app, onScreen('Review'));
  }, 30_000);

  it("opens from the Summary on the run's report file, with what the core answered too", async () => {
    // A user already in the core: the push leaves it untouched and reports it (a line of the core's stage).
    const existing = await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': apiKey, 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'ok@example.com', passwordHash: '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }),
    });
    expect(existing.status).toBe(200);
    const app = open();
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    await press(app, 'r');
    await waitFor(app, 'records not imported, by reason');
    const groups = app.lastFrame();
    expect(groups).toMatch(/invalidEmail 31/);
    expect(groups).toMatch(/unsupportedHashFamily 3/);
    expect(groups).toMatch(/existing\w* 1/);
    await press(app, keys.escape);
    await waitFor(app, onScreen('Summary'));
  }, 30_000);

  it('counts a separate account, imported as its own user, as a note and not as a record not imported', async () => {
    const bcrypt = '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
    const lines = [
      { id: 'u-1', email: 'not-an-email', passwordHash: bcrypt },
      // A phone login beside a password: the phone user is created as a separate user, and the report notes it.
      { id: 'u-2', email: 'both@example.com', passwordHash: bcrypt, phoneNumber: '+14155550146' },
    ];
    await writeFile(join(folder, 'both.ndjson'), lines.map((line) => JSON.stringify(line)).join('\n'));
    const app = open('both.ndjson');
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    await press(app, 'r');
    const report = flat(await waitFor(app, 'records not imported, by reason'));
    expect(report).toContain('1 records not imported, by reason; 1 note(s) on records that were not refused:');
    expect(report).toContain('[invalidEmail 1] note: separateAccount 1');
    await press(app, keys.right);
    expect(flat(await waitFor(app, '[note: separateAccount 1]'))).toContain('separateAccount: 1 note(s) on records imported or kept');
  }, 30_000);
});
