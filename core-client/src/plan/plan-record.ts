import type { DisabledPolicy, OldSystemKind } from '../choices.js';
import type { HashConfig } from '../hashes/hash-config.js';
import type { PrefixRule } from '../hashes/prefix-rules.js';
import { legacyHashBehind, type LegacyHashReading } from '../hashes/legacy-behind.js';
import { legacyHashFamilyLabel } from '../hashes/legacy/registry.js';
import { prepareHash } from '../hashes/prepare-hash.js';
import type { LinkedProvider, SourceRecord, SourceUser } from '../sources/source-user.js';
import { normaliseEmail } from './email.js';
import { passwordlessLogin, type ImportOperation, type PlanItem, type RejectionCode } from './operation.js';
import { planPasswordless, type PasswordlessRules } from './passwordless.js';
import { MAX_THIRD_PARTY_USER_ID_LENGTH, isThirdPartyProvider, shortProviderName } from './providers.js';
import { recordKey } from './record-key.js';
import { rejection } from './rejection.js';
import { rolesOfRecord, type RoleRules } from '../roles/plan-roles.js';
import { optional } from '../optional.js';

export interface RecordPlanningRules extends PasswordlessRules {
  hashConfig?: HashConfig;
  prefixRules?: PrefixRule[];
  providerMap: Readonly<Record<string, string>>;
  /** The export's path as the reader names it in locations; records of any other file (Auth0's hash file) are keyed apart. */
  sourceFile?: string;
  disabled?: DisabledPolicy;
  /** Where the record's roles are and what they become; without it no roles are read. */
  roles?: RoleRules;
  /** A login-time migration (`--login-time`): a legacy hash core-migrate can verify is parked, not refused. */
  loginTime?: boolean;
  /**
   * With a login-time migration, the old system asked at sign-in (`--verify-with`): a password user without a usable
   * hash (none exported, or one neither the core nor core-migrate can take) is parked for it, not refused.
   */
  oldSystem?: OldSystemKind;
}

/**
 * Turns one source record into the operations of the contract, or rejections that say why, without looking at
 * any other record (duplicates are the stream's job).
 */
export function planRecord(record: SourceRecord, rules: RecordPlanningRules): PlanItem[] {
  const key = recordKey(record.location, rules.sourceFile);
  if (record.kind === 'malformed') {
    return [rejection(record, key, 'malformedRecord', record.reason)];
  }
  if (record.anonymous === true) {
    return [
      rejection(
        record,
        key,
        'anonymousUser',
        `an anonymous user of ${record.system ?? 'the old system'}: it has no email, phone, password or linked account to sign in with again, so the core can keep nothing of it`,
      ),
    ];
  }
  const items: PlanItem[] = [];
  const hasHash = (record.passwordHash ?? '').trim().length > 0;
  const oldSystem = rules.loginTime === true ? rules.oldSystem : undefined;
  if (hasHash) items.push(planPasswordImport(record, key, rules));
  else if (record.unreadableHash !== undefined) items.push(planUnreadableHash(record, `${key}#pw`, record.unreadableHash, oldSystem));
  else if (oldSystem !== undefined && isPasswordUserWithoutHash(record)) items.push(planOldSystemWait(record, `${key}#pw`, oldSystem));
  record.providers
    .filter((provider) => isThirdPartyProvider(provider.providerId))
    .forEach((provider, ordinal) => items.push(planThirdParty(record, provider, `${key}#tp${ordinal}`, rules)));
  // Last: a password or third-party account carries the old id, a phone login beside it becomes a separate user.
  const passwordless = planPasswordless(record, key, rules, items);
  if (passwordless !== undefined) items.push(passwordless);
  if (record.deleted === true) {
    const why = record.disabledBecause === undefined ? '' : ` (${record.disabledBecause})`;
    return [rejection(record, key, 'disabledAccount', `the account was deleted in the old system${why}, so it is not imported, whatever --disabled says`)];
  }
  if (record.disabled === true && (rules.disabled ?? 'skip') === 'skip') {
    const why = record.disabledBecause === undefined ? '' : ` (${record.disabledBecause})`;
    return [
      rejection(
        record,
        key,
        'disabledAccount',
        `the account is disabled in the old system${why}, so it is not imported (it could log in here); pass --disabled import to import it marked disabled: true in its metadata`,
      ),
    ];
  }
  withIdentity(record, items, rules.roles);
  const email = normaliseEmail(record.email);
  if (items.length === 0 && record.noPasswordLogin !== undefined) {
    items.push(rejection(record, key, 'withoutCredentials', record.noPasswordLogin));
  } else if (items.length === 0 && record.providers.length === 0 && !email.ok && email.code === 'missingEmail') {
    // A record with nothing (`{}`, or an export whose email column is not mapped): the email is what it lacks first.
    items.push(
      rejection(record, key, email.code, `${email.reason} (and neither a password hash nor a linked provider): check the export's email field and its mapping`),
    );
  } else if (items.length === 0) {
    items.push(
      rejection(
        record,
        key,
        'withoutCredentials',
        'the user has neither a password hash nor a linked provider: needs a password reset or login-time migration',
      ),
    );
  }
  return items;
}

