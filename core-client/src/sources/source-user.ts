import { z } from 'zod';
import { RecordLocationSchema } from '../location.js';

/** A link to a third-party account, with the provider named as the export names it (`google.com`, `google-oauth2`). */
export const LinkedProviderSchema = z.object({
  providerId: z.string(),
  providerUserId: z.string(),
  email: z.string().optional(),
});
export type LinkedProvider = z.infer<typeof LinkedProviderSchema>;

/**
 * What the old system knew of a user beyond the credentials, under the names it gets in the core's user metadata
 * (README, "What a migrated user keeps"). Never a hash, a salt or a secret.
 */
export const SourceProfileSchema = z.object({
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  /** ISO 8601, from the export's creation time. */
  signedUpAt: z.string().optional(),
  lastSignedInAt: z.string().optional(),
  /** The number as exported, kept in the metadata too (a password user's phone login becomes a separate user). */
  phoneNumber: z.string().optional(),
  /** Firebase `customAttributes` (custom claims), parsed from their JSON text. */
  customClaims: z.record(z.string(), z.unknown()).optional(),
  /** Auth0 `user_metadata` and `app_metadata`. */
  userMetadata: z.record(z.string(), z.unknown()).optional(),
  appMetadata: z.record(z.string(), z.unknown()).optional(),
  /** Cognito `custom:*` attributes, under their names without the prefix. */
  customAttributes: z.record(z.string(), z.string()).optional(),
  /** The name the user signed in with beside the email, where the old system has one (Clerk, Keycloak `username`, Okta `login`, Better Auth's username plugin). */
  username: z.string().optional(),
  /** Keycloak `attributes` (each a list of values), or the properties of an Okta `profile` not read into the fields above. */
  attributes: z.record(z.string(), z.unknown()).optional(),
  /** Keycloak group paths (`/staff/admins`): kept, not roles (see docs/exports.md). */
  groups: z.array(z.string()).optional(),
  /** What Keycloak still asked of the user at its next sign-in (`UPDATE_PASSWORD`, `CONFIGURE_TOTP`, …). */
  requiredActions: z.array(z.string()).optional(),
  /**
   * The user had an authenticator app (TOTP) in the old system. Its secret is never read on: the contract has no TOTP
   * import, so the application enrols the user again (docs/exports.md).
   */
  totpEnrolled: z.literal(true).optional(),
  /** The username as it was shown (Better Auth's username plugin). */
  displayUsername: z.string().optional(),
});
export type SourceProfile = z.infer<typeof SourceProfileSchema>;

/**
 * One user as read from any export format, before any rule is applied: every reader yields this shape,
 * so the plan knows nothing of files. Values are as exported (not trimmed, not validated).
 */
export const SourceUserSchema = z.object({
  kind: z.literal('user'),
  location: RecordLocationSchema,
  /** The old system's id (Firebase localId, Auth0 user_id as exported, Cognito sub, a generic export's mapped id): kept as the user's id. */
  sourceId: z.string().optional(),
  /** Which system the export came from (`firebase`, `auth0`, `cognito`, or the generic format), named in the mapping and metadata. */
  system: z.string().optional(),
  /** The old system's admins disabled the account (Firebase `disabled`, Auth0 `blocked`, Cognito `Enabled: false`). */
  disabled: z.boolean().optional(),
  /** Why the account is shut, when the old system says more than "disabled" (`banned until 2031-01-01T00:00:00.000Z`). */
  disabledBecause: z.string().optional(),
  /**
   * The old system deleted the user but keeps its row (Supabase's `deleted_at`): left out as a disabled account is,
   * whatever `--disabled` says (nobody can sign in as it there), and removed by a sync that finds it so.
   */
  deleted: z.boolean().optional(),
  /**
   * An anonymous user of the old system (Supabase `is_anonymous`, Better Auth's anonymous plugin): it has no login
   * the core could keep, so the plan refuses it `anonymousUser`.
   */
  anonymous: z.boolean().optional(),
  profile: SourceProfileSchema.optional(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  /** Per-user salt, for the vendor scrypt family (standard or web-safe base64, as exported). */
  salt: z.string().optional(),
  /** An algorithm named by the record itself (generic formats), e.g. `vendor_scrypt`. */
  hashingAlgorithm: z.string().optional(),
  /**
   * The user has a password in the old system, but its hash as exported is of no form the core or core-migrate reads,
   * and why (a Clerk `password_hasher` whose pepper is not exported): the plan parks the user for the old system where
   * one is asked, else refuses it for this reason. Never the hash itself.
   */
  unreadableHash: z.string().optional(),
  /**
   * The user has no password in the old system and no login core-migrate carries, and why (an Okta user who signs in
   * through another identity provider, one never activated): refused for this reason, never parked for the old system.
   */
  noPasswordLogin: z.string().optional(),
  providers: z.array(LinkedProviderSchema),
  /** The number the user signs in with (Firebase phone auth, an Auth0 `sms` user, a generic export's mapped phone), as exported. */
  phoneNumber: z.string().optional(),
  /**
   * The old system says the user signs in with a code sent to its phone, and the field that should hold the number
   * (named here: Auth0 `phone_number`, a Firebase `phone` provider entry) holds none: the plan refuses that login.
   */
  phoneNumberMissingFrom: z.string().optional(),
  /**
   * The old system says whether its user signs in with a code or link sent to its email: Auth0's `email` connection
   * (true) or its database (false, a password user whose hash is missing), and Cognito (false for every user: it
   * exports no hashes). Unsaid (Firebase, generic exports): an email with neither a password hash, a provider nor a
   * phone login is taken for an email-link user.
   */
  signsInByEmailCode: z.boolean().optional(),
  /**
   * A generic export's mapped `roles` field, as read (a string, a list or an object; CSV: text), or a Cognito user's
   * groups. Firebase and Auth0 keep roles in the profile (`customClaims`, `appMetadata`); `--roles-from` names where
   * (see roles/plan-roles.ts).
   */
  roles: z.unknown().optional(),
});
export type SourceUser = z.infer<typeof SourceUserSchema>;

/** A record that could not be read as a user; the reader goes on with the next one. */
export const MalformedRecordSchema = z.object({
  kind: z.literal('malformed'),
  location: RecordLocationSchema,
  /** The old id the record still names (its id field read as text), so its report line names the user. */
  sourceId: z.string().optional(),
  reason: z.string(),
});
export type MalformedRecord = z.infer<typeof MalformedRecordSchema>;

export type SourceRecord = SourceUser | MalformedRecord;
