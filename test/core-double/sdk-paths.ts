/**
 * The calls of the official Node SDK (supertokens-node 21.1.2, CDI 5.2) that the double answers beyond core-migrate's
 * own (`CorePaths`), as a real core 10.0.7 answered them (test/fixtures/core-transcripts/sdk-flows.json). The SDK
 * sends the tenant-specific ones under `/public/...`.
 */
export const SdkCorePaths = {
  /** `POST {userId, email}`: a password reset token for the user. */
  passwordResetToken: '/recipe/user/password/reset/token',
  /** `POST {method: "token", token}`: uses a reset token up; answers its user and email (the SDK then sets the password). */
  passwordResetConsume: '/recipe/user/password/reset/token/consume',
  /** `GET ?userId=`: a user by the core's own id or its external id. */
  userById: '/user/id',
  /** `POST {userId, userIdType, force?}`: removes a user-id mapping. */
  userIdMapRemove: '/recipe/userid/map/remove',
  /** `POST`: a new session; `GET ?sessionHandle=`: what the core keeps of one. */
  session: '/recipe/session',
  sessionVerify: '/recipe/session/verify',
  sessionRefresh: '/recipe/session/refresh',
  /** `POST {sessionHandles} | {userId, revokeAcrossAllTenants, revokeSessionsForLinkedAccounts}` */
  sessionRemove: '/recipe/session/remove',
  /** The public keys of the access tokens: fetched by the SDK's JWT library without api-key or cdi-version. */
  jwks: '/.well-known/jwks.json',
} as const;

/** The `rid` header of the password recipe's calls (`PUT /recipe/user` with a password is one). */
export const EMAIL_PASSWORD_RECIPE_ID = 'emailpassword';
