import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MigrationSettingsSchema, type MigrationSettings } from '../../../core-client/src/settings/settings.js';
import { parseSettings } from '../../../core-client/src/settings/setting-error.js';
import { Secret } from '../../../core-client/src/secret.js';
import { App, type AppResult } from '../../../tui/src/app/app.js';
import { buildProgram } from '../../../tui/src/cli.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { writeDemoSample } from '../../sandbox/demo-sample.js';
import { keys } from '../keys.js';
import { captureIO } from '../commands/captured-io.js';
import { flat, press, renderInTerminal, waitFor, type Terminal } from '../support/terminal.js';

const apiKey = randomBytes(24).toString('hex');
const signerKey = randomBytes(64);
let core: CoreDouble;
let folder: string;
let terminal: Terminal | undefined;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey], signerKey: signerKey.toString('base64') });
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  core.reset();
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-walk-'));
  await writeDemoSample(folder, signerKey);
});
afterEach(async () => {
  terminal?.unmount();
  terminal = undefined;
  await rm(folder, { recursive: true, force: true });
});

function settingsOf(input: Record<string, unknown>): MigrationSettings {
  return MigrationSettingsSchema.parse(input);
}

function open(settings: MigrationSettings, onDone?: (result: AppResult) => void): Terminal {
  terminal = renderInTerminal(
    <App
      env={{}}
      cwd={folder}
      colour={false}
      settings={settings}
      invocation="core-migrate"
      apiKey={new Secret(apiKey)}
      apiKeyFromEnvironment
      pulumiBinary={join(folder, 'no-pulumi-here')}
      {...(onDone === undefined ? {} : { onDone })}
    />,
  );
  return terminal;
}

/** The settings a printed command line stands for, parsed by the command line's own parser. */
async function settingsOfCommand(line: string): Promise<MigrationSettings> {
  const args = line.split(' ').slice(1);
  let parsed: MigrationSettings | undefined;
  const program = await buildProgram(captureIO({ cwd: folder }).io, () => undefined, args);
  const push = program.commands.find((command) => command.name() === 'push');
  push?.action((file: string, flags: Record<string, unknown>) => {
    const settings = parseSettings({ ...flags, file } as never);
    if (!Array.isArray(settings)) parsed = settings;
  });
  await program.parseAsync(args, { from: 'user' });
  if (parsed === undefined) throw new Error(`the command did not parse: ${line}`);
  return parsed;
}

describe('the terminal app opened with every setting given', () => {
  it('walks with Enter on each screen and y, pushes what push would, and ends with the resume command', async () => {
    const settings = settingsOf({
      file: 'users.json',
      hashConfig: 'hash_config.txt',
      core: [core.url],
      journal: 'journal.ndjson',
      report: 'report.ndjson',
      verifyCredentials: 'credentials.txt',
    });
    let result: AppResult | undefined;
    const app = open(settings, (done) => (result = done));
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    expect(app.lastFrame()).toContain('vendor_scrypt');
    await press(app, keys.enter);
    await waitFor(app, 'Identity]');
    await press(app, keys.enter);
    await waitFor(app, 'Nothing is sent until you confirm.');
    await press(app, keys.enter);
    await waitFor(app, 'Send 11 operations to');
    await press(app, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    expect(app.lastFrame()).toContain('✓ these add up to 16 of 16 planned operations');
    expect(app.lastFrame().replace(/\s+/g, ' ')).toContain('7 of 7 logged in at the core');
    expect(
      core
        .emailPasswordUsers()
        .map((user) => user.email)
        .sort(),
    ).toEqual(
      [
        'ada@example.com',
        'alan@example.com',
        'barbara@example.com',
        'donald@example.com',
        'edsger@example.com',
        'grace@example.com',
        'margaret@example.com',
      ].sort(),
    );
    expect(core.thirdPartyUsers()).toHaveLength(4);

    // Back to Review, run again: the journal resumes and nothing is sent twice.
    const requests = core.requestCount();
    await press(app, 'b');
    await waitFor(app, 'Nothing is sent until you confirm.');
    await press(app, keys.enter, 'y');
    await waitFor(app, (frame) => frame.includes('Push finished.') && /skipped \(journal\) +11/.test(frame), 20_000);
    expect(core.requestCount() - requests).toBeLessThan(30);

    // Roll back from the Summary: exactly the users this migration created go, after a question.
    await press(app, 'u');
    await waitFor(app, 'Remove every user this migration created');
    await press(app, 'y');
    await waitFor(app, (frame) => flat(frame).includes('Rollback: 11 removed now'), 20_000);
    expect(core.users()).toEqual([]);
    expect(app.lastFrame()).not.toContain('u roll back');

    await press(app, 'q');
    expect(result?.exitCode).toBe(1);
    expect(result?.command?.line.startsWith('core-migrate push users.json ')).toBe(true);
    // The printed command stands for exactly the settings the app pushed with.
    expect(await settingsOfCommand(result?.command?.line ?? '')).toEqual({ ...settings, journal: 'journal.ndjson' });
  }, 60_000);
});
