import { z } from 'zod';
import { decodeStrictBase64 } from '../base64.js';
import { decodeHex } from './encodings.js';
import { type LegacyFamilyRules } from './family.js';
import { bufferSchema } from './fields.js';
import { unusable, type LegacyUnusable } from './outcome.js';
import { DIGEST_LENGTHS, DigestNameSchema, digest, sameBytes } from './primitives.js';
import { digestName } from './parameters.js';

/**
 * A plain digest of the password and a salt kept beside it (a `salt` column), which the hash alone cannot describe:
 * the operator declares the scheme once, as data (a settings file or flag), and each record's hex digest and salt are
 * turned into one self-describing string of core-migrate's own form,
 * `$salted-digest$<digest>$<salt-before-password|salt-after-password>$<base64 salt>$<hex digest>`.
 */
export const SaltedDigestSchemeSchema = z.object({
  digest: DigestNameSchema,
  saltPosition: z.enum(['salt-before-password', 'salt-after-password']),
  /** How the salt column is written: as text (hashed as its UTF-8 bytes), hex or base64. */
  saltEncoding: z.enum(['text', 'hex', 'base64']).default('text'),
});
export type SaltedDigestScheme = z.input<typeof SaltedDigestSchemeSchema>;

const PREFIX = '$salted-digest$';

/** The scheme is taken as the operator wrote it (a settings file) and checked here; see SaltedDigestSchemeSchema. */
export function saltedDigestHash(scheme: unknown, record: { digestHex: string; salt: string }): string | LegacyUnusable {
  const declared = SaltedDigestSchemeSchema.safeParse(scheme);
  if (!declared.success) return unusable('malformed_hash', `the salted digest scheme is not valid: ${declared.error.issues[0]?.message ?? ''}`);
  const { digest: name, saltPosition, saltEncoding } = declared.data;
  const salt =
    saltEncoding === 'text' ? Buffer.from(record.salt, 'utf8') : saltEncoding === 'hex' ? decodeHex(record.salt) : decodeStrictBase64(record.salt, 'optional');
  if (salt === undefined || salt.length === 0) return unusable('malformed_hash', `malformed salted ${name} digest: the salt is empty or not ${saltEncoding}`);
  const stored = record.digestHex.trim().toLowerCase();
  if (stored.length !== 2 * DIGEST_LENGTHS[name] || decodeHex(stored) === undefined) {
    return unusable('malformed_hash', `malformed salted ${name} digest: it must be ${2 * DIGEST_LENGTHS[name]} hexadecimal characters`);
  }
  return `${PREFIX}${name}$${saltPosition}$${salt.toString('base64')}$${stored}`;
}

export const SaltedDigestSchema = z.object({ name: DigestNameSchema, saltFirst: z.boolean(), salt: bufferSchema, digest: bufferSchema });
type SaltedDigest = z.infer<typeof SaltedDigestSchema>;

const SHAPE = /^\$salted-digest\$([a-z0-9]+)\$(salt-before-password|salt-after-password)\$([A-Za-z0-9+/]+={0,2})\$([0-9a-f]+)$/;

export const saltedDigest: LegacyFamilyRules<SaltedDigest> = {
  detect: (hash) => hash.startsWith(PREFIX),
  parse(hash) {
    const shape = SHAPE.exec(hash);
    const name = DigestNameSchema.safeParse(shape?.[1]);
    const salt = decodeStrictBase64(shape?.[3] ?? '', 'optional');
    const stored = decodeHex(shape?.[4] ?? '');
    if (shape === null || !name.success || salt === undefined || stored === undefined || stored.length !== DIGEST_LENGTHS[name.data]) {
      return unusable(
        'malformed_hash',
        `malformed salted digest hash: it must be ${PREFIX}<md5|sha1|sha256|sha512>$<salt position>$<base64 salt>$<hex digest>`,
      );
    }
    return { name: name.data, saltFirst: shape[2] === 'salt-before-password', salt, digest: stored };
  },
  parameters: (parsed) => `one ${digestName(parsed.name)} of ${parsed.saltFirst ? 'salt and password' : 'password and salt'}, ${parsed.salt.length}-byte salt`,
  costProblem: () => undefined,
  async verify(password, parsed) {
    const computed = parsed.saltFirst ? digest(parsed.name, parsed.salt, password) : digest(parsed.name, password, parsed.salt);
    return sameBytes(computed, parsed.digest);
  },
};
