import type { MappedField, SourceFormat } from 'core-client';
import type { MigrationSettings, MigrationSettingsInput } from 'core-client/settings';

export type FormatChoice = SourceFormat | 'auto';

/**
 * The settings as the app's fields hold them while the operator types: text for what is typed (a half-typed
 * concurrency is still text), one entry per mapped field and per provider. `settingsInputOfDraft` turns it into
 * what the command line would give, and core-client's `parseSettings` checks both alike.
 */
export interface Draft {
  file: string;
  format: FormatChoice;
  auth0PasswordFile: string;
  mapping: string;
  /** Mapped field → column or key ('' keeps the default). */
  map: Partial<Record<MappedField, string>>;
  /** Export provider id → short name ('' leaves it unmapped). */
  providerMap: Record<string, string>;
  duplicates: MigrationSettings['duplicates'];
  disabled: MigrationSettings['disabled'];
  passwordless: boolean;
  emailLink: MigrationSettings['emailLink'];
  /** ISO 3166 code of national phone numbers, as typed ('' leaves them refused). */
  defaultRegion: string;
  hashConfig: string;
  stripPrefix: string[];
  /** The login-time migration's waiting store ('' for none). */
  loginTime: string;
  /** The old system's settings file, asked for users without a usable hash ('' for none). */
  verifyWith: string;
  core: string;
  /** Further cores given as flags (they share the first one's database). */
  moreCores: string[];
  stack: string;
  tenant: string;
  app: string;
  apiKeyFile: string;
  caFile: string;
  concurrency: string;
  giveUpAfter: string;
  journal: string;
  report: string;
  dryRun: boolean;
  verifyCredentials: string;
  keepIds: boolean;
  verifyEmails: boolean;
  metadata: boolean;
  existing: MigrationSettings['existing'];
  deleted: MigrationSettings['deleted'];
  minOverlap: string;
  ignoreOverlap: boolean;
  maxRemovals: string;
  roles: boolean;
  rolesFrom: string;
  /** `old=new` renames, separated by commas, as typed in one field. */
  roleMap: string;
  rolesFile: string;
  rolesUpdate: boolean;
}

function pairs(entries: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf('=');
    if (separator > 0) result[entry.slice(0, separator).trim()] = entry.slice(separator + 1).trim();
  }
  return result;
}

/** The fields filled from settings (the command line that opened the app, or the defaults). */
export function draftFromSettings(settings: MigrationSettings): Draft {
  const [core, ...moreCores] = settings.core;
  return {
    file: settings.file ?? '',
    format: settings.format ?? 'auto',
    auth0PasswordFile: settings.auth0PasswordFile ?? '',
    mapping: settings.mapping ?? '',
    map: pairs(settings.map) as Partial<Record<MappedField, string>>,
    providerMap: pairs(settings.providerMap),
    duplicates: settings.duplicates,
    disabled: settings.disabled,
    passwordless: settings.passwordless,
    emailLink: settings.emailLink,
    defaultRegion: settings.defaultRegion ?? '',
    hashConfig: settings.hashConfig ?? '',
    stripPrefix: [...settings.stripPrefix],
    loginTime: settings.loginTime ?? '',
    verifyWith: settings.verifyWith ?? '',
    core: core ?? '',
    moreCores,
    stack: settings.stack ?? '',
    tenant: settings.tenant ?? '',
    app: settings.app ?? '',
    apiKeyFile: settings.apiKeyFile ?? '',
    caFile: settings.caFile ?? '',
    concurrency: settings.concurrency === undefined ? '' : String(settings.concurrency),
    giveUpAfter: settings.giveUpAfter === undefined ? '' : String(settings.giveUpAfter),
    journal: settings.journal ?? '',
    report: settings.report ?? '',
    dryRun: settings.dryRun,
    verifyCredentials: settings.verifyCredentials ?? '',
    keepIds: settings.keepIds,
    verifyEmails: settings.verifyEmails,
    metadata: settings.metadata,
    existing: settings.existing,
    deleted: settings.deleted,
    minOverlap: settings.minOverlap === undefined ? '' : String(settings.minOverlap),
    ignoreOverlap: settings.ignoreOverlap,
    maxRemovals: settings.maxRemovals ?? '',
    roles: settings.roles,
    rolesFrom: settings.rolesFrom ?? '',
    roleMap: settings.roleMap.join(', '),
    rolesFile: settings.rolesFile ?? '',
    rolesUpdate: settings.rolesUpdate,
  };
}

/** What the command line would hand over for these fields (empty fields are unset, as absent flags are). */
export function settingsInputOfDraft(draft: Draft): MigrationSettingsInput {
  return {
    file: draft.file,
    format: draft.format,
    auth0PasswordFile: draft.auth0PasswordFile,
    mapping: draft.mapping,
    map: Object.entries(draft.map)
      .filter(([, column]) => column !== undefined && column.trim() !== '')
      .map(([field, column]) => `${field}=${(column ?? '').trim()}`),
    providerMap: Object.entries(draft.providerMap)
      .filter(([, name]) => name.trim() !== '')
      .map(([id, name]) => `${id}=${name.trim()}`),
    duplicates: draft.duplicates,
    disabled: draft.disabled,
    passwordless: draft.passwordless,
    emailLink: draft.emailLink,
    defaultRegion: draft.defaultRegion,
    hashConfig: draft.hashConfig,
    stripPrefix: draft.stripPrefix,
    loginTime: draft.loginTime,
    verifyWith: draft.verifyWith,
    core: [draft.core, ...draft.moreCores].map((url) => url.trim()).filter((url) => url !== ''),
    stack: draft.stack,
    tenant: draft.tenant,
    app: draft.app,
    apiKeyFile: draft.apiKeyFile,
    caFile: draft.caFile,
    concurrency: draft.concurrency,
    giveUpAfter: draft.giveUpAfter,
    journal: draft.journal,
    report: draft.report,
    dryRun: draft.dryRun,
    verifyCredentials: draft.verifyCredentials,
    keepIds: draft.keepIds,
    verifyEmails: draft.verifyEmails,
    metadata: draft.metadata,
    existing: draft.existing,
    deleted: draft.deleted,
    minOverlap: draft.minOverlap,
    ignoreOverlap: draft.ignoreOverlap,
    maxRemovals: draft.maxRemovals,
    roles: draft.roles,
    rolesFrom: draft.rolesFrom,
    roleMap: draft.roleMap
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    rolesFile: draft.rolesFile,
    rolesUpdate: draft.rolesUpdate,
  };
}

/** The fields that decide the plan: a change of any of them makes a counted plan stale. */
export function planDraftKey(draft: Draft, typedHash: string): string {
  return JSON.stringify([
    draft.file.trim(),
    draft.format,
    draft.auth0PasswordFile.trim(),
    draft.mapping.trim(),
    draft.map,
    draft.providerMap,
    draft.duplicates,
    draft.disabled,
    draft.passwordless,
    draft.emailLink,
    draft.defaultRegion.trim().toUpperCase(),
    draft.hashConfig.trim(),
    draft.stripPrefix,
    draft.loginTime.trim(),
    draft.verifyWith.trim(),
    draft.roles,
    draft.rolesFrom.trim(),
    draft.roleMap.trim(),
    draft.rolesFile.trim(),
    typedHash,
  ]);
}
