import { VENDOR_SCRYPT, VENDOR_SCRYPT_ALIASES } from '../contract/names.js';
import { normaliseArgon2, looksLikeArgon2 } from './argon2.js';
import { toStandardBase64 } from './base64.js';
import { looksLikeBcrypt, normaliseBcrypt } from './bcrypt.js';
import { hashFamilyLabel, reject, type FamilyOutcome, type HashFamily, type HashRejection, type PrepareHashResult } from './families.js';
import type { HashConfig } from './hash-config.js';
import { legacyFamilyRefusal, looksLikeDesCrypt, otherCryptScheme, unsupportedLookAlike } from './look-alikes.js';
import { builtInWrapperRules, matchedPrefix, type PrefixRule } from './prefix-rules.js';
import { buildVendorScrypt, looksLikeUnprefixedVendorScrypt, looksLikeVendorScrypt, normaliseVendorScrypt } from './vendor-scrypt.js';

export interface PrepareHashInput {
  /** The hash as exported, before any rule. */
  rawHash: string;
  /** The user's salt (vendor scrypt exports carry it beside the hash). */
  salt?: string;
  /** An algorithm named by the record itself, e.g. `vendor_scrypt`. */
  hashingAlgorithm?: string;
  /** The provider's hashing parameters, needed to build vendor scrypt hashes. */
  hashConfig?: HashConfig;
  /** Operator-given prefixes, tried before the built-in wrappers. */
  prefixRules?: readonly PrefixRule[];
}

/** The core stores at most this many characters of a hash (SQL column limit). */
export const MAX_HASH_LENGTH = 256;
/** Longer inputs are not hashes of any family; refusing them early keeps the work per record small. */
const MAX_INPUT_LENGTH = 4096;

export const MISSING_HASH_CONFIG_REASON = "vendor scrypt needs the provider's hashing parameters (--hash-config)";

/**
 * The one entry point from an exported hash to the import body: strips named wrappers, refuses look-alikes by name,
 * and validates and normalises the hash of one of the core's families. Never throws for any input.
 */
export function prepareHash(input: PrepareHashInput): PrepareHashResult {
  const declared = declaredFamily(input.hashingAlgorithm);
  if (declared !== undefined && typeof declared !== 'string') return declared;

  let hash = input.rawHash.trim();
  if (hash.length === 0) return reject('empty_hash', 'the record has no password hash');
  if (hash.length > MAX_INPUT_LENGTH) {
    return reject('too_long', `the hash has ${hash.length} characters, far more than any supported family writes`);
  }

  const strippedBy: string[] = [];
  for (const rules of [input.prefixRules ?? [], builtInWrapperRules]) {
    const rule = rules.find((candidate) => matchedPrefix(candidate, hash) !== undefined);
    if (rule === undefined) continue;
    hash = hash.slice(matchedPrefix(rule, hash)?.length ?? 0);
    strippedBy.push(rule.name);
    if (hash.length === 0) return reject('malformed_hash', `nothing is left of the hash after stripping ${rule.name}`);
  }

  const detected = detectAndNormalise(hash, input, declared);
  if (!detected.ok) return withRule(detected, strippedBy);
  const { family, outcome } = detected;
  if (!outcome.ok) return withRule(outcome, strippedBy);
  if (declared !== undefined && declared !== family) {
    return reject(
      'algorithm_mismatch',
      `the record names the algorithm ${hashFamilyLabel(declared)} but the hash is ${hashFamilyLabel(family)}: fix the hashingAlgorithm field or its mapping`,
    );
  }
  if (outcome.passwordHash.length > MAX_HASH_LENGTH) {
    return reject('too_long', `the ${hashFamilyLabel(family)} hash has ${outcome.passwordHash.length} characters; the core stores at most ${MAX_HASH_LENGTH}`);
  }
  const warnings = [...outcome.warnings];
  if (family !== 'vendor_scrypt' && (input.salt ?? '').trim() !== '') {
    warnings.push(`the record's salt was ignored: ${hashFamilyLabel(family)} hashes carry their own salt`);
  }
  return {
    ok: true,
    family,
    passwordHash: outcome.passwordHash,
    ...(family === 'vendor_scrypt' && { hashingAlgorithm: VENDOR_SCRYPT }),
    warnings,
    ...(strippedBy.length > 0 && { strippedBy: strippedBy.join('+') }),
  };
}

