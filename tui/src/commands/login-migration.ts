import type { Command } from 'commander';
import { loginServiceReadiness, preflightNotReadyReason, runPreflight } from 'core-client';
import {
  isWaitingStoreError,
  migrateAtLogin,
  openLoginMigration,
  openOldSystemVerifier,
  OldSystemSettingsProblem,
  readOldSystemSettings,
  type OldSystemVerifier,
} from 'core-client/login-time';
import { clientOf, connectionOf, connectionWarnings } from 'core-client/run';
import { describeProblem, Problem, runProblem, settingProblem, waitingStoreLocation } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import type { RegisterCommand } from './index.js';
import { registerLoginMigrationServe, type OpenLoginMigration } from './login-migration-serve.js';
import { registerLoginMigrationStatus } from './login-migration-status.js';
import { addSettingOptions } from './setting-options.js';

/**
 * A sign-in waits on the core while the user stands at the login form: a core that does not answer within this many
 * seconds gets "try later" rather than the push's minutes of patience (`--give-up-after` changes it).
 */
const SIGN_IN_GIVE_UP_AFTER_SECONDS = 10;

/** The store and the core `serve` migrates with: its waiting store, and the core reached as every command reaches it. */
const openFromSettings: OpenLoginMigration = async ({ settings, io, verify, serviceKey }) => {
  const store = waitingStoreLocation(settings, io.cwd);
  if (store instanceof Problem) return store;
  const connection = await connectionOf(settings, { cwd: io.cwd, env: io.env });
  if (connection instanceof Problem) return connection;
  // A backend holding the service's key must not hold the core's with it: the two keys open different doors.
  if (connection.apiKey.reveal() === serviceKey.reveal())
    return settingProblem(
      'serviceKeyIsCoreKey',
      'apiKeyFile',
      "the service's key is the core's api-key: give the service a key of its own (e.g. openssl rand -hex 32)",
    );
  for (const warning of await connectionWarnings(settings, connection.coreUrls, io.cwd)) io.stderr.write(`${warning}\n`);
  const client = clientOf(connection, { giveUpAfter: settings.giveUpAfter ?? SIGN_IN_GIVE_UP_AFTER_SECONDS });
  if (client instanceof Problem) return client;
  // As `check` and a push do: a service on a wrong key or an absent core would answer every sign-in "try later".
  const preflight = await runPreflight(client);
  if (preflightNotReadyReason(preflight) !== undefined) {
    await client.close();
    return runProblem('preflightFailed', 'core', `the pre-flight failed, the service does not start. ${preflight.failure?.sentence ?? ''}`.trim(), 'core');
  }
  const oldSystem = await oldSystemOf(settings.verifyWith, io);
  if (oldSystem instanceof OldSystemSettingsProblem) {
    await client.close();
    return oldSystem;
  }
  // As for the core: a service whose old system is not there would answer each of its users "try later".
  if (oldSystem !== undefined && !(await oldSystem.reachable())) {
    await Promise.all([oldSystem.close(), client.close()]);
    return runProblem(
      'oldSystemUnreachable',
      'oldSystem',
      `{setting}: the old system (${oldSystem.kind}, ${oldSystem.location}) cannot be reached, the service does not start; start it, or correct its address`,
      'verifyWith',
    );
  }
  try {
    let lastStoreFailure: string | undefined;
    const login = await openLoginMigration({
      store,
      core: client,
      verify,
      ...(oldSystem !== undefined && { oldSystem }),
      // Once for each new failure, not once a sign-in: a store gone for good would fill the log.
      onStoreFailure: (error) => {
        const sentence = describeProblem(error, 'flags');
        if (sentence === lastStoreFailure) return;
        lastStoreFailure = sentence;
        io.stderr.write(`core-migrate login-migration serve: ${sentence}; sign-ins are answered tryLater storeUnavailable.\n`);
      },
    });
    return {
      migrate: (attempt) => migrateAtLogin(login, attempt),
      readiness: loginServiceReadiness({ core: client, store: login.store, oldSystem }),
      close: async () => {
        await login.close();
        await oldSystem?.close();
        await client.close();
      },
    };
  } catch (error) {
    await oldSystem?.close();
    await client.close();
    if (isWaitingStoreError(error)) return error;
    throw error;
  }
};

/** The old system `--verify-with` names, its secrets read now; none without the flag. */
async function oldSystemOf(path: string | undefined, io: CommandIO): Promise<OldSystemVerifier | OldSystemSettingsProblem | undefined> {
  if (path === undefined) return undefined;
  const settings = await readOldSystemSettings(path, io.cwd);
  if (settings instanceof OldSystemSettingsProblem) return settings;
  return openOldSystemVerifier(settings, { cwd: io.cwd, env: io.env });
}

/** `login-migration`: `serve` (the service a backend asks at sign-in) and `status` (how the migration stands). */
export const registerLoginMigration: RegisterCommand = (loginMigration: Command, context) => {
  registerLoginMigrationStatus(loginMigration, context);
  // The store and the core are the opener's flags; the service's own (its `service` group) are added by `serve`.
  const serve = addSettingOptions(loginMigration.command('serve'), 'serve', { groups: (group) => group !== 'service' });
  registerLoginMigrationServe(serve, context, openFromSettings);
};
