/** Hash families: detect, strip wrappers, normalise, validate and verify locally. */
export {
  HashFamilySchema,
  HashRejectionCodeSchema,
  hashFamilies,
  hashFamilyLabel,
  type HashFamily,
  type HashFamilyInfo,
  type HashRejection,
  type HashRejectionCode,
  type PreparedHash,
  type PrepareHashResult,
} from './families.js';
export { HashConfigError, HashConfigSchema, parseHashConfig, type HashConfig } from './hash-config.js';
export { PrefixRuleError, builtInWrapperNames, builtInWrapperRules, prefixRuleFromOption, type PrefixRule } from './prefix-rules.js';
export { MAX_HASH_LENGTH, MISSING_HASH_CONFIG_REASON, prepareHash, type PrepareHashInput } from './prepare-hash.js';
export { HASH_COST_LIMITS } from './cost-limits.js';
export { verifyPassword, type VerifyPasswordOptions, type VerifyPasswordResult } from './verify-password.js';
export { formatVendorScrypt, parseVendorScrypt, type VendorScryptParts } from './vendor-scrypt.js';
export { signerKeyReminder } from './signer-key-reminder.js';
export * from './legacy/index.js';
