import { DeletedPolicySchema, DisabledPolicySchema, DuplicatePolicySchema, EmailLinkPolicySchema, ExistingPolicySchema } from '../choices.js';
import { DEFAULT_MAX_REMOVALS, DEFAULT_MIN_OVERLAP_PERCENT } from '../sync/sync-guard.js';
import { sourceFormats } from '../sources/source-format.js';
import { MAX_CONCURRENCY, type SettingKey } from './settings.js';

/** Where a setting belongs in a run; the terminal app has a screen for each group. */
export type SettingGroup = 'source' | 'hashes' | 'connection' | 'identity' | 'run';

/** The commands whose command line carries a setting. */
/** `serve` is `login-migration serve`: it reaches the core the migration's way, so it takes the connection settings. */
export type SettingCommand = 'plan' | 'push' | 'sync' | 'check' | 'rollback' | 'serve';

export type SettingKind =
  /** The export itself: the command's argument, not a flag. */
  | { type: 'argument' }
  | { type: 'text' }
  | { type: 'path' }
  /** Repeatable: one value per flag. */
  | { type: 'list' }
  /** Off unless given (`--dry-run`). */
  | { type: 'switch' }
  /** On unless turned off (`--no-keep-ids`). */
  | { type: 'negatable' }
  | { type: 'choice'; choices: readonly string[] };

export interface SettingFlag {
  key: SettingKey;
  /** The long flag, e.g. `--auth0-password-file`; for a negatable setting, the flag that turns it off. */
  flag: string;
  /** commander's value placeholder, e.g. `<file>`. */
  value?: string;
  /** The setting in the terminal app's own terms, e.g. "Auth0 password file". */
  label: string;
  group: SettingGroup;
  kind: SettingKind;
  /** What it does, for `--help` and the app's help. */
  help: string;
  commands: readonly SettingCommand[];
}

const source = ['plan', 'push', 'sync'] as const;
const connection = ['push', 'sync', 'check', 'rollback', 'serve'] as const;

/**
 * Every setting with its flag, its name in the app and its help: the headless commands build their options from
 * this table and the command line that repeats a run is written from it, so a flag and a field cannot drift apart.
 */
