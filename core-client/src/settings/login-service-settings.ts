import type { z } from 'zod';
import { AttemptLimitSettingsSchema } from '../login-time/attempt-limits.js';
import { SERVICE_KEY_ENV, SERVICE_KEY_FLAG } from '../login-time/service/service-key.js';
import { resolveStoreLocation } from '../login-time/store/open-store.js';
import { LOGIN_SERVICE_PORT_ENV, LOGIN_STORE_ENV, LoginServiceSettingsSchema, type LoginServiceSettingsInput } from '../login-time/service/service-settings.js';
import { optional } from '../optional.js';
import { Problem } from '../problem.js';
import type { SettingFlagOf } from './setting-flag.js';
import { optionalText, optionalWholeNumber } from './setting-values.js';

/** More threads than this checking hashes is a typing mistake, not a machine. */
export const MAX_VERIFIERS = 1_024;
/** Checks waiting for a thread at most: each holds a sign-in open. */
export const MAX_QUEUED_CHECKS = 1_000_000;

/**
 * A whole number typed for a setting of the service, within the bounds the service's own schema sets (unset: the
 * service's default), so a bound lives once, in login-time/service/service-settings.ts or login-time/attempt-limits.ts.
 */
function withinServiceBounds(schema: z.ZodDefault<z.ZodNumber>, what: string) {
  const number = schema.unwrap();
  return optionalWholeNumber(number.minValue ?? 0, number.maxValue ?? Number.MAX_SAFE_INTEGER, what);
}

/** The service's defaults, which the flags' help names: read from its schema, never written twice. */
const serviceDefaults = LoginServiceSettingsSchema.parse({});

/** `login-migration`'s own settings: the waiting store, and where the service listens, its key, limits and threads. */
export const loginServiceSettings = {
  store: optionalText,
  waitingList: optionalText,
  host: optionalText,
  port: withinServiceBounds(LoginServiceSettingsSchema.shape.port, 'a port'),
  serviceKeyFile: optionalText,
  maxFailuresPerEmailFromClient: withinServiceBounds(AttemptLimitSettingsSchema.shape.maxFailuresPerEmailFromClient, 'a whole number'),
  maxFailuresPerEmail: withinServiceBounds(AttemptLimitSettingsSchema.shape.maxFailuresPerEmail, 'a whole number'),
  maxFailuresPerClient: withinServiceBounds(AttemptLimitSettingsSchema.shape.maxFailuresPerClient, 'a whole number'),
  failureWindow: withinServiceBounds(AttemptLimitSettingsSchema.shape.windowSeconds, 'a whole number of seconds'),
  /** Unset: one a CPU. */
  verifiers: optionalWholeNumber(1, MAX_VERIFIERS, 'a whole number'),
  /** Unset: 16 a thread. */
  maxQueuedChecks: optionalWholeNumber(0, MAX_QUEUED_CHECKS, 'a whole number'),
};

/** The group's values as read (settings.ts gathers them into `MigrationSettings`, which this file cannot import without a circle). */
type LoginServiceValues = z.output<z.ZodObject<typeof loginServiceSettings>>;

/** Where the service listens and its limits, as the service's schema reads them; what is unset keeps its default. */
export function loginServiceSettingsOf(
  settings: Pick<LoginServiceValues, 'host' | 'port' | 'maxFailuresPerEmailFromClient' | 'maxFailuresPerEmail' | 'maxFailuresPerClient' | 'failureWindow'>,
): LoginServiceSettingsInput {
  const { host, port, maxFailuresPerEmailFromClient, maxFailuresPerEmail, maxFailuresPerClient, failureWindow } = settings;
  return {
    ...optional('host', host),
    ...optional('port', port),
    limits: {
      ...optional('maxFailuresPerEmailFromClient', maxFailuresPerEmailFromClient),
      ...optional('maxFailuresPerEmail', maxFailuresPerEmail),
      ...optional('maxFailuresPerClient', maxFailuresPerClient),
      ...optional('windowSeconds', failureWindow),
    },
  };
}

/**
 * The waiting store `--store` names: a PostgreSQL URL as given, a SQLite file from the folder the command runs in.
 * commander refuses `serve` and `status` without the flag (the table marks it mandatory); another caller may not have.
 */
