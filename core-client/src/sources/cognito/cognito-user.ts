import { z } from 'zod';
import type { RecordLocation } from '../../location.js';
import { optional } from '../../optional.js';
import { dropUndefined } from '../generic/generic-record.js';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/json-depth.js';
import type { LinkedProvider, MalformedRecord, SourceRecord, SourceUser } from '../source-user.js';

/**
 * One Cognito user as either file gives it: its username, its attributes by name (values as exported), and what only
 * `list-users` says (creation time, Enabled, UserStatus) or a pool backup tool adds (the user's groups).
 */
export interface CognitoUserParts {
  username: string;
  attributes: ReadonlyMap<string, string>;
  /** Where each attribute stands in the record, for a message naming the field (`Attributes[3]`, or the CSV column). */
  fieldOf: (attribute: string) => string;
  createdAt?: string;
  enabled?: boolean;
  userStatus?: string;
  groups?: string[];
}

/**
 * Statuses under which Cognito itself lets nobody in, whatever the password (AWS: COMPROMISED "is disabled because
 * of a potential security threat", ARCHIVED "is no longer active"): read as a disabled account, as `Enabled: false` is.
 */
const DISABLED_STATUSES = new Set(['ARCHIVED', 'COMPROMISED']);

const CUSTOM_PREFIX = 'custom:';

/** The `identities` attribute of a user who signed in through a federated provider: a JSON list of its accounts. */
const CognitoIdentitiesSchema = z.array(
  z.object({
    providerName: z.string().min(1),
    userId: z.union([z.string().min(1), z.number()]).transform(String),
  }),
);

function malformed(location: RecordLocation, field: string, reason: string): MalformedRecord {
  return { kind: 'malformed', location: { ...location, field }, reason: `field "${field}": ${reason}` };
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);

/** Cognito writes `true` / `false`; a spreadsheet that passed the template on writes `TRUE` / `FALSE`. */
function booleanAttribute(value: string | undefined): boolean | undefined | 'unreadable' {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return undefined;
  return text === 'true' ? true : text === 'false' ? false : 'unreadable';
}

function providersOf(text: string | undefined): LinkedProvider[] | string {
  if (text === undefined || text.trim() === '') return [];
  if (nestsDeeperThan(text, MAX_RECORD_DEPTH)) return 'nests too deep to be a list of identities';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'is not JSON (a list of {"providerName", "userId"})';
  }
  const identities = CognitoIdentitiesSchema.safeParse(parsed);
  if (!identities.success) return `must be a list of {"providerName", "userId"}: ${identities.error.issues[0]?.message ?? 'invalid'}`;
  return identities.data.map((identity) => ({ providerId: identity.providerName, providerUserId: identity.userId }));
}

function displayNameOf(attributes: ReadonlyMap<string, string>): string | undefined {
  const name = nonEmpty(attributes.get('name'));
  if (name !== undefined) return name;
  const parts = [attributes.get('given_name'), attributes.get('family_name')].map((part) => part?.trim() ?? '').filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

function customAttributesOf(attributes: ReadonlyMap<string, string>): Record<string, string> | undefined {
  let custom: Record<string, string> | undefined;
  for (const [name, value] of attributes) {
    if (!name.startsWith(CUSTOM_PREFIX) || value === '') continue;
    custom ??= {};
    custom[name.slice(CUSTOM_PREFIX.length)] = value;
  }
  return custom;
}

/**
 * A Cognito user as the plan reads every user. Cognito exports no password hashes: a user with an email is a password
 * user whose hash is not available (`signsInByEmailCode: false`, as an Auth0 database user without its hash), and a
 * user with only a phone number signs in by phone, as in the other exports.
 */
export function cognitoSourceUser(parts: CognitoUserParts, location: RecordLocation): SourceRecord {
  const { attributes } = parts;
  const emailVerified = booleanAttribute(attributes.get('email_verified'));
  if (emailVerified === 'unreadable') return malformed(location, parts.fieldOf('email_verified'), 'email_verified must be "true" or "false"');
  const providers = providersOf(attributes.get('identities'));
  if (typeof providers === 'string') return malformed(location, parts.fieldOf('identities'), `the identities attribute ${providers}`);
  const email = nonEmpty(attributes.get('email'));
  const phone = nonEmpty(attributes.get('phone_number'));
  const disabled = parts.enabled === false || (parts.userStatus !== undefined && DISABLED_STATUSES.has(parts.userStatus)) ? true : undefined;
  const profile = dropUndefined({
    displayName: displayNameOf(attributes),
    photoUrl: nonEmpty(attributes.get('picture')),
    signedUpAt: nonEmpty(parts.createdAt),
    phoneNumber: phone,
    customAttributes: customAttributesOf(attributes),
  });
  const user: SourceUser = {
    kind: 'user',
    location,
    sourceId: nonEmpty(attributes.get('sub')) ?? parts.username,
    system: 'cognito',
    ...dropUndefined({ email, emailVerified, disabled }),
    ...(Object.keys(profile).length === 0 ? {} : { profile }),
    providers,
    // The number is a login only for a user with nothing else to sign in with; beside an email it stays in the metadata.
    ...optional('phoneNumber', email === undefined && providers.length === 0 ? phone : undefined),
    signsInByEmailCode: false,
    ...optional('roles', parts.groups),
  };
  return user;
}
