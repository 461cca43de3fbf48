import { z } from 'zod';
import { VENDOR_SCRYPT } from './names.js';

/** Contract section 2.1: the body of `POST /recipe/user/passwordhash/import`. */
export const PasswordHashImportBodySchema = z.object({
  email: z.string(),
  passwordHash: z.string(),
  /** Only for the scrypt variant; BCrypt and Argon2 hashes omit it. */
  hashingAlgorithm: z.literal(VENDOR_SCRYPT).optional(),
});
export type PasswordHashImportBody = z.infer<typeof PasswordHashImportBodySchema>;

/** Contract section 2.3: the body of `POST /recipe/signinup`. */
export const SignInUpBodySchema = z.object({
  thirdPartyId: z.string(),
  thirdPartyUserId: z.string(),
  email: z.object({
    id: z.string(),
    isVerified: z.boolean(),
  }),
});
export type SignInUpBody = z.infer<typeof SignInUpBodySchema>;

/** Not in the contract; a core may have it (core-behaviour.md): the body of `POST /recipe/signin`. */
export const SignInBodySchema = z.object({
  email: z.string(),
  password: z.string(),
});
export type SignInBody = z.infer<typeof SignInBodySchema>;

/* Beyond the contract: the identity calls of core-behaviour.md ("Keeping a migrated user's identity"). */

/** `POST /recipe/userid/map`. */
export const UserIdMapBodySchema = z.object({
  superTokensUserId: z.string().min(1),
  externalUserId: z.string().min(1),
  externalUserIdInfo: z.string().optional(),
});
export type UserIdMapBody = z.infer<typeof UserIdMapBodySchema>;

/** `POST /recipe/user/email/verify/token`. */
export const EmailVerifyTokenBodySchema = z.object({ userId: z.string().min(1), email: z.string() });
export type EmailVerifyTokenBody = z.infer<typeof EmailVerifyTokenBodySchema>;

/** `POST /recipe/user/email/verify`. */
export const EmailVerifyBodySchema = z.object({ method: z.literal('token'), token: z.string().min(1) });
export type EmailVerifyBody = z.infer<typeof EmailVerifyBodySchema>;

/** `PUT /recipe/user/metadata`: top-level keys are merged into what is stored; a key set to null is removed. */
export const UserMetadataBodySchema = z.object({ userId: z.string().min(1), metadataUpdate: z.record(z.string(), z.unknown()) });
export type UserMetadataBody = z.infer<typeof UserMetadataBodySchema>;

/** `POST /user/remove`. */
export const RemoveUserBodySchema = z.object({ userId: z.string().min(1) });
export type RemoveUserBody = z.infer<typeof RemoveUserBodySchema>;

/* Changing a user the migration created (core-behaviour.md). */

/** `PUT /recipe/user` with a new email (the call's `password` is never sent by a migration). */
export const UserEmailChangeBodySchema = z.object({ recipeUserId: z.string().min(1), email: z.string() });
export type UserEmailChangeBody = z.infer<typeof UserEmailChangeBodySchema>;

/** `POST /recipe/user/email/verify/remove`. */
export const EmailVerifyRemoveBodySchema = z.object({ userId: z.string().min(1), email: z.string() });
export type EmailVerifyRemoveBody = z.infer<typeof EmailVerifyRemoveBodySchema>;

/* User roles (core-behaviour.md). A role name is the core's to refuse (an empty one is a 400 with its sentence). */

/** `PUT /recipe/role`: creates the role, or adds these permissions to an existing one's. */
export const RoleBodySchema = z.object({ role: z.string(), permissions: z.array(z.string()) });
export type RoleBody = z.infer<typeof RoleBodySchema>;

/** `PUT /recipe/user/role` and `POST /recipe/user/role/remove`. */
export const UserRoleBodySchema = z.object({ userId: z.string().min(1), role: z.string() });
export type UserRoleBody = z.infer<typeof UserRoleBodySchema>;

/** `POST /recipe/role/remove`. */
export const RemoveRoleBodySchema = z.object({ role: z.string() });
export type RemoveRoleBody = z.infer<typeof RemoveRoleBodySchema>;

/* Passwordless users (core-behaviour.md). */

/**
 * The login of a passwordless user: exactly one of a phone number (E.164, normalised by the plan: the core does not
 * check it) or an email. The body of a code request and of a removal of codes.
 */
export const PasswordlessLoginBodySchema = z.union([z.strictObject({ phoneNumber: z.string().min(1) }), z.strictObject({ email: z.string().min(1) })]);
export type PasswordlessLoginBody = z.infer<typeof PasswordlessLoginBodySchema>;

/** `POST /recipe/signinup/code/consume` by link code. Both values are credentials: never journalled, logged or reported. */
export const PasswordlessConsumeBodySchema = z.object({ preAuthSessionId: z.string().min(1), linkCode: z.string().min(1) });
export type PasswordlessConsumeBody = z.infer<typeof PasswordlessConsumeBodySchema>;

/** `PUT /recipe/user` with `rid: passwordless`: the user's new phone number or email (the other kept). */
export const PasswordlessUserChangeBodySchema = z.union([
  z.strictObject({ recipeUserId: z.string().min(1), phoneNumber: z.string().min(1) }),
  z.strictObject({ recipeUserId: z.string().min(1), email: z.string().min(1) }),
]);
export type PasswordlessUserChangeBody = z.infer<typeof PasswordlessUserChangeBodySchema>;
