import { appTestBed } from '../support/app-bed.js';
import { describe, expect, it } from 'vitest';
import { MigrationSettingsSchema, type MigrationSettings } from '../../../core-client/src/settings/settings.js';
import { parseSettings } from '../../../core-client/src/settings/setting-problem.js';
import { type AppResult } from '../../../tui/src/terminal-app.js';
import { buildProgram } from '../../../tui/src/cli.js';
import { keys } from '../keys.js';
import { captureIO } from '../commands/captured-io.js';
import { press, waitFor, type Terminal } from '../support/terminal.js';

const bed = appTestBed('walk');

function open(settings: MigrationSettings, onDone?: (result: AppResult) => void): Terminal {
  return bed.open(settings, onDone === undefined ? {} : { onDone });
}

/** The settings a printed command line stands for, parsed by the command line's own parser. */
async function settingsOfCommand(line: string): Promise<MigrationSettings> {
  const args = line.split(' ').slice(1);
  let parsed: MigrationSettings | undefined;
  const program = await buildProgram(captureIO({ cwd: bed.folder() }).io, () => undefined, args);
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
    const settings = MigrationSettingsSchema.parse({
      file: 'users.json',
      hashConfig: 'hash_config.txt',
      core: [bed.core().url],
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
    // u13 has an email and nothing else: a passwordless email user (issue 27).
    await waitFor(app, 'Send 12 operations to');
    await press(app, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    expect(app.lastFrame()).toContain('✓ these add up to 16 of 16 planned operations');
    expect(app.lastFrame().replace(/\s+/g, ' ')).toContain('7 of 7 logged in at the core');
    expect(
      bed
        .core()
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
    expect(bed.core().thirdPartyUsers()).toHaveLength(4);

    // Back to Review, run again: the journal resumes and nothing is sent twice.
    const requests = bed.core().requestCount();
    await press(app, 'b');
    await waitFor(app, 'Nothing is sent until you confirm.');
    await press(app, keys.enter, 'y');
    await waitFor(app, (frame) => frame.includes('Push finished.') && /skipped \(journal\) +12/.test(frame), 20_000);
    expect(bed.core().requestCount() - requests).toBeLessThan(30);

    // (The rollback from the Summary, and the command after it: counts.test.tsx.)
    await press(app, 'q');
    expect(result?.exitCode).toBe(1);
    expect(result?.command?.line.startsWith('core-migrate push users.json ')).toBe(true);
    // The printed command stands for exactly the settings the app pushed with.
    expect(await settingsOfCommand(result?.command?.line ?? '')).toEqual({ ...settings, journal: 'journal.ndjson' });
  }, 60_000);
});