/**
 * Attaches who the user was; the record's first account carries its old id. Every account of the record gets its
 * roles: a linked account that becomes its own core user is the same person, with the same rights.
 */
function withIdentity(user: SourceUser, items: PlanItem[], roleRules: RoleRules | undefined): void {
  let carrier = true;
  // An empty old id names nobody: it is no id (the core refuses to map one, and it cannot tell users apart).
  const sourceId = user.sourceId?.trim() === '' ? undefined : user.sourceId;
  const roles = roleRules === undefined ? undefined : rolesOfRecord(user, roleRules);
  for (const item of items) {
    if (item.kind === 'rejection') continue;
    item.identity = {
      ...optional('sourceId', sourceId),
      ...optional('system', user.system),
      carriesSourceId: carrier && sourceId !== undefined,
      emailVerified: user.emailVerified === true,
      disabled: user.disabled === true,
      ...optional('profile', user.profile),
      ...optional('roles', roles?.roles),
      ...(roles === undefined || roles.unknown.length === 0 ? {} : { unknownRoles: roles.unknown }),
      ...optional('unreadableRoles', roles?.unreadable),
      ...optional('emailNotLogin', emailNotLogin(item, items)),
    };
    carrier = false;
  }
}

/** A phone user's email that no other account of its record signs in with (a password user, a parked one, a provider). */
function emailNotLogin(item: PlanItem, items: readonly PlanItem[]): string | undefined {
  if (item.kind !== 'passwordlessSignInUp' || item.email === undefined || passwordlessLogin(item).kind !== 'phone') return undefined;
  const email = item.email;
  return items.some((other) => other !== item && other.kind !== 'rejection' && other.email === email) ? undefined : email;
}

function planPasswordImport(user: SourceUser, key: string, rules: RecordPlanningRules): PlanItem {
  const operationKey = `${key}#pw`;
  const email = normaliseEmail(user.email);
  if (!email.ok) return rejection(user, operationKey, email.code, email.reason, 'passwordImport');
  const prepared = prepareHash({
    rawHash: user.passwordHash ?? '',
    ...(user.salt !== undefined && { salt: user.salt }),
    ...(user.hashingAlgorithm !== undefined && { hashingAlgorithm: user.hashingAlgorithm }),
    ...(rules.hashConfig !== undefined && { hashConfig: rules.hashConfig }),
    ...(rules.prefixRules !== undefined && { prefixRules: rules.prefixRules }),
  });
  if (!prepared.ok) {
    const legacy = legacyHashBehind(prepared, user.passwordHash ?? '');
    // A hash neither the core nor core-migrate can take is no hash: the old system, when given, checks the password.
    const oldSystem = rules.loginTime === true ? rules.oldSystem : undefined;
    if (legacy?.usable === true || (legacy !== undefined && oldSystem === undefined)) return planLegacyHash(user, operationKey, email.email, legacy, rules);
    if (oldSystem !== undefined) return planOldSystemWait(user, operationKey, oldSystem);
    const code: RejectionCode = /unsupported/i.test(prepared.code) ? 'unsupportedHashFamily' : 'unusableHash';
    return { ...rejection(user, operationKey, code, prepared.reason, 'passwordImport'), email: email.email };
  }
  const operation: ImportOperation = {
    kind: 'passwordImport',
    operationKey,
    location: user.location,
    email: email.email,
    family: prepared.family,
    body: {
      email: email.email,
      passwordHash: prepared.passwordHash,
      ...(prepared.hashingAlgorithm !== undefined && { hashingAlgorithm: prepared.hashingAlgorithm }),
    },
    ...(prepared.strippedBy !== undefined && { strippedBy: prepared.strippedBy }),
    exportedCredential: [user.passwordHash ?? '', user.salt ?? '', user.hashingAlgorithm ?? ''].join('\n'),
    warnings: prepared.warnings,
  };
  return operation;
}

/**
 * A hash of a family the core cannot import and core-migrate can verify: with a login-time migration the user is
 * parked for its first login; without, refused with the flag that would park it. One beyond the cost limits (or
 * malformed) stays refused with its reason: it could not be checked at sign-in either.
 */
