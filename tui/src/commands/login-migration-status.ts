import type { Command } from 'commander';
import { OutputPathError } from 'core-client/files';
import { isWaitingStoreError, loginMigrationStatus } from 'core-client/login-time';
import { ExitCode, optionalFrom, parseSettings, Problem, waitingStoreLocation } from 'core-client/settings';
import { resolve } from 'node:path';
import { CommandOutput, wantsJson } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { formatLoginMigrationStatus } from './login-migration-status-format.js';
import { addSettingOptions, settingsInputOf } from './setting-options.js';

/** `login-migration status`: how a login-time migration stands, read from its waiting store; sends nothing to a core. */
export const registerLoginMigrationStatus: RegisterCommand = (loginMigration: Command, { io, setExitCode }) => {
  addSettingOptions(loginMigration.command('status'), 'status')
    .description(
      'how many parked users still wait for their first login and how many arrived (per day); --waiting-list writes those still waiting ' +
        '(email, old id) for a password reset once the login-time window ends (reads the store only)',
    )
    .action(async (flags: Record<string, unknown>) => {
      const output = new CommandOutput(io, 'login-migration status', { json: wantsJson(flags) });
      const settings = parseSettings(settingsInputOf(flags));
      if (Array.isArray(settings)) return setExitCode(output.failWith(settings));
      const location = waitingStoreLocation(settings, io.cwd);
      if (location instanceof Problem) return setExitCode(output.failWith(location));
      try {
        const status = await loginMigrationStatus(location, {
          env: io.env,
          ...optionalFrom('waitingListPath', settings.waitingList, (path) => resolve(io.cwd, path)),
        });
        output.result(status, formatLoginMigrationStatus(status));
        setExitCode(ExitCode.ok);
      } catch (error) {
        if (!isWaitingStoreError(error) && !(error instanceof OutputPathError)) throw error;
        setExitCode(output.failWith(error));
      }
    });
};
