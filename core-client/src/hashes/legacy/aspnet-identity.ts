import { type LegacyFamilyRules } from './family.js';
import { decodeStrictBase64 } from '../base64.js';
import { unusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import type { DigestName } from './primitives.js';

/**
 * ASP.NET Identity's PasswordHasher: base64 of a marker byte and the PBKDF2 parameters. Version 2 (0x00) is fixed:
 * HMAC-SHA1, 1,000 iterations, 16-byte salt, 32-byte key. Version 3 (0x01) carries its own: PRF (0 SHA-1, 1 SHA-256,
 * 2 SHA-512), iterations and salt length as big-endian 32-bit numbers, then the salt and a key of at least 16 bytes.
 */
const V2_LENGTH = 1 + 16 + 32;
const V3_HEADER = 13;
const MIN_SALT = 16;
const MIN_KEY = 16;
const PRFS: readonly DigestName[] = ['sha1', 'sha256', 'sha512'];

export const aspnetIdentityV2: LegacyFamilyRules<Pbkdf2Parameters> = {
  // Base64 whose first byte is 0x00: "A" then one of A–P (the length is checked when it is read).
  detect: (hash) => /^A[A-P][A-Za-z0-9+/]{18,}={0,2}$/.test(hash),
  parse(hash) {
    const bytes = decodeStrictBase64(hash, 'optional');
    if (bytes === undefined || bytes.length !== V2_LENGTH || bytes[0] !== 0x00) {
      return unusable('malformed_hash', 'malformed ASP.NET Identity v2 hash: it must be the base64 of 49 bytes starting with 0x00');
    }
    return { digest: 'sha1', iterations: 1000, salt: bytes.subarray(1, 17), key: bytes.subarray(17) };
  },
  costProblem: pbkdf2Cost('ASP.NET Identity v2'),
  parameters: describePbkdf2,
  verify: verifyPbkdf2,
};

export const aspnetIdentityV3: LegacyFamilyRules<Pbkdf2Parameters> = {
  // Base64 whose first byte is 0x01: "A" then one of Q–Z, a–f (the parts are checked when it is read).
  detect: (hash) => /^A[Q-Za-f][A-Za-z0-9+/]{18,}={0,2}$/.test(hash),
  parse(hash) {
    const label = 'ASP.NET Identity v3';
    const bytes = decodeStrictBase64(hash, 'optional');
    if (bytes === undefined || bytes.length < V3_HEADER + MIN_SALT + MIN_KEY || bytes[0] !== 0x01) {
      return unusable('malformed_hash', `malformed ${label} hash: it must be the base64 of 0x01, PRF, iterations, salt length, salt and key`);
    }
    const prf = PRFS[bytes.readUInt32BE(1)];
    if (prf === undefined) return unusable('unsupported_family', `${label} with PRF ${bytes.readUInt32BE(1)} is not one of HMAC-SHA1, -SHA256, -SHA512`);
    const iterations = bytes.readUInt32BE(5);
    const saltLength = bytes.readUInt32BE(9);
    if (iterations < 1) return unusable('malformed_hash', `malformed ${label} hash: the iteration count is 0`);
    if (saltLength < MIN_SALT || V3_HEADER + saltLength + MIN_KEY > bytes.length) {
      return unusable(
        'malformed_hash',
        `malformed ${label} hash: the salt length ${saltLength} leaves no room for a key of at least ${MIN_KEY} bytes (or is below ${MIN_SALT})`,
      );
    }
    return { digest: prf, iterations, salt: bytes.subarray(V3_HEADER, V3_HEADER + saltLength), key: bytes.subarray(V3_HEADER + saltLength) };
  },
  costProblem: pbkdf2Cost('ASP.NET Identity v3'),
  parameters: describePbkdf2,
  verify: verifyPbkdf2,
};
