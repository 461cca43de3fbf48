import { z } from 'zod';
import type { RecordLocation } from '../../location.js';
import { optional } from '../../optional.js';
import { dropUndefined, oldIdAt } from '../generic/generic-record.js';
import { otherSystemReason } from '../record-systems.js';
import type { MalformedRecord, SourceRecord } from '../source-user.js';

/** Okta writes `null` for a profile property that has no value. */
const text = z.string().nullable().optional();

/** A user of Okta's Users API (`GET /api/v1/users`): the fields read here; `_links`, `type` and the others are left. */
const OktaUserSchema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  created: text,
  lastLogin: text,
  profile: z.looseObject({ login: z.string().min(1), email: text, firstName: text, lastName: text, displayName: text, mobilePhone: text }),
  credentials: z
    .object({
      /** Where the org writes it: each address of the user, with whether it was verified. */
      emails: z.array(z.object({ value: z.string(), status: z.string(), type: z.string().optional() })).optional(),
      provider: z.object({ type: z.string(), name: z.string().nullable().optional() }).optional(),
    })
    .optional(),
  /**
   * Not in the Users API's answer: the user's groups, as the one who wrote the file added them beside the user, by name
   * or as `GET /api/v1/users/{id}/groups` answers them (the built-in `Everyone` group, which every user is in, is left).
   */
  groups: z
    .array(
      z.union([
        z.string().min(1),
        z
          .object({ type: z.string().optional(), profile: z.object({ name: z.string().min(1) }) })
          .transform((group) => (group.type === 'BUILT_IN' ? undefined : group.profile.name)),
      ]),
    )
    .optional(),
});
type OktaUser = z.infer<typeof OktaUserSchema>;

/** Statuses under which Okta lets nobody in: the account stays shut, as a disabled account of any system. */
const SHUT_STATUSES = new Set(['SUSPENDED', 'DEPROVISIONED', 'LOCKED_OUT']);
/** Never activated: the user has set no password in Okta yet. */
const NOT_ACTIVATED = new Set(['STAGED', 'PROVISIONED']);
/** Users who sign in through another identity provider Okta federates: they have no Okta password. */
const FEDERATED_PROVIDERS = new Set(['FEDERATION', 'SOCIAL']);
/** The profile properties read into fields of their own; the others are kept as they are. */
const READ_PROPERTIES = new Set(['login', 'email', 'firstName', 'lastName', 'displayName', 'mobilePhone']);

const nonEmpty = (value: string | null | undefined): string | undefined => (value === undefined || value === null || value.trim() === '' ? undefined : value);

function displayNameOf(profile: OktaUser['profile']): string | undefined {
  const named = nonEmpty(profile.displayName);
  if (named !== undefined) return named;
  const parts = [profile.firstName, profile.lastName].map((part) => part?.trim() ?? '').filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

function otherProperties(profile: OktaUser['profile']): Record<string, unknown> | undefined {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(profile)) if (!READ_PROPERTIES.has(key) && value !== null && value !== undefined) kept[key] = value;
  return Object.keys(kept).length === 0 ? undefined : kept;
}

/** Whether the primary email was verified, where the export says (`credentials.emails`); unsaid otherwise. */
function emailVerifiedOf(user: OktaUser, email: string | undefined): boolean | undefined {
  const emails = user.credentials?.emails;
  if (emails === undefined || email === undefined) return undefined;
  const entry = emails.find((candidate) => candidate.value.trim().toLowerCase() === email.trim().toLowerCase());
  return entry?.status === 'VERIFIED';
}

/** Why the user has no password Okta can check, if it has none. */
function noPasswordLoginOf(user: OktaUser): string | undefined {
  if (NOT_ACTIVATED.has(user.status)) return `the user was never activated in Okta (status ${user.status}): it has no password yet, and needs a password reset`;
  const provider = user.credentials?.provider;
  if (provider !== undefined && FEDERATED_PROVIDERS.has(provider.type)) {
    const name = nonEmpty(provider.name);
    return `the user signs in through an identity provider Okta federates (${provider.type}${name === undefined ? '' : ` ${name.slice(0, 40)}`}), whose id for the user the Users API does not give: it cannot be linked, and needs a password reset or a sign-in with that provider`;
  }
  return undefined;
}

function malformed(location: RecordLocation, field: string, reason: string, sourceId: string | undefined): MalformedRecord {
  return { kind: 'malformed', location: { ...location, field }, ...optional('sourceId', sourceId), reason: `field "${field}": ${reason}` };
}

function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'user'
  );
}

/**
 * An Okta user as the plan reads every user. Okta exports no password hashes: each user with a password is a password
 * user without its hash, whom a login-time migration asks Okta about at the first sign-in.
 */
export function oktaSourceRecord(value: unknown, location: RecordLocation): SourceRecord {
  const parsed = OktaUserSchema.safeParse(value);
  if (!parsed.success) {
    const other = otherSystemReason(value, 'Okta');
    if (other !== undefined) return { kind: 'malformed', location, reason: other };
    const field = fieldPath(parsed.error.issues[0]?.path ?? []);
    return malformed(location, field, parsed.error.issues[0]?.message ?? 'invalid', field === 'id' ? undefined : oldIdAt(value, 'id'));
  }
  const user = parsed.data;
  const email = nonEmpty(user.profile.email);
  const roles = (user.groups ?? []).filter((group): group is string => group !== undefined);
  const profile = dropUndefined({
    displayName: displayNameOf(user.profile),
    signedUpAt: nonEmpty(user.created),
    lastSignedInAt: nonEmpty(user.lastLogin),
    phoneNumber: nonEmpty(user.profile.mobilePhone),
    username: user.profile.login,
    attributes: otherProperties(user.profile),
  });
  return {
    kind: 'user',
    location,
    sourceId: user.id,
    system: 'okta',
    ...dropUndefined({ email, emailVerified: emailVerifiedOf(user, email), disabled: SHUT_STATUSES.has(user.status) ? true : undefined }),
    profile,
    // Okta's login is an email, never a phone: a mobile phone stays in the metadata.
    providers: [],
    signsInByEmailCode: false,
    ...optional('roles', roles.length === 0 ? undefined : roles),
    ...optional('noPasswordLogin', noPasswordLoginOf(user)),
  };
}
