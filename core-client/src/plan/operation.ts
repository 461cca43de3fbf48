import { z } from 'zod';
import { OldSystemKindSchema } from '../choices.js';
import { LegacyHashFamilySchema } from '../hashes/legacy/registry.js';
import { RecordLocationSchema } from '../location.js';
import { SourceProfileSchema } from '../sources/source-user.js';

/**
 * Who the user was, carried beside the contract's body (never in it, so the journal's digest of a body is unchanged):
 * the steps after the user is created (id mapping, email verification, metadata) read it.
 */
export const OperationIdentitySchema = z.object({
  /** The old system's id, for the report and the mapping. */
  sourceId: z.string().optional(),
  system: z.string().optional(),
  /**
   * The record's first account carries the old id (its password user when it has one); any other account of the
   * record (a linked provider) becomes a separate core user, reported with the old id beside it.
   */
  carriesSourceId: z.boolean(),
  /** The source marks the email verified: a password user is verified in the core after the import. */
  emailVerified: z.boolean(),
  /** The old system's admins disabled the account, and the operator chose to import it anyway. */
  disabled: z.boolean(),
  profile: SourceProfileSchema.optional(),
  /** The roles the user gets (`--roles-from`, after `--role-map`); absent when roles are not read. */
  roles: z.array(z.string()).optional(),
  /** Roles of the record the roles file does not name: not given, reported. */
  unknownRoles: z.array(z.string()).optional(),
  /** Why the record's value at the roles path is no roles, for the report. */
  unreadableRoles: z.string().optional(),
  /**
   * The record's email when no account of the record signs in with it (a phone user's, beside no password): kept in
   * the user's metadata as `email` and named in a report line, so it is not lost.
   */
  emailNotLogin: z.string().optional(),
});
export type OperationIdentity = z.infer<typeof OperationIdentitySchema>;

/**
 * What the plan turns each source record into: operations of the contract, or rejections with a reason.
 * `operationKey` names an operation stably within its source (record position + kind + provider), so a journal
 * can say which operations of a file are done without keeping any of their data.
 */
export const PasswordImportOperationSchema = z.object({
  kind: z.literal('passwordImport'),
  operationKey: z.string(),
  location: RecordLocationSchema,
  /** Normalised as the core does (trimmed, lower-cased). */
  email: z.string(),
  family: z.enum(['bcrypt', 'argon2', 'vendor_scrypt']),
  body: z.object({
    email: z.string(),
    passwordHash: z.string(),
    hashingAlgorithm: z.literal('vendor_scrypt').optional(),
  }),
  /** The wrapper rule that was stripped from the exported hash, if any (counted in the plan). */
  strippedBy: z.string().optional(),
  /**
   * The credential as the export holds it (hash, salt, the algorithm the record names), before any hash parameter or
   * wrapper rule: the journal keeps a keyed digest of it beside that of the hash as sent, so a sync tells a password
   * changed in the old system from the same one re-sent with corrected parameters. Never in the body, never written.
   */
  exportedCredential: z.string(),
  warnings: z.array(z.string()),
  identity: OperationIdentitySchema.optional(),
});
export type PasswordImportOperation = z.infer<typeof PasswordImportOperationSchema>;

export const ThirdPartyOperationSchema = z.object({
  kind: z.literal('thirdPartySignInUp'),
  operationKey: z.string(),
  location: RecordLocationSchema,
  email: z.string(),
  /** The provider as the export named it (`google.com`), for messages; `body.thirdPartyId` is the short name. */
  sourceProviderId: z.string(),
  body: z.object({
    thirdPartyId: z.string(),
    thirdPartyUserId: z.string(),
    email: z.object({ id: z.string(), isVerified: z.boolean() }),
  }),
  identity: OperationIdentitySchema.optional(),
});
export type ThirdPartyOperation = z.infer<typeof ThirdPartyOperationSchema>;

/**
 * A user who signs in with a code sent to its phone or email (a phone number, an email link): created as the core's
 * passwordless user by making a code and consuming it at once (core-behaviour.md, "Passwordless users").
 */
export const PasswordlessOperationSchema = z.object({
  kind: z.literal('passwordlessSignInUp'),
  operationKey: z.string(),
  location: RecordLocationSchema,
  /** The body of `POST /recipe/signinup/code`: the login, exactly one of a phone number (E.164, normalised by the plan) or an email (normalised as the core does). */
  body: z.union([z.strictObject({ phoneNumber: z.string() }), z.strictObject({ email: z.string() })]),
  /** The record's email when it has one, for the report (for a phone user it is not a login). */
  email: z.string().optional(),
  identity: OperationIdentitySchema.optional(),
});
export type PasswordlessOperation = z.infer<typeof PasswordlessOperationSchema>;
export type PasswordlessLogin = { kind: 'phone'; phoneNumber: string } | { kind: 'email'; email: string };