export function waitingStoreLocation(settings: Pick<LoginServiceValues, 'store'>, cwd: string): string | Problem<'store', 'fileNeeded'> {
  const { store } = settings;
  if (store === undefined) return new Problem('fileNeeded', 'setting', 'store', '{setting} is needed: the waiting store the push wrote');
  return resolveStoreLocation(store, cwd);
}

export const loginServiceFlags: readonly SettingFlagOf<keyof typeof loginServiceSettings>[] = [
  {
    key: 'store',
    flag: '--store',
    value: '<store>',
    label: 'waiting store',
    // Where `--login-time` is: the same store, which `serve`'s opener adds beside the core.
    group: 'hashes',
    kind: { type: 'path' },
    help: 'the waiting store the push wrote (--login-time): a SQLite file or a postgresql:// URL (password in PGPASSWORD)',
    commands: ['serve', 'status'],
    env: LOGIN_STORE_ENV,
    mandatory: true,
  },
  {
    key: 'waitingList',
    flag: '--waiting-list',
    value: '<file>',
    label: 'waiting list',
    group: 'service',
    kind: { type: 'path' },
    help: 'write the users still waiting as CSV (email,old_id), created readable by its owner only',
    commands: ['status'],
  },
  {
    key: 'host',
    flag: '--host',
    value: '<address>',
    label: 'listen address',
    group: 'service',
    kind: { type: 'text' },
    help: `the address to listen on (the backend beside it is the only client; default: ${serviceDefaults.host})`,
    commands: ['serve'],
  },
  {
    key: 'port',
    flag: '--port',
    value: '<number>',
    label: 'port',
    group: 'service',
    kind: { type: 'text' },
    help: `the port (0: any free one, printed; default: ${serviceDefaults.port})`,
    commands: ['serve'],
    // The image's health check reads the same variable, so a container moved to another port stays healthy.
    env: LOGIN_SERVICE_PORT_ENV,
  },
  {
    key: 'serviceKeyFile',
    flag: SERVICE_KEY_FLAG,
    value: '<file>',
    label: 'service key file',
    group: 'service',
    kind: { type: 'path' },
    help: `a file holding the service's own key, which the backend sends as a Bearer token (default: ${SERVICE_KEY_ENV})`,
    commands: ['serve'],
  },
  {
    key: 'maxFailuresPerEmailFromClient',
    flag: '--max-failures-per-email-from-client',
    value: '<number>',
    label: 'failures per email from a client',
    group: 'service',
    kind: { type: 'text' },
    help: `wrong passwords for one email from one clientAddress per window before that client must wait (default ${serviceDefaults.limits.maxFailuresPerEmailFromClient})`,
    commands: ['serve'],
  },
  {
    key: 'maxFailuresPerClient',
    flag: '--max-failures-per-client',
    value: '<number>',
    label: 'failures per client',
    group: 'service',
    kind: { type: 'text' },
    help: `wrong passwords from one clientAddress (an IPv6 /64) across emails per window before it must wait (default ${serviceDefaults.limits.maxFailuresPerClient})`,
    commands: ['serve'],
  },
  {
    key: 'maxFailuresPerEmail',
    flag: '--max-failures-per-email',
    value: '<number>',
    label: 'failures per email',
    group: 'service',
    kind: { type: 'text' },
    help: `wrong passwords for one email from every client per window before its checks slow down (default ${serviceDefaults.limits.maxFailuresPerEmail})`,
    commands: ['serve'],
  },
  {
    key: 'failureWindow',
    flag: '--failure-window',
    value: '<seconds>',
    label: 'failure window',
    group: 'service',
    kind: { type: 'text' },
    help: `the window of the limits: each fills again at its number per window (default ${serviceDefaults.limits.windowSeconds})`,
    commands: ['serve'],
  },
  {
    key: 'verifiers',
    flag: '--verifiers',
    value: '<number>',
    label: 'verifier threads',
    group: 'service',
    kind: { type: 'text' },
    help: 'threads checking legacy hashes (default: the CPUs)',
    commands: ['serve'],
  },
  {
    key: 'maxQueuedChecks',
    flag: '--max-queued-checks',
    value: '<number>',
    label: 'queued checks',
    group: 'service',
    kind: { type: 'text' },
    help: 'checks that may wait for a thread; beyond, tryLater busy (default 16 per thread)',
    commands: ['serve'],
  },
];
