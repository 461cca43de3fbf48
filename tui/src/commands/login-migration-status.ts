import type { Command } from 'commander';
import { OutputPathError } from 'core-client/files';
import { isWaitingStoreError, loginMigrationStatus } from 'core-client/login-time';
import { ExitCode, optionalFrom } from 'core-client/settings';
import { resolve } from 'node:path';
import { CommandOutput } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { formatLoginMigrationStatus } from './login-migration-status-format.js';

/** `login-migration status`: how a login-time migration stands, read from its waiting store; sends nothing to a core. */
export const registerLoginMigrationStatus: RegisterCommand = (loginMigration: Command, { io, setExitCode }) => {
  loginMigration
    .command('status')
    .description(
      'how many parked users still wait for their first login and how many arrived (per day); --waiting-list writes those still waiting ' +
        '(email, old id) for a password reset once the login-time window ends (reads the store only)',
    )
    .requiredOption('--store <store>', 'the waiting store the push wrote (--login-time): a SQLite file or a postgresql:// URL (password in PGPASSWORD)')
    .option('--waiting-list <file>', 'write the users still waiting as CSV (email,old_id), created readable by its owner only')
    .option('--json', 'print one JSON object instead of lines')
    .action(async (flags: { store: string; waitingList?: string; json?: boolean }) => {
      const output = new CommandOutput(io, 'login-migration status', { json: flags.json === true });
      const location = /^postgres(ql)?:\/\//i.test(flags.store) ? flags.store : resolve(io.cwd, flags.store);
      try {
        const status = await loginMigrationStatus(location, {
          env: io.env,
          ...optionalFrom('waitingListPath', flags.waitingList, (path) => resolve(io.cwd, path)),
        });
        output.result(status, formatLoginMigrationStatus(status));
        setExitCode(ExitCode.ok);
      } catch (error) {
        if (!isWaitingStoreError(error) && !(error instanceof OutputPathError)) throw error;
        setExitCode(output.failWith(error));
      }
    });
};