function planLegacyHash(user: SourceUser, operationKey: string, email: string, legacy: LegacyHashReading, rules: RecordPlanningRules): PlanItem {
  const label = legacyHashFamilyLabel(legacy.family);
  if (!legacy.usable) {
    const reason = `${label}: ${legacy.reason}; the core cannot import it and core-migrate cannot check it at login: needs a password reset`;
    return { ...rejection(user, operationKey, 'unsupportedHashFamily', reason, 'passwordImport'), email };
  }
  if (rules.loginTime !== true) {
    const reason = `${label}: the core cannot import this family; with --login-time <store> the user migrates at its first login, else it needs a password reset`;
    return { ...rejection(user, operationKey, 'unsupportedHashFamily', reason, 'passwordImport'), email };
  }
  return { kind: 'loginTimeWait', operationKey, location: user.location, email, family: legacy.family, legacyHash: (user.passwordHash ?? '').trim() };
}

/**
 * Whether a record without a hash is a password user of the old system: its export says so (an Auth0 database user,
 * `signsInByEmailCode: false`), or says nothing and the user has no other login (no provider, no phone number). One
 * the export marks as signing in by an email code or link stays a passwordless email user.
 */
function isPasswordUserWithoutHash(user: SourceUser): boolean {
  if (user.noPasswordLogin !== undefined) return false;
  if (user.signsInByEmailCode !== undefined) return !user.signsInByEmailCode;
  const hasOtherLogin = user.providers.some((provider) => isThirdPartyProvider(provider.providerId)) || (user.phoneNumber ?? '').trim() !== '';
  return !hasOtherLogin && (user.email ?? '').trim() !== '';
}

/**
 * A password the export holds in a form neither the core nor core-migrate reads (the reader says why): the old system,
 * when asked, checks it at the first sign-in; else the user is refused with the reader's reason.
 */
function planUnreadableHash(user: SourceUser, operationKey: string, reason: string, oldSystem: OldSystemKind | undefined): PlanItem {
  if (oldSystem !== undefined) return planOldSystemWait(user, operationKey, oldSystem);
  const email = normaliseEmail(user.email);
  if (!email.ok) return rejection(user, operationKey, email.code, email.reason, 'passwordImport');
  const words = `${reason}: the core cannot import it and core-migrate cannot check it; with --login-time and --verify-with the old system checks it at the first sign-in, else the user needs a password reset`;
  return { ...rejection(user, operationKey, 'unsupportedHashFamily', words, 'passwordImport'), email: email.email };
}

/** A password user without a usable hash, parked for the old system to check its password at its first sign-in. */
function planOldSystemWait(user: SourceUser, operationKey: string, oldSystem: OldSystemKind): PlanItem {
  const email = normaliseEmail(user.email);
  if (!email.ok) return rejection(user, operationKey, email.code, email.reason, 'loginTimeWait');
  return { kind: 'loginTimeWait', operationKey, location: user.location, email: email.email, oldSystem };
}

function planThirdParty(user: SourceUser, provider: LinkedProvider, operationKey: string, rules: RecordPlanningRules): PlanItem {
  const thirdPartyId = shortProviderName(provider.providerId, rules.providerMap);
  if (thirdPartyId === undefined) {
    return {
      ...rejection(
        user,
        operationKey,
        'unmappedProvider',
        `provider "${provider.providerId}" has no short name: map it with --provider-map "${provider.providerId}=<name>"`,
        'thirdPartySignInUp',
      ),
      providerId: provider.providerId,
    };
  }
  const thirdPartyUserId = provider.providerUserId.trim();
  if (thirdPartyUserId.length === 0 || thirdPartyUserId.length > MAX_THIRD_PARTY_USER_ID_LENGTH) {
    return rejection(
      user,
      operationKey,
      'invalidProviderUser',
      `the ${provider.providerId} user id is ${thirdPartyUserId.length === 0 ? 'empty' : `longer than ${MAX_THIRD_PARTY_USER_ID_LENGTH} characters`}`,
      'thirdPartySignInUp',
    );
  }
  const email = normaliseEmail(provider.email !== undefined && provider.email.trim() !== '' ? provider.email : user.email);
  if (!email.ok) return rejection(user, operationKey, email.code, `${email.reason} (${provider.providerId} account)`, 'thirdPartySignInUp');
  return {
    kind: 'thirdPartySignInUp',
    operationKey,
    location: user.location,
    email: email.email,
    sourceProviderId: provider.providerId,
    body: {
      thirdPartyId,
      thirdPartyUserId,
      email: { id: email.email, isVerified: user.emailVerified ?? false },
    },
  };
}
