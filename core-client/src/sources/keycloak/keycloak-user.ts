import { z } from 'zod';
import { keycloakPasswordHash } from '../../hashes/keycloak-credential.js';
import type { RecordLocation } from '../../location.js';
import { optional } from '../../optional.js';
import { isoTimeOfEpochMs } from '../firebase/epoch-time.js';
import { dropUndefined, oldIdAt } from '../generic/generic-record.js';
import { otherSystemReason } from '../record-systems.js';
import type { LinkedProvider, MalformedRecord, SourceRecord, SourceUser } from '../source-user.js';

/**
 * One user of a Keycloak realm export (`kc.sh export`, Keycloak's UserRepresentation): the fields read here; the
 * others (`notBefore`, `disableableCredentialTypes`, `access`, …) are left.
 */
const KeycloakUserSchema = z.object({
  id: z.string().min(1),
  username: z.string().min(1),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  enabled: z.boolean().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  createdTimestamp: z.number().int().nonnegative().optional(),
  totp: z.boolean().optional(),
  /** Each attribute a list of values (Keycloak's MultivaluedHashMap). */
  attributes: z.record(z.string(), z.array(z.string())).optional(),
  credentials: z.array(z.looseObject({ type: z.string().min(1) })).optional(),
  federatedIdentities: z.array(z.object({ identityProvider: z.string().min(1), userId: z.string().min(1), userName: z.string().optional() })).optional(),
  realmRoles: z.array(z.string()).optional(),
  /** Client id → the client's roles given to the user. */
  clientRoles: z.record(z.string(), z.array(z.string())).optional(),
  groups: z.array(z.string()).optional(),
  requiredActions: z.array(z.string()).optional(),
  /** Set on a client's service account: a user Keycloak makes for a client, not a person. */
  serviceAccountClientId: z.string().optional(),
});
type KeycloakUser = z.infer<typeof KeycloakUserSchema>;

/** Every user of a realm has the realm's default composite role (Keycloak 13 on): bookkeeping, not a role it was given. */
const DEFAULT_ROLES = /^default-roles-/;

/**
 * The user's roles as core roles: realm roles by their names, a client's roles as `<client id>:<role>` (client roles of
 * two clients may share a name: `account:manage-account`). Only roles mapped to the user itself are in an export:
 * those it has through its groups or composite roles are not.
 */
export function keycloakRoles(user: Pick<KeycloakUser, 'realmRoles' | 'clientRoles'>): string[] {
  const realm = (user.realmRoles ?? []).filter((role) => !DEFAULT_ROLES.test(role));
  const clients = Object.entries(user.clientRoles ?? {}).flatMap(([client, roles]) => roles.map((role) => `${client}:${role}`));
  return [...realm, ...clients];
}

function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'user'
  );
}

function malformed(location: RecordLocation, field: string, reason: string, sourceId: string | undefined): MalformedRecord {
  return { kind: 'malformed', location: { ...location, field }, ...optional('sourceId', sourceId), reason: `field "${field}": ${reason}` };
}

type PasswordOf = Pick<SourceUser, 'passwordHash' | 'unreadableHash'> | MalformedRecord;

/** The user's password credential (Keycloak keeps one) as a hash, an unreadable one, or the record refused naming the field. */
function passwordOf(user: KeycloakUser, location: RecordLocation): PasswordOf {
  const at = user.credentials?.findIndex((credential) => credential.type === 'password') ?? -1;
  const credential = user.credentials?.[at];
  if (credential === undefined) return {};
  if (Object.hasOwn(credential, 'value')) {
    // A realm import file may give a password in clear: never an export's, and never read.
    return { unreadableHash: 'the password credential holds a plain "value" (a hand-written import file, not an export), which is not read' };
  }
  const hash = keycloakPasswordHash(credential);
  if ('hash' in hash) return { passwordHash: hash.hash };
  if ('unreadable' in hash) return { unreadableHash: hash.unreadable };
  return malformed(location, `credentials[${at}].${hash.field}`, hash.problem, user.id);
}

function providersOf(user: KeycloakUser): LinkedProvider[] {
  return (user.federatedIdentities ?? []).map((identity) => ({ providerId: identity.identityProvider, providerUserId: identity.userId }));
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);

function displayNameOf(user: KeycloakUser): string | undefined {
  const parts = [user.firstName, user.lastName].map((part) => part?.trim() ?? '').filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** A user element of a Keycloak export as the plan reads every user, or the record refused naming its field. */
export function keycloakSourceRecord(value: unknown, location: RecordLocation): SourceRecord {
  const parsed = KeycloakUserSchema.safeParse(value);
  if (!parsed.success) {
    const other = otherSystemReason(value, 'Keycloak');
    if (other !== undefined) return { kind: 'malformed', location, reason: other };
    const field = fieldPath(parsed.error.issues[0]?.path ?? []);
    // zod's messages describe types, never the value received.
    return malformed(location, field, parsed.error.issues[0]?.message ?? 'invalid', field === 'id' ? undefined : oldIdAt(value, 'id'));
  }
  const user = parsed.data;
  const password = passwordOf(user, location);
  if ('kind' in password) return password;
  const totp = user.totp === true || (user.credentials ?? []).some((credential) => credential.type === 'otp');
  const profile = dropUndefined({
    displayName: displayNameOf(user),
    signedUpAt: user.createdTimestamp === undefined ? undefined : isoTimeOfEpochMs(user.createdTimestamp),
    username: user.username,
    attributes: user.attributes === undefined || Object.keys(user.attributes).length === 0 ? undefined : user.attributes,
    groups: user.groups === undefined || user.groups.length === 0 ? undefined : user.groups,
    requiredActions: user.requiredActions === undefined || user.requiredActions.length === 0 ? undefined : user.requiredActions,
    totpEnrolled: totp ? (true as const) : undefined,
  });
  const roles = keycloakRoles(user);
  const serviceAccount = nonEmpty(user.serviceAccountClientId);
  return {
    kind: 'user',
    location,
    sourceId: user.id,
    system: 'keycloak',
    ...dropUndefined({ email: nonEmpty(user.email), emailVerified: user.emailVerified, disabled: user.enabled === false ? true : undefined }),
    ...password,
    profile,
    providers: providersOf(user),
    // Every Keycloak user with an email signs in with a password (its own, or its LDAP's through Keycloak), never by a link.
    signsInByEmailCode: false,
    ...optional('roles', roles.length === 0 ? undefined : roles),
    ...optional(
      'noPasswordLogin',
      serviceAccount === undefined ? undefined : `the service account of client "${serviceAccount}" (no person signs in with it): left out`,
    ),
  };
}
