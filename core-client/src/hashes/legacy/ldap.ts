import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { bufferSchema } from './fields.js';
import { decodeStrictBase64 } from '../base64.js';
import { unusable } from './outcome.js';
import { DIGEST_LENGTHS, digest, sameBytes, type DigestName } from './primitives.js';
import { digestName } from './parameters.js';

export const LdapDigestSchema = z.object({ digest: bufferSchema, salt: bufferSchema });
type LdapDigest = z.infer<typeof LdapDigestSchema>;

/**
 * RFC 2307 userPassword schemes as OpenLDAP's slappasswd writes them: `{SCHEME}` then base64 of the digest of
 * password ‖ salt, followed by the salt (salted schemes), or of the digest alone. The scheme name is case-insensitive.
 */
function ldapScheme(scheme: string, name: DigestName, salted: boolean): LegacyFamilyRules<LdapDigest> {
  const prefix = `{${scheme}}`;
  const length = DIGEST_LENGTHS[name];
  return {
    detect: (hash) => hash.slice(0, prefix.length).toUpperCase() === prefix,
    parse(hash) {
      // slappasswd pads, and OpenLDAP refuses base64 that ends mid-group: such a hash was cut short.
      const bytes = decodeStrictBase64(hash.slice(prefix.length), 'required');
      const fits = bytes !== undefined && (salted ? bytes.length > length : bytes.length === length);
      if (!fits) {
        const expected = salted ? `more than ${length} bytes (digest and salt)` : `${length} bytes`;
        return unusable('malformed_hash', `malformed LDAP ${prefix} hash: it must be ${prefix} and the padded base64 of ${expected}`);
      }
      return { digest: bytes.subarray(0, length), salt: bytes.subarray(length) };
    },
    parameters: (parsed) => (salted ? `one ${digestName(name)}, ${parsed.salt.length}-byte salt` : `one ${digestName(name)}, no salt`),
    costProblem: () => undefined,
    verify: async (password, parsed) => sameBytes(digest(name, password, parsed.salt), parsed.digest),
  };
}

export const ldapSsha = ldapScheme('SSHA', 'sha1', true);
export const ldapSmd5 = ldapScheme('SMD5', 'md5', true);
export const ldapSha = ldapScheme('SHA', 'sha1', false);
export const ldapMd5 = ldapScheme('MD5', 'md5', false);
export const ldapSsha256 = ldapScheme('SSHA256', 'sha256', true);
export const ldapSsha512 = ldapScheme('SSHA512', 'sha512', true);
// The unsalted SHA-2 schemes of OpenLDAP's pw-sha2 module (contrib/slapd-modules/passwd/sha2).
export const ldapSha256 = ldapScheme('SHA256', 'sha256', false);
export const ldapSha512 = ldapScheme('SHA512', 'sha512', false);
