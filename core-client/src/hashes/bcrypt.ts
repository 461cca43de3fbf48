import bcryptjs from 'bcryptjs';
import { isAscii } from './base64.js';
import { bcryptCostProblem } from './cost-limits.js';
import { reject, type FamilyOutcome } from './families.js';

/** The bcrypt alphabet, in value order (it is not base64's). */
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BCRYPT_SHAPE = /^\$2([a-z]?)\$([^$]*)\$(.*)$/s;
const BCRYPT_CHARS = /^[./A-Za-z0-9]*$/;
const SALT_LENGTH = 22;
const DIGEST_LENGTH = 31;
const TOTAL_LENGTH = 60;
/** bcrypt reads at most this many bytes of a password; the rest is ignored by every implementation. */
export const BCRYPT_MAX_PASSWORD_BYTES = 72;

export function looksLikeBcrypt(hash: string): boolean {
  return hash.startsWith('$2');
}

/**
 * Full structural check of a modular crypt bcrypt string. `$2b$` and `$2y$` are rewritten to the contract's `$2a$`
 * (they verify alike); `$2x$` is kept, with a warning, because it marks hashes made with the sign-extension bug.
 */
export function normaliseBcrypt(hash: string): FamilyOutcome {
  const shape = BCRYPT_SHAPE.exec(hash);
  if (shape === null) return malformed('it is not of the form $2a$<cost>$<salt and hash>');
  const [, minor = '', cost = '', saltAndDigest = ''] = shape;
  if (minor === '') {
    return reject(
      'unsupported_family',
      'unsupported family: the original bcrypt revision $2$, which the core does not accept — needs a password reset or login-time migration',
    );
  }
  if (!'abxy'.includes(minor)) return malformed(`the revision $2${minor}$ is not one of $2a$, $2b$, $2x$, $2y$`);
  if (!/^\d\d$/.test(cost)) return malformed('the cost must be two digits (04 to 31)');
  const costValue = Number(cost);
  if (costValue < 4 || costValue > 31) return malformed(`the cost ${cost} is outside 04–31`);
  if (!BCRYPT_CHARS.test(saltAndDigest)) return malformed('the salt and hash contain characters outside the bcrypt alphabet');
  if (hash.length !== TOTAL_LENGTH) {
    return malformed(`it has ${hash.length} characters instead of ${TOTAL_LENGTH} (truncated or padded?)`);
  }
  // 22 characters carry 132 bits for a 128-bit salt and 31 carry 186 for a 184-bit hash: the spare low bits are
  // zero in anything an implementation wrote, so a non-zero one means the string was altered.
  const lastSaltValue = BCRYPT_ALPHABET.indexOf(saltAndDigest.charAt(SALT_LENGTH - 1));
  if (lastSaltValue % 16 !== 0) return malformed('the last salt character is not one bcrypt writes (altered salt?)');
  const lastDigestValue = BCRYPT_ALPHABET.indexOf(saltAndDigest.charAt(SALT_LENGTH + DIGEST_LENGTH - 1));
  if (lastDigestValue % 4 !== 0) return malformed('the last hash character is not one bcrypt writes (altered hash?)');
  const costProblem = bcryptCostProblem(costValue);
  if (costProblem !== undefined) return reject('cost_too_high', costProblem);

  if (minor === 'x') {
    return {
      ok: true,
      passwordHash: hash,
      warnings: ['$2x$ marks a hash made with the old crypt_blowfish sign-extension bug: passwords with non-ASCII characters may not verify on the core'],
    };
  }
  return { ok: true, passwordHash: `$2a$${hash.slice(4)}`, warnings: [] };
}

/** Verifies against a normalised bcrypt hash the way the core does: with the revision read as `$2a$`. */
export async function verifyBcrypt(password: string, normalisedHash: string): Promise<{ match: boolean; warnings: string[] }> {
  const warnings: string[] = [];
  if (Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_PASSWORD_BYTES) {
    warnings.push(`bcrypt reads only the first ${BCRYPT_MAX_PASSWORD_BYTES} bytes of a password; the rest was ignored`);
  }
  if (normalisedHash.startsWith('$2x$') && !isAscii(password)) {
    warnings.push('this $2x$ hash was checked as $2a$, as the core does; with non-ASCII characters the original system may have computed it differently');
  }
  const match = await bcryptjs.compare(password, `$2a$${normalisedHash.slice(4)}`);
  return { match, warnings };
}

function malformed(problem: string): FamilyOutcome {
  return reject('malformed_hash', `malformed BCrypt hash: ${problem}`);
}