/** How a passwordless user signs in, from its code request's body. */
export function passwordlessLogin(operation: PasswordlessOperation): PasswordlessLogin {
  return 'phoneNumber' in operation.body ? { kind: 'phone', phoneNumber: operation.body.phoneNumber } : { kind: 'email', email: operation.body.email };
}

export type ImportOperation = PasswordImportOperation | ThirdPartyOperation | PasswordlessOperation;

/** A parked user's password checked against the legacy hash core-migrate holds (PBKDF2, crypt(3), phpass, ...). */
export const LegacyHashCheckSchema = z.object({
  family: LegacyHashFamilySchema,
  /** The hash as the export holds it, checked at sign-in. Written only to the waiting store: never shown or journalled. */
  legacyHash: z.string().min(1),
});

/** A parked user's password checked by asking the old system (`--verify-with`): no usable hash was available. */
export const OldSystemCheckSchema = z.object({ oldSystem: OldSystemKindSchema });
export type LoginCheck = z.infer<typeof LegacyHashCheckSchema> | z.infer<typeof OldSystemCheckSchema>;

/** The check of a parked user or wait, alone: its legacy hash, or the old system that is asked. */
export function loginCheckOf(value: LoginCheck): LoginCheck {
  return 'oldSystem' in value ? { oldSystem: value.oldSystem } : { family: value.family, legacyHash: value.legacyHash };
}

const LoginTimeWaitBaseSchema = z.object({
  kind: z.literal('loginTimeWait'),
  operationKey: z.string(),
  location: RecordLocationSchema,
  /** Normalised as the core does (trimmed, lower-cased): the store's key. */
  email: z.string(),
  identity: OperationIdentitySchema.optional(),
});

/**
 * A user whose password the core cannot take directly, with a login-time migration (`--login-time`): the push parks
 * it in the waiting store (no core request), and it is created in the core at its first sign-in, from the password it
 * signs in with, with the identity the push would have given it. The password is checked against a legacy hash
 * core-migrate can verify, or by the old system for a user without a usable hash (`oldSystem`).
 */
export const LoginTimeWaitSchema = z.union([
  LoginTimeWaitBaseSchema.extend(LegacyHashCheckSchema.shape),
  LoginTimeWaitBaseSchema.extend(OldSystemCheckSchema.shape),
]);
export type LoginTimeWait = z.infer<typeof LoginTimeWaitSchema>;
export type OperationKind = ImportOperation['kind'];

export const rejectionCodes = [
  'malformedRecord',
  'invalidEmail',
  'missingEmail',
  'unusableHash',
  'unsupportedHashFamily',
  'unmappedProvider',
  'invalidProviderUser',
  'duplicateEmail',
  'duplicateThirdPartyUser',
  'duplicateSourceId',
  'withoutSourceId',
  'withoutCredentials',
  'disabledAccount',
  /** A phone number that does not parse as one (or has no country code and no `--default-region`). */
  'invalidPhoneNumber',
  /** A user the old system says signs in by its phone, whose export holds no number for it. */
  'missingPhoneNumber',
  /** Two records whose phone numbers normalise to one. */
  'duplicatePhoneNumber',
  /** A phone or email-link user left out with `--no-passwordless` (or a core without the passwordless calls): listed for a reset. */
  'passwordlessLeftOut',
  /** An anonymous user of the old system: no email, phone, password or linked account to sign in with again. */
  'anonymousUser',
] as const;

export const PlanRejectionSchema = z.object({
  kind: z.literal('rejection'),
  operationKey: z.string(),
  location: RecordLocationSchema,
  email: z.string().optional(),
  /** The old system's id, beside the email and the location. */
  sourceId: z.string().optional(),
  code: z.enum(rejectionCodes),
  /** The operation the record would have become, when known. */
  operation: z.enum(['passwordImport', 'thirdPartySignInUp', 'passwordlessSignInUp', 'loginTimeWait']).optional(),
  /** The export's provider id, for a provider that has no short name (so a face can offer to map it). */
  providerId: z.string().optional(),
  /** A sentence an operator can act on; never a hash, salt or secret. */
  reason: z.string(),
});
export type PlanRejection = z.infer<typeof PlanRejectionSchema>;
export type RejectionCode = PlanRejection['code'];

export type PlanItem = ImportOperation | LoginTimeWait | PlanRejection;
