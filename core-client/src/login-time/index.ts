/**
 * `core-client/login-time`: the login-time migration for a Node backend and for `core-migrate login-migration`: the
 * waiting store a push parks users in, and the one call a sign-in handler makes when the core refused a password.
 */
export { LoginMigrationAnswerSchema, type LoginMigrationAnswer } from './login-answer.js';
export {
  openLoginMigration,
  migrateAtLogin,
  type LoginMigration,
  type LoginMigrationOptions,
  type LegacyVerifier,
  type LoginCoreClient,
} from './migrate-at-login.js';
export { openWaitingStore, isPostgresUrl } from './store/open-store.js';
export { loginMigrationStatus, type LoginMigrationStatus } from './status.js';
export { WaitingStoreError, isWaitingStoreError, DEFAULT_CLAIM_LEASE_MS, type WaitingStore, type WaitingStoreProblemCode } from './store/waiting-store.js';
export { ParkedUserSchema, type ParkedUser, type StoredWaitingUser, type StoreCounts, type WaitingListEntry, type WaitingState } from './store/waiting-user.js';
export { OldSystemSettingsSchema, readOldSystemSettings, OldSystemSettingsProblem, type OldSystemSettings } from './old-system/old-system-settings.js';
export { openOldSystemVerifier } from './old-system/open-old-system.js';
export type { OldSystemVerifier, PasswordVerdict } from './old-system/old-system-verifier.js';
export { openTokenVerifier } from './old-token/open-token-verifier.js';
export type { OldTokenVerifier, TokenVerifierOptions } from './old-token/old-token-verifier.js';
export {
  OldTokenAnswerSchema,
  TokenRefusalCodeSchema,
  TokenKeysReasonSchema,
  TokenKeysFailureSchema,
  TokenIssuerKindSchema,
  type OldTokenAnswer,
  type VerifiedOldToken,
  type TokenKeysUnavailable,
  type TokenRefusalCode,
} from './old-token/token-answer.js';
