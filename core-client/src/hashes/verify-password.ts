import type { Secret } from '../secret.js';
import { verifyArgon2 } from './argon2.js';
import { isAscii } from './base64.js';
import { verifyBcrypt } from './bcrypt.js';
import type { HashFamily } from './families.js';
import { prepareHash } from './prepare-hash.js';
import { parseVendorScrypt, verifyVendorScrypt } from './vendor-scrypt.js';

/**
 * The answer of a local check: `ok: true` with `match` when the hash could be checked, `ok: false` with a reason
 * when it could not (unusable hash, missing signer key, a cost beyond HASH_COST_LIMITS). Never holds the password.
 */
export type VerifyPasswordResult = { ok: true; match: boolean; family: HashFamily; warnings: string[] } | { ok: false; reason: string };

export interface VerifyPasswordOptions {
  /** The provider's base64_signer_key: vendor scrypt hashes cannot be checked without it. */
  signerKey?: Secret | undefined;
  /** Stops the check (the first Ctrl-C): the promise rejects with the signal's reason at once. */
  signal?: AbortSignal | undefined;
}

/**
 * Checks one known password against a normalised hash, the way the core will, so an operator can prove the hashes
 * and the parameters (above all the signer key) are right before the push. A hash that costs more than a core can
 * check in reasonable time is refused by `prepareHash` before any work starts (HASH_COST_LIMITS), so a check ends
 * within seconds; an abort returns at once, and a computation already running ends within those seconds unseen.
 */
export async function verifyPassword(password: Secret, passwordHash: string, options: VerifyPasswordOptions = {}): Promise<VerifyPasswordResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const check = checkPassword(password, passwordHash, options);
  if (signal === undefined) return check;
  return new Promise<VerifyPasswordResult>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    check.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function checkPassword(password: Secret, passwordHash: string, options: VerifyPasswordOptions): Promise<VerifyPasswordResult> {
  const prepared = prepareHash({ rawHash: passwordHash });
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  const { family, passwordHash: hash } = prepared;
  const warnings = [...prepared.warnings];
  const plain = password.reveal();
  try {
    switch (family) {
      case 'bcrypt': {
        const checked = await verifyBcrypt(plain, hash);
        return { ok: true, match: checked.match, family, warnings: [...warnings, ...checked.warnings] };
      }
      case 'argon2':
        return { ok: true, match: await verifyArgon2(plain, hash, options.signal), family, warnings };
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
    if (options.signal?.aborted === true) throw options.signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    const safe = password
      .redact(options.signerKey?.redact(message) ?? message)
      .split(hash)
      .join('<hash>');
    return { ok: false, reason: `the ${family} hash could not be checked: ${safe}` };
  }
}
