import type { Secret } from '../secret.js';
import { verifyArgon2 } from './argon2.js';
import { isAscii } from './base64.js';
import { verifyBcrypt } from './bcrypt.js';
import type { HashFamily } from './families.js';
import { prepareHash } from './prepare-hash.js';
import { parseVendorScrypt, verifyVendorScrypt } from './vendor-scrypt.js';

/**
 * The answer of a local check: `ok: true` with `match` when the hash could be checked, `ok: false` with a reason
 * when it could not (unusable hash, missing signer key, too costly to check here). Never holds the password.
 */
export type VerifyPasswordResult = { ok: true; match: boolean; family: HashFamily; warnings: string[] } | { ok: false; reason: string };

export interface VerifyPasswordOptions {
  /** The provider's base64_signer_key: vendor scrypt hashes cannot be checked without it. */
  signerKey?: Secret | undefined;
}

/** Beyond these a local check would take minutes or gigabytes; the operator is told rather than made to wait. */
export const LOCAL_CHECK_LIMITS = { maxBcryptCost: 16, maxArgon2MemoryKiB: 1024 * 1024 } as const;

/**
 * Checks one known password against a normalised hash, the way the core will, so an operator can prove the hashes
 * and the parameters (above all the signer key) are right before the push.
 */
export async function verifyPassword(password: Secret, passwordHash: string, options: VerifyPasswordOptions = {}): Promise<VerifyPasswordResult> {
  const prepared = prepareHash({ rawHash: passwordHash });
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  const { family, passwordHash: hash } = prepared;
  const warnings = [...prepared.warnings];
  const plain = password.reveal();
  try {
    switch (family) {
      case 'bcrypt': {
        const cost = Number(hash.slice(4, 6));
        if (cost > LOCAL_CHECK_LIMITS.maxBcryptCost) {
          return { ok: false, reason: `the BCrypt cost ${cost} is too slow to check here (at most ${LOCAL_CHECK_LIMITS.maxBcryptCost})` };
        }
        const checked = await verifyBcrypt(plain, hash);
        return { ok: true, match: checked.match, family, warnings: [...warnings, ...checked.warnings] };
      }
      case 'argon2': {
        const memoryKiB = Number(/\$m=(\d+),/.exec(hash)?.[1] ?? 0);
        if (memoryKiB > LOCAL_CHECK_LIMITS.maxArgon2MemoryKiB) {
          return {
            ok: false,
            reason: `the Argon2 memory cost m=${memoryKiB} KiB is too large to check here (at most ${LOCAL_CHECK_LIMITS.maxArgon2MemoryKiB})`,
          };
        }
        return { ok: true, match: await verifyArgon2(plain, hash), family, warnings };
      }
      case 'vendor_scrypt': {
        if (options.signerKey === undefined || options.signerKey.isEmpty) {
          return { ok: false, reason: 'checking a vendor scrypt hash needs the signer key (base64_signer_key in --hash-config)' };
        }
        const parsed = parseVendorScrypt(hash);
        if (!parsed.ok) return { ok: false, reason: parsed.reason };
        if (!isAscii(plain)) {
          warnings.push('the password has non-ASCII characters: the core reads vendor scrypt passwords as ASCII, so this user cannot log in after import');
        }
        const match = await verifyVendorScrypt(Buffer.from(plain, 'utf8'), parsed.parts, options.signerKey);
        return { ok: true, match, family, warnings };
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const safe = password
      .redact(options.signerKey?.redact(message) ?? message)
      .split(hash)
      .join('<hash>');
    return { ok: false, reason: `the ${family} hash could not be checked: ${safe}` };
  }
}
