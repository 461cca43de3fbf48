/** Verifiers of the password-hash families the core cannot import, for a login-time migration. */
export { LEGACY_COST_LIMITS } from './cost-limits.js';
export { KeycloakCredentialSchema, keycloakCredentialToHash, type KeycloakCredential } from './keycloak.js';
export { LegacyUnusableCodeSchema, type LegacyUnusable, type LegacyUnusableCode } from './outcome.js';
export { LegacyHashFamilySchema, legacyHashFamilies, legacyHashFamilyLabel, type LegacyHashFamily, type LegacyHashFamilyInfo } from './registry.js';
export { SaltedDigestSchemeSchema, saltedDigestHash, type SaltedDigestScheme } from './salted-digest.js';
export {
  LegacyVerifierPool,
  VerifierPoolBusy,
  VerifierPoolClosed,
  VerifierThreadLost,
  type VerifierPoolOptions,
  type VerifierPoolProblemCode,
} from './verifier-pool.js';
export { inspectLegacyHash, verifyLegacyPassword, type LegacyHashInspection, type LegacyVerification } from './verify-legacy.js';
