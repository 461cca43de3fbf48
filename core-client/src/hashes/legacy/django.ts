import { z } from 'zod';
import { bcryptSha256Rules } from './bcrypt-sha256.js';
import { type LegacyFamilyRules } from './family.js';
import { base64Field, decimalField, matchShape, parseParts, textSaltField } from './fields.js';
import { isUnusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import { DIGEST_LENGTHS } from './primitives.js';

/** Django's `pbkdf2_sha256$<iterations>$<salt>$<base64 key>` (and `pbkdf2_sha1$`): the salt is text, the key as long as the digest. */
function djangoPbkdf2(digestName: 'sha256' | 'sha1', label: string): LegacyFamilyRules<Pbkdf2Parameters> {
  const prefix = `pbkdf2_${digestName}$`;
  const schema = z
    .object({
      iterations: decimalField('iterations'),
      salt: textSaltField(),
      key: base64Field('hash', 'optional', { exact: DIGEST_LENGTHS[digestName] }),
    })
    .transform((parts) => ({ ...parts, digest: digestName }));
  return {
    detect: (hash) => hash.startsWith(prefix),
    parse(hash) {
      const shape = matchShape(hash, /^pbkdf2_sha(?:256|1)\$([^$]*)\$([^$]*)\$([^$]*)$/, label, `${prefix}<iterations>$<salt>$<hash>`);
      if (isUnusable(shape)) return shape;
      return parseParts(schema, { iterations: shape[1], salt: shape[2], key: shape[3] }, label);
    },
    costProblem: pbkdf2Cost(label),
    parameters: describePbkdf2,
    verify: verifyPbkdf2,
  };
}

export const djangoPbkdf2Sha256 = djangoPbkdf2('sha256', 'Django PBKDF2-SHA256');
export const djangoPbkdf2Sha1 = djangoPbkdf2('sha1', 'Django PBKDF2-SHA1');

/** Django's `bcrypt_sha256$<bcrypt hash>`: bcrypt of the hex SHA-256 of the password, so no password is cut at 72 bytes. */
export const djangoBcryptSha256 = bcryptSha256Rules({
  label: 'Django bcrypt_sha256',
  prefix: 'bcrypt_sha256$',
  read(hash) {
    const shape = /^bcrypt_sha256\$(\$2[a-z]?\$.*)$/s.exec(hash);
    return shape === null ? undefined : { bcryptHash: shape[1] ?? '', preHash: { kind: 'hex-sha256' } };
  },
  shape: 'bcrypt_sha256$$2b$<cost>$<salt and hash>',
});
