import type { Command } from 'commander';
import {
  LegacyVerifierPool,
  LoginServiceSettingError,
  resolveServiceKey,
  startLoginService,
  type LoginService,
  type Migrate,
  type ReadinessCheck,
  type Secret,
} from 'core-client';
import { printableJson } from 'core-client/printable';
import { ExitCode, loginServiceSettingsOf, parseSettings, settingProblem, type MigrationSettings, type SettingProblem } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { CommandOutput } from './command-output.js';
import type { CommandContext } from './index.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

/** An open login-time migration (its store and its core): what the service asks at each sign-in, and its end. */
export interface OpenedLoginMigration {
  migrate: Migrate;
  /** What `/health` checks (`loginServiceReadiness`). */
  readiness?: readonly ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * Opens the login-time migration the service serves, from the command's settings (its store and its core), checking
 * passwords with `verify` (the service's verifier pool).
 */
export type OpenLoginMigration = (request: {
  settings: MigrationSettings;
  io: CommandIO;
  verify: LegacyVerifierPool['verify'];
  /** The service's own key: the opener refuses it when it is the core's key too. */
  serviceKey: Secret;
}) => Promise<OpenedLoginMigration | SettingProblem>;

/**
 * `login-migration serve`: the HTTP service a backend asks when the core refuses a sign-in. Its flags (the settings
 * table's `service` group) give where it listens, its own key, its limits and threads; `open` gives the migration it
 * serves, from the flags its registration adds (the store, the core). It prints its URL on standard output and
 * one JSON line per request on standard error (never a password, a hash or an email in clear), and stops cleanly on
 * SIGTERM or SIGINT (exit 0).
 */
export function registerLoginMigrationServe(serve: Command, { io, setExitCode }: CommandContext, open: OpenLoginMigration): void {
  addSettingOptions(serve, 'serve', { groups: (group) => group === 'service' })
    .description('serve login-time migrations: POST /migrate {email, password} answers notWaiting, wrongCredentials, migrated or tryLater; GET /health')
    .action(async (flags: Record<string, unknown>) => {
      const output = new CommandOutput(io, 'login-migration serve', { json: false });
      const refusal = apiKeyFlagRefusal(flags);
      if (refusal !== undefined) return setExitCode(output.failWith(settingProblem('apiKeyOnCommandLine', 'apiKeyFile', refusal)));
      const settings = parseSettings(settingsInputOf(flags));
      if (Array.isArray(settings)) return setExitCode(output.failWith(settings));
      const serviceKey = await resolveServiceKey({ file: settings.serviceKeyFile, env: io.env, cwd: io.cwd });
      if (serviceKey instanceof LoginServiceSettingError) return setExitCode(output.failWith(serviceKey));

      const { verifiers, maxQueuedChecks } = settings;
      const pool = new LegacyVerifierPool({
        ...(verifiers !== undefined && { size: verifiers }),
        ...(maxQueuedChecks !== undefined && { maxQueued: maxQueuedChecks }),
      });
      const migration = await open({ settings, io, verify: pool.verify, serviceKey });
      if (!('migrate' in migration)) {
        await pool.close();
        return setExitCode(output.failWith(migration));
      }
      const service = await listen(io, settings, serviceKey, migration);
      if (!('url' in service)) {
        await Promise.all([migration.close(), pool.close()]);
        return setExitCode(output.failWith(service));
      }
      output.say(`login-migration service listening on ${service.url} (POST /migrate, GET /health; ${pool.size} verifier threads)\n`);

      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        const stop = (received: NodeJS.Signals): void => {
          process.removeListener('SIGTERM', stop);
          process.removeListener('SIGINT', stop);
          resolve(received);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
      output.warn(`${signal}: finishing the sign-ins under way, then stopping.`);
      await service.close();
      await Promise.all([migration.close(), pool.close()]);
      output.warn('stopped.');
      setExitCode(ExitCode.ok);
    });
}

/** The service on the opened migration, logging one JSON line a request; an address it cannot listen on is a problem. */
async function listen(io: CommandIO, settings: MigrationSettings, serviceKey: Secret, migration: OpenedLoginMigration): Promise<LoginService | SettingProblem> {
  try {
    return await startLoginService({
      settings: loginServiceSettingsOf(settings),
      serviceKey,
      migrate: migration.migrate,
      ...(migration.readiness !== undefined && { readiness: migration.readiness }),
      log: (line) => io.stderr.write(`${printableJson(line)}\n`),
      notice: (sentence) => io.stderr.write(`core-migrate login-migration serve: ${sentence}\n`),
    });
  } catch (error) {
    if (error instanceof LoginServiceSettingError) return error;
    throw error;
  }
}
