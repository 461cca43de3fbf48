import { z } from 'zod';
import { CoreStatus } from './names.js';

/*
 * The core's answers as observed (core-behaviour.md). Every object is loose: a newer core may add fields,
 * and the client reads only what it needs (the user's `id`).
 */

/** Recent cores: `{id, isPrimaryUser, tenantIds, timeJoined, emails, phoneNumbers, thirdParty, loginMethods}`. */
export const RecentCoreUserSchema = z.looseObject({
  id: z.string().min(1),
  loginMethods: z.array(z.looseObject({})),
});

/** Older cores: a flat `{id, email, timeJoined}`. */
export const LegacyCoreUserSchema = z.looseObject({
  id: z.string().min(1),
  email: z.string(),
  timeJoined: z.number(),
});

export const CoreUserSchema = z.union([RecentCoreUserSchema, LegacyCoreUserSchema]);
export type CoreUser = z.infer<typeof CoreUserSchema>;

export const PasswordHashImportAnswerSchema = z.looseObject({
  status: z.literal(CoreStatus.ok),
  user: CoreUserSchema,
  didUserAlreadyExist: z.boolean(),
});
export type PasswordHashImportAnswer = z.infer<typeof PasswordHashImportAnswerSchema>;

export const SignInUpOkAnswerSchema = z.looseObject({
  status: z.literal(CoreStatus.ok),
  createdNewUser: z.boolean(),
  user: CoreUserSchema,
  recipeUserId: z.string().optional(),
});

/** Every JSON answer of a recipe call carries a status; read it first to pick the answer's schema. */
export const AnswerStatusSchema = z.looseObject({ status: z.string().min(1) });

/** A 200 whose status is not OK, e.g. `EMAIL_CHANGE_NOT_ALLOWED_ERROR` with a reason. */
export const NonOkStatusAnswerSchema = z.looseObject({
  status: z
    .string()
    .min(1)
    .refine((status) => status !== CoreStatus.ok, 'a non-OK status'),
  reason: z.string().optional(),
});

export const SignInUpAnswerSchema = z.union([SignInUpOkAnswerSchema, NonOkStatusAnswerSchema]);
export type SignInUpAnswer = z.infer<typeof SignInUpAnswerSchema>;

export const SignInAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), user: CoreUserSchema.optional() }),
  z.looseObject({ status: z.literal(CoreStatus.wrongCredentials) }),
]);
export type SignInAnswer = z.infer<typeof SignInAnswerSchema>;

/** `POST /recipe/signup` (core-behaviour.md, "Creating a password user from a plain password"). */
export const SignUpAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), user: CoreUserSchema, recipeUserId: z.string().optional() }),
  z.looseObject({ status: z.literal(CoreStatus.emailAlreadyExists) }),
]);
export type SignUpAnswer = z.infer<typeof SignUpAnswerSchema>;

/** `GET /recipe/user?email=` (beyond the contract): the password user with that email, or none. */
export const UserByEmailAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), user: CoreUserSchema }),
  z.looseObject({ status: z.literal(CoreStatus.unknownEmail) }),
]);
export type UserByEmailAnswer = z.infer<typeof UserByEmailAnswerSchema>;

/** `GET /users/count` (beyond the contract): the users of the tenant. */
export const UserCountAnswerSchema = z.looseObject({
  status: z.literal(CoreStatus.ok),
  count: z.number().int().nonnegative(),
});
export type UserCountAnswer = z.infer<typeof UserCountAnswerSchema>;

export const ApiVersionAnswerSchema = z.looseObject({
  versions: z.array(z.string()),
});
export type ApiVersionAnswer = z.infer<typeof ApiVersionAnswerSchema>;

/* Beyond the contract: the identity calls of core-behaviour.md. Each answers 200 with a status. */

export const UserIdMapAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok) }),
  z.looseObject({
    status: z.literal(CoreStatus.mappingAlreadyExists),
    doesSuperTokensUserIdExist: z.boolean(),
    doesExternalUserIdExist: z.boolean(),
  }),
  z.looseObject({ status: z.literal(CoreStatus.unknownSuperTokensUserId) }),
]);
export type UserIdMapAnswer = z.infer<typeof UserIdMapAnswerSchema>;

