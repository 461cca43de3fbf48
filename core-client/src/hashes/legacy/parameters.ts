import type { DigestName } from './primitives.js';

/** How a hash's parameters are said to an operator: the work a check costs, never a salt or a key. */
const DIGEST_NAMES = { md5: 'MD5', sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const satisfies Record<DigestName, string>;

export function digestName(digest: DigestName): string {
  return DIGEST_NAMES[digest];
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function describePbkdf2(parameters: { digest: DigestName; iterations: number; salt: Buffer }): string {
  return `PBKDF2-HMAC-${digestName(parameters.digest)}, ${count(parameters.iterations)} iterations, ${parameters.salt.length}-byte salt`;
}
