import { z } from 'zod';
import { bcryptSha256Rules } from './bcrypt-sha256.js';
import { type LegacyFamilyRules } from './family.js';
import { adaptedBase64Field, base64Field, decimalField, matchShape, parseParts } from './fields.js';
import { isUnusable } from './outcome.js';
import { describePbkdf2 } from './parameters.js';
import { pbkdf2Cost, verifyPbkdf2, type Pbkdf2Parameters } from './pbkdf2.js';
import { DIGEST_LENGTHS } from './primitives.js';
import { scryptRules } from './scrypt.js';

/** passlib's `$pbkdf2-sha256$<rounds>$<salt>$<checksum>` (and -sha512, and `$pbkdf2$` for SHA-1), both in adapted base64. */
function passlibPbkdf2(ident: string, digestName: 'sha256' | 'sha512' | 'sha1', label: string): LegacyFamilyRules<Pbkdf2Parameters> {
  const prefix = `$${ident}$`;
  const schema = z
    .object({
      iterations: decimalField('rounds'),
      salt: adaptedBase64Field('salt'),
      key: adaptedBase64Field('checksum', { exact: DIGEST_LENGTHS[digestName] }),
    })
    .transform((parts) => ({ ...parts, digest: digestName }));
  return {
    detect: (hash) => hash.startsWith(prefix),
    parse(hash) {
      const shape = matchShape(hash, /^\$[a-z0-9-]+\$([^$]*)\$([^$]*)\$([^$]*)$/, label, `${prefix}<rounds>$<salt>$<checksum>`);
      if (isUnusable(shape)) return shape;
      return parseParts(schema, { iterations: shape[1], salt: shape[2], key: shape[3] }, label);
    },
    costProblem: pbkdf2Cost(label),
    parameters: describePbkdf2,
    verify: verifyPbkdf2,
  };
}

export const passlibPbkdf2Sha256 = passlibPbkdf2('pbkdf2-sha256', 'sha256', 'passlib PBKDF2-SHA256');
export const passlibPbkdf2Sha512 = passlibPbkdf2('pbkdf2-sha512', 'sha512', 'passlib PBKDF2-SHA512');
export const passlibPbkdf2Sha1 = passlibPbkdf2('pbkdf2', 'sha1', 'passlib PBKDF2-SHA1');

// passlib refuses a zero-padded cost ("zero-padded rounds"), unlike bcrypt's own two-digit one.
const V2 = /^\$bcrypt-sha256\$v=2,t=(2b),r=(0|[1-9]\d?)\$([./A-Za-z0-9]{22})\$([./A-Za-z0-9]{31})$/;
const V1 = /^\$bcrypt-sha256\$(2a|2b),(0|[1-9]\d?)\$([./A-Za-z0-9]{22})\$([./A-Za-z0-9]{31})$/;

/**
 * passlib's `$bcrypt-sha256$` (the cost written without a leading zero): version 2 (`v=2,t=2b,r=<cost>`, passlib 1.7.3 on) bcrypts base64(HMAC-SHA256(key = the
 * 22-character salt, the password)); version 1 (`2b,<cost>`) bcrypts base64(SHA-256(the password)).
 */
export const passlibBcryptSha256 = bcryptSha256Rules({
  label: 'passlib bcrypt-sha256',
  prefix: '$bcrypt-sha256$',
  shape: '$bcrypt-sha256$v=2,t=2b,r=<cost, no leading zero>$<salt>$<checksum>',
  read(hash) {
    const v2 = V2.exec(hash);
    if (v2 !== null) {
      const [, , cost = '', salt = '', checksum = ''] = v2;
      return {
        bcryptHash: `$2b$${cost.padStart(2, '0')}$${salt}${checksum}`,
        preHash: { kind: 'base64-hmac-sha256', key: salt },
      };
    }
    const v1 = V1.exec(hash);
    if (v1 === null) return undefined;
    const [, ident = '', cost = '', salt = '', checksum = ''] = v1;
    return {
      bcryptHash: `$${ident}$${cost.padStart(2, '0')}$${salt}${checksum}`,
      preHash: { kind: 'base64-sha256' },
    };
  },
});

const SCRYPT_LABEL = 'passlib scrypt';

/** passlib's `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<checksum>`: salt and checksum in unpadded standard base64, a 32-byte key. */
export const passlibScrypt = scryptRules({
  label: SCRYPT_LABEL,
  detect: (hash) => hash.startsWith('$scrypt$'),
  read(hash) {
    const shape = matchShape(
      hash,
      /^\$scrypt\$ln=([^,$]*),r=([^,$]*),p=([^,$]*)\$([^$]*)\$([^$]*)$/,
      SCRYPT_LABEL,
      '$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<checksum>',
    );
    if (isUnusable(shape)) return shape;
    const schema = z.object({
      N: decimalField('ln')
        .pipe(z.number().max(32, { message: 'ln must be at most 32' }))
        .transform((log2) => 2 ** log2),
      r: decimalField('r'),
      p: decimalField('p'),
      salt: base64Field('salt', 'optional', { min: 0 }),
      key: base64Field('checksum', 'optional', { exact: 32 }),
    });
    return parseParts(schema, { N: shape[1], r: shape[2], p: shape[3], salt: shape[4], key: shape[5] }, SCRYPT_LABEL);
  },
});
