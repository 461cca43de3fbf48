import { z } from 'zod';
import { DisabledPolicySchema, DuplicatePolicySchema, EmailLinkPolicySchema } from '../choices.js';
import { postgresUrlHasPassword } from '../sources/database/postgres-url.js';
import { sourceFormats } from '../sources/source-format.js';
import { sourceCommands, type SettingFlagOf } from './setting-flag.js';
import { optionalText, textList, unset } from './setting-values.js';

/**
 * The export and how its records are read (plan, push, sync): the file, its format and mapping, the policies for its
 * accounts, and the login-time store with the old system it asks. One group, not two, so that both the schema's order
 * and `--help`'s order stay what they were.
 */
export const sourceSettings = {
  /** The export file, or the URL of a database holding the users (Supabase, Better Auth). */
  file: optionalText.refine(
    (value) => value === undefined || !postgresUrlHasPassword(value),
    'is a database URL with a password in it, which the command line that repeats the run would show: give the password in PGPASSWORD',
  ),
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
    (value) => value === undefined || !postgresUrlHasPassword(value),
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
};

export const sourceFlags: readonly SettingFlagOf<keyof typeof sourceSettings>[] = [
  {
    key: 'file',
    flag: '<file>',
    label: 'export file',
    group: 'source',
    kind: { type: 'argument' },
    help: 'the export file (.gz is read transparently), or a postgresql:// URL of a Supabase or Better Auth database (password in PGPASSWORD)',
    commands: sourceCommands,
  },
  {
    key: 'format',
    flag: '--format',
    value: '<format>',
    label: 'format',
    group: 'source',
    kind: { type: 'choice', choices: sourceFormats },
    help: 'force the export format instead of detecting it',
    commands: sourceCommands,
  },
  {
    key: 'auth0PasswordFile',
    flag: '--auth0-password-file',
    value: '<file>',
    label: 'Auth0 password file',
    group: 'source',
    kind: { type: 'path' },
    help: 'the Auth0 password-hash export to join with the user export',
    commands: sourceCommands,
  },
  {
    key: 'mapping',
    flag: '--mapping',
    value: '<file>',
    label: 'mapping file',
    group: 'source',
    kind: { type: 'path' },
    help: 'field mapping file for generic NDJSON/JSON/CSV exports',
    commands: sourceCommands,
  },
  {
    key: 'map',
    flag: '--map',
    value: '<field=column>',
    label: 'field mapping',
    group: 'source',
    kind: { type: 'list' },
    help: 'map one field of a generic export, e.g. --map email=mail (repeatable)',
    commands: sourceCommands,
  },
  {
    key: 'providerMap',
    flag: '--provider-map',
    value: '<id=name>',
    label: 'provider map',
    group: 'source',
    kind: { type: 'list' },
    help: 'map an export provider id to a short provider name (repeatable)',
    commands: sourceCommands,
  },
  {
    key: 'duplicates',
    flag: '--duplicates',
    value: '<policy>',
    label: 'duplicates',
    group: 'source',
    kind: { type: 'choice', choices: DuplicatePolicySchema.options },
    help: 'which of two records with one email is imported',
    commands: sourceCommands,
  },
  {
    key: 'disabled',
    flag: '--disabled',
    value: '<policy>',
    label: 'disabled accounts',
    group: 'identity',
    kind: { type: 'choice', choices: DisabledPolicySchema.options },
    help: 'accounts disabled in the old system: left out, or imported with disabled: true in their metadata',
    commands: sourceCommands,
  },
  {
    key: 'passwordless',
    flag: '--no-passwordless',
    label: 'passwordless users',
    group: 'identity',
    kind: { type: 'negatable' },
    help: 'leave out users who sign in with their phone number or an email link (listed in the report for a reset)',
    commands: sourceCommands,
  },
  {
    key: 'emailLink',
    flag: '--email-link',
    value: '<policy>',
    label: 'email-link users',
    group: 'identity',
    kind: { type: 'choice', choices: EmailLinkPolicySchema.options },
    help: 'users with an email and no password nor provider: passwordless email users, or refused for a password reset',
    commands: sourceCommands,
  },
  {
    key: 'loginTime',
    flag: '--login-time',
    value: '<store>',
    label: 'login-time store',
    group: 'hashes',
    kind: { type: 'text' },
    help: 'a SQLite file or a postgresql:// URL (password in PGPASSWORD): users whose hash the core cannot import but core-migrate can verify wait there for their first login (rollback: removes those who arrived and empties it)',
    commands: [...sourceCommands, 'rollback'],
  },
  {
    key: 'verifyWith',
    flag: '--verify-with',
    value: '<file>',
    label: 'old system to ask',
    group: 'hashes',
    kind: { type: 'path' },
    help: 'with --login-time: a JSON file naming the old system (firebase, cognito, openid, http) asked at first sign-in for users without a usable hash, who are parked instead of refused (docs/login-time.md)',
    commands: [...sourceCommands, 'serve'],
  },
  {
    key: 'defaultRegion',
    flag: '--default-region',
    value: '<region>',
    label: 'default phone region',
    group: 'identity',
    kind: { type: 'text' },
    help: 'the country (ISO 3166 code, e.g. GB) of phone numbers written without a country code',
    commands: sourceCommands,
  },
  {
    key: 'hashConfig',
    flag: '--hash-config',
    value: '<file>',
    label: 'hash_config file',
    group: 'hashes',
    kind: { type: 'path' },
    help: "the provider's hash_config block or JSON (vendor scrypt users)",
    commands: sourceCommands,
  },
  {
    key: 'stripPrefix',
    flag: '--strip-prefix',
    value: '<prefix>',
    label: 'prefix rules',
    group: 'hashes',
    kind: { type: 'list' },
    help: 'strip this wrapper from hashes: exact text, or re:<regex> (repeatable)',
    commands: sourceCommands,
  },
];