export const settingFlags: readonly SettingFlag[] = [
  {
    key: 'file',
    flag: '<file>',
    label: 'export file',
    group: 'source',
    kind: { type: 'argument' },
    help: 'the export file (.gz is read transparently)',
    commands: source,
  },
  {
    key: 'format',
    flag: '--format',
    value: '<format>',
    label: 'format',
    group: 'source',
    kind: { type: 'choice', choices: sourceFormats },
    help: 'force the export format instead of detecting it',
    commands: source,
  },
  {
    key: 'auth0PasswordFile',
    flag: '--auth0-password-file',
    value: '<file>',
    label: 'Auth0 password file',
    group: 'source',
    kind: { type: 'path' },
    help: 'the Auth0 password-hash export to join with the user export',
    commands: source,
  },
  {
    key: 'mapping',
    flag: '--mapping',
    value: '<file>',
    label: 'mapping file',
    group: 'source',
    kind: { type: 'path' },
    help: 'field mapping file for generic NDJSON/JSON/CSV exports',
    commands: source,
  },
  {
    key: 'map',
    flag: '--map',
    value: '<field=column>',
    label: 'field mapping',
    group: 'source',
    kind: { type: 'list' },
    help: 'map one field of a generic export, e.g. --map email=mail (repeatable)',
    commands: source,
  },
  {
    key: 'providerMap',
    flag: '--provider-map',
    value: '<id=name>',
    label: 'provider map',
    group: 'source',
    kind: { type: 'list' },
    help: 'map an export provider id to a short provider name (repeatable)',
    commands: source,
  },
  {
    key: 'duplicates',
    flag: '--duplicates',
    value: '<policy>',
    label: 'duplicates',
    group: 'source',
    kind: { type: 'choice', choices: DuplicatePolicySchema.options },
    help: 'which of two records with one email is imported',
    commands: source,
  },
  {
    key: 'disabled',
    flag: '--disabled',
    value: '<policy>',
    label: 'disabled accounts',
    group: 'identity',
    kind: { type: 'choice', choices: DisabledPolicySchema.options },
    help: 'accounts disabled in the old system: left out, or imported with disabled: true in their metadata',
    commands: source,
  },
  {
    key: 'passwordless',
    flag: '--no-passwordless',
    label: 'passwordless users',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'leave out users who sign in with their phone number or an email link (listed in the report for a reset)',
    commands: source,
  },
  {
    key: 'emailLink',
    flag: '--email-link',
    value: '<policy>',
    label: 'email-link users',
    group: 'identity',
    kind: { type: 'choice', choices: EmailLinkPolicySchema.options },
    help: 'users with an email and no password nor provider: passwordless email users, or refused for a password reset',
    commands: source,
  },
  {
    key: 'loginTime',
    flag: '--login-time',
    value: '<store>',
    label: 'login-time store',
    group: 'hashes',
    kind: { type: 'text' },
    help: 'a SQLite file or a postgresql:// URL (password in PGPASSWORD): users whose hash the core cannot import but core-migrate can verify wait there for their first login (rollback: removes those who arrived and empties it)',
    commands: [...source, 'rollback'],
  },
  {
    key: 'verifyWith',
    flag: '--verify-with',
    value: '<file>',
    label: 'old system to ask',
    group: 'hashes',
    kind: { type: 'path' },
    help: 'with --login-time: a JSON file naming the old system (firebase, cognito, openid, http) asked at first sign-in for users without a usable hash, who are parked instead of refused (docs/login-time.md)',
    commands: [...source, 'serve'],
  },
  {
    key: 'defaultRegion',
    flag: '--default-region',
    value: '<region>',
    label: 'default phone region',
    group: 'identity',
    kind: { type: 'text' },
    help: 'the country (ISO 3166 code, e.g. GB) of phone numbers written without a country code',
    commands: source,
  },
  {
    key: 'hashConfig',
    flag: '--hash-config',
    value: '<file>',
    label: 'hash_config file',
    group: 'hashes',
    kind: { type: 'path' },
    help: "the provider's hash_config block or JSON (vendor scrypt users)",
    commands: source,
  },
  {
    key: 'stripPrefix',
    flag: '--strip-prefix',
    value: '<prefix>',
    label: 'prefix rules',
    group: 'hashes',
    kind: { type: 'list' },
    help: 'strip this wrapper from hashes: exact text, or re:<regex> (repeatable)',
    commands: source,
  },
  {
    key: 'core',
    flag: '--core',
    value: '<url>',
    label: 'core URL',
    group: 'connection',
    kind: { type: 'list' },
    help: "the core, e.g. http://127.0.0.1:3567; again for each core sharing its database (default: CORE_URL, then the stack's coreUrls)",
    commands: connection,
  },
  {
    key: 'stack',
    flag: '--stack',
    value: '<name>',
    label: 'Pulumi stack',
    group: 'connection',
    kind: { type: 'text' },
    help: "read coreUrl and apiKey from this Pulumi stack's outputs (needs the pulumi CLI)",
    commands: connection,
  },
  {
    key: 'tenant',
    flag: '--tenant',
    value: '<id>',
    label: 'tenant',
    group: 'connection',
    kind: { type: 'text' },
    help: 'the tenant to import into (default: public)',
    commands: connection,
  },
  {
    key: 'app',
    flag: '--app',
    value: '<id>',
    label: 'app',
    group: 'connection',
    kind: { type: 'text' },
    help: 'the app the tenant belongs to (default: public)',
    commands: connection,
  },
  {
    key: 'apiKeyFile',
    flag: '--api-key-file',
    value: '<file>',
    label: 'api-key file',
    group: 'connection',
    kind: { type: 'path' },
    help: "a file holding the api-key (default: CORE_API_KEY, then the stack's apiKey)",
    commands: connection,
  },
  {
    key: 'caFile',
    flag: '--ca-file',
    value: '<file>',
    label: 'CA file',
    group: 'connection',
    kind: { type: 'path' },
    help: "the certificate (PEM) of the authority that signed an https:// core's certificate, e.g. a self-signed one (default: the authorities Node trusts)",
    commands: connection,
  },
  {
    key: 'concurrency',
    flag: '--concurrency',
    value: '<n>',
    label: 'concurrency',
    group: 'run',
    kind: { type: 'text' },
    help: `requests in flight at most, 1 to ${MAX_CONCURRENCY} (default: adaptive)`,
    commands: ['push', 'sync'],
  },
  {
    key: 'giveUpAfter',
    flag: '--give-up-after',
    value: '<seconds>',
    label: 'give up after',
    group: 'run',
    kind: { type: 'text' },
    help: 'stop (exit 3) once the core has answered nothing useful this long; until then requests wait (default: 300)',
    commands: connection,
  },
  {
    key: 'journal',
    flag: '--journal',
    value: '<file>',
    label: 'journal',
    group: 'run',
    kind: { type: 'path' },
    help: 'the journal that makes a re-run resume (default: beside the report); one push at a time (it is locked)',
    commands: ['push', 'sync', 'rollback'],
  },
  {
    key: 'report',
    flag: '--report',
    value: '<file>',
    label: 'report',
    group: 'run',
    kind: { type: 'path' },
    help: 'every record not imported, and why, one JSON object per line, appended after a line naming the run (default: <file>.push-report.ndjson here)',
    commands: ['plan', 'push', 'sync'],
  },
  {
    key: 'dryRun',
    flag: '--dry-run',
    label: 'dry run',
    group: 'run',
    kind: { type: 'switch' },
    help: 'plan and pre-flight only: nothing is written to the core',
    commands: ['push', 'sync', 'rollback'],
  },
  {
    key: 'verifyCredentials',
    flag: '--verify-credentials',
    value: '<file>',
    label: 'credentials file',
    group: 'run',
    kind: { type: 'path' },
    help: 'lines of "email password" of known accounts: checked locally before, signed in after',
    commands: ['push', 'sync'],
  },
  {
    key: 'json',
    flag: '--json',
    label: 'JSON output',
    group: 'run',
    kind: { type: 'switch' },
    help: 'end with one JSON object holding the summary counts',
    commands: ['plan', 'push', 'sync', 'check', 'rollback'],
  },
  {
    key: 'keepIds',
    flag: '--no-keep-ids',
    label: 'keep old ids',
    group: 'identity',
    kind: { type: 'negatable' },
    help: "do not map each user's core id to its id in the old system",
    commands: ['push', 'sync'],
  },
  {
    key: 'verifyEmails',
    flag: '--no-verify-emails',
    label: 'verify emails',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not verify in the core the emails the source marks verified',
    commands: ['push', 'sync'],
  },
  {
    key: 'metadata',
    flag: '--no-metadata',
    label: 'profile metadata',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not write the profile (name, photo, times, claims) into the user metadata',
    commands: ['push', 'sync'],
  },
  {
    key: 'existing',
    flag: '--existing',
    value: '<policy>',
    label: 'already in the core',
    group: 'identity',
    kind: { type: 'choice', choices: ExistingPolicySchema.options },
    help: 'a password user already in the core: left untouched, or its hash replaced (a sync always leaves it untouched)',
    commands: ['push', 'sync'],
  },
  {
    key: 'deleted',
    flag: '--deleted',
    value: '<policy>',
    label: 'gone from the export',
    group: 'identity',
    kind: { type: 'choice', choices: DeletedPolicySchema.options },
    help: 'a user the migration brought over that the newer export no longer has: reported and kept, or removed from the core (only if the migration created it)',
    commands: ['sync'],
  },
  {
    key: 'minOverlap',
    flag: '--min-overlap',
    value: '<percent>',
    label: 'least overlap',
    group: 'identity',
    kind: { type: 'text' },
    help: `the least share of the journal's users the newer export must still have (same old id, and the same email or password hash), or the sync is refused before anything is sent (default: ${DEFAULT_MIN_OVERLAP_PERCENT})`,
    commands: ['sync'],
  },
  {
    key: 'ignoreOverlap',
    flag: '--ignore-overlap',
    label: 'sync an unlike export',
    group: 'identity',
    kind: { type: 'switch' },
    help: "sync even an export that shares less than --min-overlap of the journal's users (it is the right one)",
    commands: ['sync'],
  },
  {
    key: 'maxRemovals',
    flag: '--max-removals',
    value: '<n|share%>',
    label: 'most removals',
    group: 'identity',
    kind: { type: 'text' },
    help: `remove at most this many users (disabled, or gone with --deleted remove): a count, or a share of the journal's users; over it nobody is removed (default: ${DEFAULT_MAX_REMOVALS})`,
    commands: ['sync'],
  },
  {
    key: 'rolesFrom',
    flag: '--roles-from',
    value: '<path>',
    label: 'roles path',
    group: 'identity',
    kind: { type: 'text' },
    help: 'where a record keeps its roles, e.g. customClaims.roles, appMetadata.roles or roles (plan shows what it found)',
    commands: source,
  },
  {
    key: 'roleMap',
    flag: '--role-map',
    value: '<old=new>',
    label: 'role renames',
    group: 'identity',
    kind: { type: 'list' },
    help: 'rename a role, e.g. --role-map editors=editor; old= leaves it out (repeatable)',
    commands: source,
  },
  {
    key: 'rolesFile',
    flag: '--roles-file',
    value: '<file>',
    label: 'permissions file',
    group: 'identity',
    kind: { type: 'path' },
    help: 'JSON of role -> permissions; roles outside it are reported, not given',
    commands: source,
  },
  {
    key: 'rolesUpdate',
    flag: '--roles-update',
    label: 'update role permissions',
    group: 'identity',
    kind: { type: 'switch' },
    help: "add the file's permissions to a role already on the core (default: reported, not changed)",
    commands: ['push'],
  },
  {
    key: 'roles',
    flag: '--no-roles',
    label: 'give roles',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'do not create roles or give users their roles',
    commands: ['push'],
  },
];

const byKey = new Map(settingFlags.map((entry) => [entry.key, entry]));

export function settingFlag(key: SettingKey): SettingFlag {
  const entry = byKey.get(key);
  if (entry === undefined) throw new Error(`no flag describes the setting ${key}`);
  return entry;
}

/** How a face names a setting in its sentences: the flag on the command line, the field's label in the app. */
export type SettingFace = 'flags' | 'app';

export function settingName(key: SettingKey, face: SettingFace): string {
  const entry = settingFlag(key);
  if (face === 'app') return entry.label;
  return entry.kind.type === 'argument' ? 'the export file' : entry.flag;
}
