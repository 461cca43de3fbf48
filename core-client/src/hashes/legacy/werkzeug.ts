import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { decimalField, hexField, matchShape, parseParts, textSaltField } from './fields.js';
import { isUnusable, unusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import { DIGEST_LENGTHS, DigestNameSchema } from './primitives.js';
import { scryptRules } from './scrypt.js';

const PBKDF2_LABEL = 'Werkzeug PBKDF2';
const PBKDF2_SHAPE = 'pbkdf2:<sha256|sha512|sha1>:<iterations>$<salt>$<hex hash>';

/**
 * Werkzeug's `pbkdf2:sha256:<iterations>$<salt>$<hex>`: the salt is text, the key as long as the digest. Without the
 * iteration count, Werkzeug uses its own version's default (50,000 to 1,000,000 over the years): unknown here, so refused.
 */
export const werkzeugPbkdf2: LegacyFamilyRules<Pbkdf2Parameters> = {
  detect: (hash) => hash.startsWith('pbkdf2:'),
  parse(hash) {
    const shape = matchShape(hash, /^pbkdf2:([^:$]*)(?::([^:$]*))?\$([^$]*)\$([^$]*)$/, PBKDF2_LABEL, PBKDF2_SHAPE);
    if (isUnusable(shape)) return shape;
    const [, digestText = '', iterations, salt, key] = shape;
    const digestName = DigestNameSchema.exclude(['md5']).safeParse(digestText);
    if (!digestName.success)
      return unusable('unsupported_family', `${PBKDF2_LABEL} with the digest "${digestText.slice(0, 12)}" is not supported (sha256, sha512, sha1)`);
    if (iterations === undefined) {
      return unusable('malformed_hash', `malformed ${PBKDF2_LABEL} hash: it has no iteration count, and Werkzeug's default depends on its version`);
    }
    const schema = z.object({
      iterations: decimalField('iterations'),
      salt: textSaltField(),
      key: hexField('hash', { exact: DIGEST_LENGTHS[digestName.data] }),
    });
    const parts = parseParts(schema, { iterations, salt, key }, PBKDF2_LABEL);
    return isUnusable(parts) ? parts : { ...parts, digest: digestName.data };
  },
  costProblem: pbkdf2Cost(PBKDF2_LABEL),
  parameters: describePbkdf2,
  verify: verifyPbkdf2,
};

const SCRYPT_LABEL = 'Werkzeug scrypt';
/** Werkzeug's `scrypt:<n>:<r>:<p>$<salt>$<hex>`: the salt is text, the key 64 bytes (hashlib's default). */
export const werkzeugScrypt = scryptRules({
  label: SCRYPT_LABEL,
  // Werkzeug always writes the parameters; a bare `scrypt$` is Django's (another layout), not read here.
  detect: (hash) => hash.startsWith('scrypt:'),
  read(hash) {
    const shape = matchShape(hash, /^scrypt:([^:$]*):([^:$]*):([^:$]*)\$([^$]*)\$([^$]*)$/, SCRYPT_LABEL, 'scrypt:<n>:<r>:<p>$<salt>$<hex hash>');
    if (isUnusable(shape)) return shape;
    const [, n, r, p, salt, key] = shape;
    const schema = z.object({
      N: decimalField('n'),
      r: decimalField('r'),
      p: decimalField('p'),
      salt: textSaltField(),
      key: hexField('hash', { exact: 64 }),
    });
    return parseParts(schema, { N: n, r, p, salt, key }, SCRYPT_LABEL);
  },
});
