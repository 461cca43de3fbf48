import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { bufferSchema } from './fields.js';
import { decodeHex } from './encodings.js';
import { unusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import { digest, inSlices, sameBytes } from './primitives.js';
import { count } from './parameters.js';

const PBKDF2_LABEL = 'Spring Security PBKDF2';

/**
 * Spring Security's `Pbkdf2PasswordEncoder` under its delegating ids, each with that id's defaults and an empty secret:
 * `{pbkdf2}` (5.x, `defaultsForSpringSecurity_v5_5`: HMAC-SHA1, 185,000 iterations, 8-byte salt) and
 * `{pbkdf2@SpringSecurity_v5_8}` (HMAC-SHA256, 310,000 iterations, 16-byte salt); both write hex(salt ‖ 32-byte key).
 */
const SPRING_PBKDF2_DEFAULTS = [
  { id: '{pbkdf2}', digest: 'sha1', iterations: 185_000, saltLength: 8 },
  { id: '{pbkdf2@SpringSecurity_v5_8}', digest: 'sha256', iterations: 310_000, saltLength: 16 },
] as const;
const KEY_LENGTH = 32;

export const springPbkdf2: LegacyFamilyRules<Pbkdf2Parameters> = {
  detect: (hash) => SPRING_PBKDF2_DEFAULTS.some((defaults) => hash.startsWith(defaults.id)),
  parse(hash) {
    const defaults = SPRING_PBKDF2_DEFAULTS.find((candidate) => hash.startsWith(candidate.id));
    const bytes = decodeHex(hash.slice(defaults?.id.length ?? 0));
    if (defaults === undefined || bytes === undefined)
      return unusable('malformed_hash', `malformed ${PBKDF2_LABEL} hash: it must be {pbkdf2}<hex salt and hash>`);
    if (bytes.length !== defaults.saltLength + KEY_LENGTH) {
      return unusable(
        'malformed_hash',
        `malformed ${PBKDF2_LABEL} hash: ${defaults.id} with its defaults holds ${defaults.saltLength + KEY_LENGTH} bytes, this one ${bytes.length} (another salt length or a secret cannot be told from the hash)`,
      );
    }
    return { digest: defaults.digest, iterations: defaults.iterations, salt: bytes.subarray(0, defaults.saltLength), key: bytes.subarray(defaults.saltLength) };
  },
  costProblem: pbkdf2Cost(PBKDF2_LABEL),
  parameters: describePbkdf2,
  verify: verifyPbkdf2,
};

const SHA256_LABEL = 'Spring Security StandardPasswordEncoder';
const SHA256_SALT_LENGTH = 8;
const SHA256_ITERATIONS = 1024;

export const StandardEncoderHashSchema = z.object({ salt: bufferSchema, digest: bufferSchema });
type StandardEncoderHash = z.infer<typeof StandardEncoderHashSchema>;

/** Spring's `{sha256}` (StandardPasswordEncoder, empty secret): hex(salt ‖ SHA-256 iterated 1,024 times over salt ‖ password). */
export const springSha256: LegacyFamilyRules<StandardEncoderHash> = {
  detect: (hash) => hash.startsWith('{sha256}'),
  parse(hash) {
    const bytes = decodeHex(hash.slice('{sha256}'.length));
    if (bytes === undefined || bytes.length !== SHA256_SALT_LENGTH + 32) {
      return unusable('malformed_hash', `malformed ${SHA256_LABEL} hash: it must be {sha256} and 80 hexadecimal characters (8-byte salt, 32-byte digest)`);
    }
    return { salt: bytes.subarray(0, SHA256_SALT_LENGTH), digest: bytes.subarray(SHA256_SALT_LENGTH) };
  },
  parameters: (parsed) => `${count(SHA256_ITERATIONS)} SHA-256 iterations, ${parsed.salt.length}-byte salt`,
  costProblem: () => undefined,
  async verify(password, parsed) {
    let value = digest('sha256', parsed.salt, password);
    await inSlices(SHA256_ITERATIONS - 1, () => {
      value = digest('sha256', value);
    });
    return sameBytes(value, parsed.digest);
  },
};