function detectAndNormalise(
  hash: string,
  input: PrepareHashInput,
  declared: HashFamily | undefined,
): { ok: true; family: HashFamily; outcome: FamilyOutcome } | HashRejection {
  const lookAlike = unsupportedLookAlike(hash);
  if (lookAlike !== undefined) return lookAlike;
  if (looksLikeBcrypt(hash)) return { ok: true, family: 'bcrypt', outcome: normaliseBcrypt(hash) };
  if (looksLikeArgon2(hash)) return { ok: true, family: 'argon2', outcome: normaliseArgon2(hash) };
  if (looksLikeVendorScrypt(hash)) {
    const context = { ...(input.salt !== undefined && { salt: input.salt }), ...(input.hashConfig !== undefined && { config: input.hashConfig }) };
    return { ok: true, family: 'vendor_scrypt', outcome: normaliseVendorScrypt(hash, context) };
  }
  if (looksLikeUnprefixedVendorScrypt(hash)) {
    return reject(
      'malformed_hash',
      'the hash has the parts of a vendor scrypt string (<hash>$<salt>$m=…$r=…$s=…) but not its $f_scrypt$ prefix: ' +
        'write it as $f_scrypt$<hash>$<salt>$m=…$r=…$s=…, or give the hash and the salt as separate fields',
    );
  }
  const otherScheme = otherCryptScheme(hash);
  if (otherScheme !== undefined) return otherScheme;

  const salt = input.salt ?? '';
  if (declared === 'vendor_scrypt' || salt.trim() !== '') {
    if (input.hashConfig === undefined) return reject('missing_hash_config', MISSING_HASH_CONFIG_REASON);
    return { ok: true, family: 'vendor_scrypt', outcome: buildVendorScrypt({ hash, salt, config: input.hashConfig }) };
  }
  if (declared !== undefined) {
    return reject('malformed_hash', `malformed ${hashFamilyLabel(declared)} hash: the record names that algorithm but the hash does not have its format`);
  }
  if (looksLikeDesCrypt(hash))
    return reject(
      'unsupported_family',
      'unsupported family: traditional DES crypt; the core cannot verify it — needs a password reset or login-time migration',
    );
  const base64 = toStandardBase64(hash);
  if (base64.ok && base64.byteLength === 64) {
    return reject('missing_salt', 'the hash looks like a vendor scrypt hash, but the record has no salt: map the salt field of the export');
  }
  const legacy = legacyFamilyRefusal(hash);
  if (legacy !== undefined) return legacy;
  return reject(
    'unrecognised_format',
    'the hash is not BCrypt ($2a$…), Argon2 ($argon2id$…) or vendor scrypt (hash with salt): if a system wrapped it, strip the wrapper with --strip-prefix',
  );
}

/** Maps a record's own algorithm name to a family; `undefined` when the record names none. */
function declaredFamily(name: string | undefined): HashFamily | HashRejection | undefined {
  const normalised = (name ?? '').trim().toLowerCase();
  if (normalised === '') return undefined;
  if (normalised === VENDOR_SCRYPT || VENDOR_SCRYPT_ALIASES.includes(normalised)) return 'vendor_scrypt';
  if (normalised === 'bcrypt') return 'bcrypt';
  if (['argon2', 'argon2id', 'argon2i', 'argon2d'].includes(normalised)) return 'argon2';
  if (normalised === 'scrypt') {
    return reject(
      'unsupported_family',
      `unsupported family: the algorithm "scrypt" is ambiguous — for the vendor's scrypt variant with a hash_config, name it ${VENDOR_SCRYPT}; standard scrypt needs a password reset or login-time migration`,
    );
  }
  const shown = /^[\w.-]{1,32}$/.test(normalised) ? `"${normalised}"` : 'that the record names';
  return reject('unsupported_family', `unsupported family: the algorithm ${shown}; the core cannot verify it — needs a password reset or login-time migration`);
}

function withRule(rejection: HashRejection, strippedBy: string[]): HashRejection {
  return strippedBy.length === 0 ? rejection : { ...rejection, reason: `${rejection.reason} (after stripping ${strippedBy.join(' and ')})` };
}
