import { z } from 'zod';
import { DeletedPolicySchema, DisabledPolicySchema, DuplicatePolicySchema, EmailLinkPolicySchema, ExistingPolicySchema } from '../choices.js';
import { RemovalLimitSchema } from '../sync/sync-guard.js';
import { sourceFormats } from '../sources/source-format.js';

/** The most requests in flight an operator may ask for: beyond it a single client only queues in its own pool. */
export const MAX_CONCURRENCY = 1_024;
/** A day: a longer silence is no core to wait for. */
export const MAX_GIVE_UP_AFTER_SECONDS = 86_400;

/** An empty field (the app) and an absent flag (the command line) mean the same: not set. */
const unset = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const optionalText = z.preprocess(unset, z.string().trim().optional());

/** A whole number typed (text) or given (a number), within its limits; the message says which and what was given. */
function optionalWholeNumber(min: number, max: number, what: string) {
  return z.preprocess(
    unset,
    z
      .union([z.number(), z.string()])
      .transform((value, context) => {
        const number = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
        if (!Number.isInteger(number) || number < min || number > max) {
          context.addIssue({ code: 'custom', message: `must be ${what} from ${min} to ${max}, not "${String(value).trim()}"` });
          return z.NEVER;
        }
        return number;
      })
      .optional(),
  );
}
const textList = z.array(z.string()).default([]);

/**
 * Every setting of a migration run, the one description both faces fill: the headless commands from their flags
 * (one flag per key, named in `settingFlags`), the terminal app from its fields. Values are what the operator gave
 * (paths relative to the folder the command runs in); `resolveRunPaths` and `planOptionsOf` turn them into what a
 * run uses. The api-key is deliberately not here: it never is a flag value (shell history, ps), so it comes from the
 * environment, `apiKeyFile`, the stack, or the app's masked field.
 */
export const MigrationSettingsSchema = z.object({
  /** The export file. */
  file: optionalText,
  format: z.preprocess((value) => (value === 'auto' ? undefined : unset(value)), z.enum(sourceFormats).optional()),
  /** Field mapping file of a generic export. */
  mapping: optionalText,
  /** `field=column` entries over the mapping file. */
  map: textList,
  auth0PasswordFile: optionalText,
  /** The provider's hash_config block or JSON (vendor scrypt users). */
  hashConfig: optionalText,
  stripPrefix: textList,
  /**
   * The login-time migration's waiting store: a SQLite file or a `postgresql://` URL. With it, users whose hash the
   * core cannot import but core-migrate can verify are parked there for their first login instead of refused.
   */
  loginTime: optionalText.refine(
    (value) => value === undefined || !/^postgres(ql)?:\/\/[^/@]*:[^/@]*@/i.test(value),
    'a PostgreSQL URL must not carry a password (the command line that repeats the run would show it): give the password in PGPASSWORD',
  ),
  /**
   * The old system to ask at sign-in (a JSON file: `OldSystemSettingsSchema`), with `loginTime`: users without a usable
   * hash are parked for it instead of refused.
   */
  verifyWith: optionalText,
  /** `export-provider-id=short-name` entries over the built-in provider map. */
  providerMap: textList,
  duplicates: DuplicatePolicySchema.default('first-wins'),
  disabled: DisabledPolicySchema.default('skip'),
  /** Users who sign in with their phone or an email link become passwordless users (`--no-passwordless`: refused, reported). */
  passwordless: z.boolean().default(true),
  /** An email-only user (no password, no provider): a passwordless email user, or refused for a reset. */
  emailLink: EmailLinkPolicySchema.default('passwordless'),
  /** The region (ISO 3166 code, e.g. GB) of phone numbers written without a country code; unset: such numbers are refused. */
  defaultRegion: optionalText,

  /** One URL, or several cores that share one database. */
  core: z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1)).default([])),
  stack: optionalText,
  tenant: optionalText,
  app: optionalText,
  apiKeyFile: optionalText,
  /** Certificates (PEM) of the authority behind an https:// core's certificate; unset: the ones Node trusts. */
  caFile: optionalText,

  /** Requests in flight at most; unset: adaptive. */
  concurrency: optionalWholeNumber(1, MAX_CONCURRENCY, 'a whole number'),
  /** Seconds the core may answer nothing useful before the push stops (exit 3); unset: the engine's default. */
  giveUpAfter: optionalWholeNumber(1, MAX_GIVE_UP_AFTER_SECONDS, 'a whole number of seconds'),
  journal: optionalText,
  report: optionalText,
  dryRun: z.boolean().default(false),
  verifyCredentials: optionalText,
  json: z.boolean().default(false),

  keepIds: z.boolean().default(true),
  verifyEmails: z.boolean().default(true),
  metadata: z.boolean().default(true),
  existing: ExistingPolicySchema.default('skip'),
  /** A sync: what happens to users gone from the newer export. */
  deleted: DeletedPolicySchema.default('keep'),
  /** A sync: the least share (percent) of the journal's users the newer export must still have; unset: 50. */
  minOverlap: optionalWholeNumber(0, 100, 'a whole percentage'),
  /** A sync goes on whatever the overlap: the operator says the export is the right one. */
  ignoreOverlap: z.boolean().default(false),
  /** A sync removes at most this many users: a count, or a share of the journal's users (`5%`); unset: 5%. */
  maxRemovals: z.preprocess(unset, RemovalLimitSchema.optional()),

  /** Give users their roles of the old system (`--no-roles` turns it off). */
  roles: z.boolean().default(true),
  /** Where a record's roles are: a dotted path into the record as read; unset: no roles are read. */
  rolesFrom: optionalText,
  /** `old=new` renames of roles (`old=` leaves one out). */
  roleMap: textList,
  /** JSON: role → permissions. */
  rolesFile: optionalText,
  /** A role already on the core with other permissions gets the file's added (default: reported, not changed). */
  rolesUpdate: z.boolean().default(false),
});

export type MigrationSettings = z.output<typeof MigrationSettingsSchema>;
/** What the faces hand over: flag values as commander gives them, or the app's fields (strings where typed). */
export type MigrationSettingsInput = z.input<typeof MigrationSettingsSchema>;
export type SettingKey = keyof MigrationSettings;

export const defaultSettings: MigrationSettings = MigrationSettingsSchema.parse({});
