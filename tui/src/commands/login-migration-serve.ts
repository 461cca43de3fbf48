import { Option, type Command } from 'commander';
import {
  DEFAULT_LOGIN_SERVICE_PORT,
  LegacyVerifierPool,
  LoginServiceSettingError,
  LoginServiceSettingsSchema,
  resolveServiceKey,
  SERVICE_KEY_ENV,
  SERVICE_KEY_FLAG,
  startLoginService,
  type Migrate,
  type ReadinessCheck,
} from 'core-client';
import type { Secret } from 'core-client';
import { printableJson } from 'core-client/printable';
import { ExitCode, type SettingProblem } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { CommandOutput } from './command-output.js';
import type { CommandContext } from './index.js';

/** An open login-time migration (its store and its core): what the service asks at each sign-in, and its end. */
export interface OpenedLoginMigration {
  migrate: Migrate;
  /** What `/health` checks (`loginServiceReadiness`). */
  readiness?: readonly ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * Opens the login-time migration the service serves, from the command's flags (the store and the core are options
 * the opener adds to the command), checking passwords with `verify` (the service's verifier pool).
 */
export type OpenLoginMigration = (request: {
  flags: Record<string, unknown>;
  io: CommandIO;
  verify: LegacyVerifierPool['verify'];
  /** The service's own key: the opener refuses it when it is the core's key too. */
  serviceKey: Secret;
}) => Promise<OpenedLoginMigration | SettingProblem>;

interface ServeFlags {
  host: string;
  port: string;
  serviceKeyFile?: string;
  maxFailuresPerEmail?: string;
  maxFailuresPerClient?: string;
  failureWindow?: string;
  verifiers?: string;
  maxQueuedChecks?: string;
}

/** The port from the environment when `--port` is not given: the image sets it, and its health check reads it. */
const LOGIN_SERVICE_PORT_ENV = 'LOGIN_MIGRATION_PORT';

const whole = (text: string | undefined): number | undefined => (text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : Number.NaN);

/** The flags' names for the settings, so a refused value is named as it was typed. */
const flagOf: Record<string, string> = {
  host: '--host',
  port: '--port',
  'limits.maxFailuresPerEmail': '--max-failures-per-email',
  'limits.maxFailuresPerClient': '--max-failures-per-client',
  'limits.windowSeconds': '--failure-window',
};

/**
 * `login-migration serve`: the HTTP service a backend asks when the core refuses a sign-in. The flags give where it
 * listens, its own key and its limits; `open` gives the migration it serves. It prints its URL on standard output and
 * one JSON line per request on standard error (never a password, a hash or an email in clear), and stops cleanly on
 * SIGTERM or SIGINT (exit 0).
 */
export function registerLoginMigrationServe(serve: Command, { io, setExitCode }: CommandContext, open: OpenLoginMigration): void {
  serve
    .description('serve login-time migrations: POST /migrate {email, password} answers notWaiting, wrongCredentials, migrated or tryLater; GET /health')
    .option('--host <address>', 'the address to listen on (the backend beside it is the only client)', '127.0.0.1')
    .addOption(
      new Option('--port <number>', `the port (0: any free one, printed)`)
        .default(String(DEFAULT_LOGIN_SERVICE_PORT))
        // The image's health check reads the same variable, so a container moved to another port stays healthy.
        .env(LOGIN_SERVICE_PORT_ENV),
    )
    .option(`${SERVICE_KEY_FLAG} <file>`, `a file holding the service's own key, which the backend sends as a Bearer token (default: ${SERVICE_KEY_ENV})`)
    .option('--max-failures-per-email <number>', 'wrong passwords for one email before it must wait (default 5)')
    .option('--max-failures-per-client <number>', 'wrong passwords from one client address before it must wait (default 50)')
    .option('--failure-window <seconds>', 'how long failures are counted and a locked email or client waits (default 900)')
    .option('--verifiers <number>', 'threads checking legacy hashes (default: the CPUs)')
    .option('--max-queued-checks <number>', 'checks that may wait for a thread; beyond, tryLater busy (default 16 per thread)')
    .action(async (flags: ServeFlags) => {
      const output = new CommandOutput(io, 'login-migration serve', { json: false });
      const settings = LoginServiceSettingsSchema.safeParse({
        host: flags.host,
        port: whole(flags.port),
        limits: {
          ...(flags.maxFailuresPerEmail !== undefined && { maxFailuresPerEmail: whole(flags.maxFailuresPerEmail) }),
          ...(flags.maxFailuresPerClient !== undefined && { maxFailuresPerClient: whole(flags.maxFailuresPerClient) }),
          ...(flags.failureWindow !== undefined && { windowSeconds: whole(flags.failureWindow) }),
        },
      });
      if (!settings.success) {
        const issue = settings.error.issues[0];
        const flag = flagOf[issue?.path.join('.') ?? ''] ?? 'a flag';
        return setExitCode(output.fail(`${flag}: ${issue?.message ?? 'not accepted'}`, ExitCode.usageOrConfiguration));
      }
      const verifiers = whole(flags.verifiers);
      const maxQueued = whole(flags.maxQueuedChecks);
      if (Number.isNaN(verifiers) || verifiers === 0 || Number.isNaN(maxQueued)) {
        return setExitCode(output.fail('--verifiers must be a whole number from 1, --max-queued-checks from 0', ExitCode.usageOrConfiguration));
      }
      const serviceKey = await resolveServiceKey({ file: flags.serviceKeyFile, env: io.env, cwd: io.cwd });
      if (serviceKey instanceof LoginServiceSettingError) {
        return setExitCode(
          output.fail(
            serviceKey.describe('flags', () => SERVICE_KEY_FLAG),
            serviceKey.exitCode,
            { code: serviceKey.code },
          ),
        );
      }

      const pool = new LegacyVerifierPool({ ...(verifiers !== undefined && { size: verifiers }), ...(maxQueued !== undefined && { maxQueued }) });
      const migration = await open({ flags: { ...flags }, io, verify: pool.verify, serviceKey });
      if (!('migrate' in migration)) {
        await pool.close();
        return setExitCode(output.failWith(migration));
      }
      const service = await startLoginService({
        settings: settings.data,
        serviceKey,
        migrate: migration.migrate,
        ...(migration.readiness !== undefined && { readiness: migration.readiness }),
        log: (line) => io.stderr.write(`${printableJson(line)}\n`),
      }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (service instanceof Error) {
        await Promise.all([migration.close(), pool.close()]);
        const code = 'code' in service ? String(service.code) : service.name;
        return setExitCode(output.fail(`cannot listen on ${settings.data.host}:${settings.data.port} (${code})`, ExitCode.usageOrConfiguration));
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