export const GetUserIdMapAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({
    status: z.literal(CoreStatus.ok),
    superTokensUserId: z.string(),
    externalUserId: z.string(),
    externalUserIdInfo: z.string().nullish(),
  }),
  z.looseObject({ status: z.literal(CoreStatus.unknownMapping) }),
]);

export const EmailVerifyTokenAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), token: z.string().min(1) }),
  z.looseObject({ status: z.literal(CoreStatus.emailAlreadyVerified) }),
]);

export const EmailVerifyAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok) }),
  z.looseObject({ status: z.literal(CoreStatus.invalidVerificationToken) }),
]);

export const IsEmailVerifiedAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok), isVerified: z.boolean() });

export const UserMetadataAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok), metadata: z.record(z.string(), z.unknown()) });

export const RemoveUserAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok) });

/* Changing a user the migration created (core-behaviour.md). */

export const UserEmailChangeAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok) }),
  z.looseObject({ status: z.literal(CoreStatus.emailAlreadyExists) }),
  z.looseObject({ status: z.literal(CoreStatus.unknownUserId) }),
]);

export const EmailVerifyRemoveAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok) });

/* User roles (core-behaviour.md). */

export const PutRoleAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok), createdNewRole: z.boolean() });

export const RolePermissionsAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), permissions: z.array(z.string()) }),
  z.looseObject({ status: z.literal(CoreStatus.unknownRole) }),
]);

/** `GET /recipe/roles` and `GET /recipe/user/roles`. */
export const RolesAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok), roles: z.array(z.string()) });

export const RoleUsersAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), users: z.array(z.string()) }),
  z.looseObject({ status: z.literal(CoreStatus.unknownRole) }),
]);

export const AddUserRoleAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), didUserAlreadyHaveRole: z.boolean() }),
  z.looseObject({ status: z.literal(CoreStatus.unknownRole) }),
]);

/** A role that does not exist: `UNKNOWN_ROLE_ERROR` (no user can have it). */
export const RemoveUserRoleAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), didUserHaveRole: z.boolean() }),
  z.looseObject({ status: z.literal(CoreStatus.unknownRole) }),
]);

export const RemoveRoleAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok), didRoleExist: z.boolean() });

/* Passwordless users (core-behaviour.md). */

/** `POST /recipe/signinup/code`: the code's handles (credentials: read into Secrets at once) and its lifetime. */
export const PasswordlessCodeAnswerSchema = z.looseObject({
  status: z.literal(CoreStatus.ok),
  preAuthSessionId: z.string().min(1),
  linkCode: z.string().min(1),
  codeLifetime: z.number().int().nonnegative(),
});

export const PasswordlessConsumeAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok), createdNewUser: z.boolean(), user: CoreUserSchema }),
  z.looseObject({ status: z.literal(CoreStatus.restartFlow) }),
]);

export const PasswordlessCodesRemoveAnswerSchema = z.looseObject({ status: z.literal(CoreStatus.ok) });

export const PasswordlessUserChangeAnswerSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal(CoreStatus.ok) }),
  z.looseObject({ status: z.literal(CoreStatus.emailAlreadyExists) }),
  z.looseObject({ status: z.literal(CoreStatus.phoneNumberAlreadyExists) }),
  z.looseObject({ status: z.literal(CoreStatus.unknownUserId) }),
]);

/** A login method of a recent core's user: which recipe, and the login it holds. */
export const LoginMethodSchema = z.looseObject({
  recipeId: z.string(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
});

/** `GET /users/by-accountinfo`: users of every kind with the login (recent cores only: their users list login methods). */
export const UsersByAccountInfoAnswerSchema = z.looseObject({
  status: z.literal(CoreStatus.ok),
  users: z.array(z.looseObject({ id: z.string().min(1), loginMethods: z.array(LoginMethodSchema) })),
});
