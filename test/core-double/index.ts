export { startCoreDouble, type CoreDouble, type CoreDoubleOptions, type RecordedRequest } from './server.js';
export type { Fault, FaultAnswer } from './faults.js';
export type { StoredUser, StoredEmailPasswordUser, StoredThirdPartyUser, StoredPasswordlessUser, StoredCode, CoreStorage } from './store.js';
export { verifyPassword, parseVendorScryptHash } from './passwords.js';
export { identityFeatureNames, type IdentityFeatureName } from './identity-handlers.js';
