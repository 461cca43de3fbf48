import { reject, type HashRejection } from './families.js';
import { detectLegacyFamily, legacyHashFamilyLabel } from './legacy/registry.js';

/**
 * Hashes that look like, or wrap, something importable but are not one of the core's families. Each is refused
 * by name: guessing would import users who can never log in.
 */
interface LookAlike {
  name: string;
  test: RegExp;
}

const NEEDS_MIGRATION = 'the core cannot verify it — needs a password reset or login-time migration';

const knownLookAlikes: readonly LookAlike[] = [
  { name: 'Django bcrypt_sha256 (the password is SHA-256-hashed before bcrypt)', test: /^bcrypt_sha256\$/ },
  { name: 'passlib bcrypt-sha256 (the password is SHA-256-hashed before bcrypt)', test: /^\$bcrypt-sha256\$/ },
  { name: 'Django PBKDF2', test: /^pbkdf2_sha(?:1|256)\$/ },
  { name: 'Django scrypt (standard scrypt, not the vendor variant)', test: /^scrypt\$/ },
  { name: 'Django salted or unsalted SHA-1/MD5', test: /^(?:sha1|md5|unsalted_md5|unsalted_sha1|crypt)\$/ },
  { name: 'PBKDF2', test: /^\$pbkdf2(?:-sha\d+)?\$/i },
  { name: 'standard scrypt (not the vendor variant)', test: /^\$(?:scrypt|7)\$/ },
  { name: 'yescrypt', test: /^\$g?y\$/ },
  { name: 'MD5-crypt', test: /^\$(?:1|apr1|md5)[$,]/ },
  { name: 'SHA-crypt', test: /^\$(?:5|6|sha1)\$/ },
  { name: 'phpass (WordPress/phpBB portable hashes)', test: /^\$[PH]\$/ },
  { name: 'NT hash', test: /^\$3\$/ },
  { name: 'Argon2 without its $argon2 prefix', test: /^argon2(?:id|i|d)\$/ },
  { name: 'BSDi extended DES crypt', test: /^_[./0-9A-Za-z]{19}$/ },
  { name: 'MySQL PASSWORD() (SHA-1)', test: /^\*[0-9A-Fa-f]{40}$/ },
  { name: 'unsalted MD5 or NTLM hex digest', test: /^[0-9a-f]{32}$/i },
  { name: 'unsalted SHA-1 hex digest', test: /^[0-9a-f]{40}$/i },
  { name: 'unsalted SHA-2 hex digest', test: /^(?:[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/i },
];

/** A Spring/LDAP `{id}` scheme other than the two wrappers stripped by default (`{bcrypt}`, `{argon2}`). */
const BRACED_SCHEME = /^\{([A-Za-z0-9._-]{1,20})\}/;
/** Any other modular crypt scheme `$id$…`. */
const CRYPT_SCHEME = /^\$([A-Za-z0-9-]{1,20})[$,]/;

/** Django and others mark an account that has no password with a leading `!`. */
const UNUSABLE_PASSWORD = /^!/;

export function unsupportedLookAlike(hash: string): HashRejection | undefined {
  if (UNUSABLE_PASSWORD.test(hash)) {
    return reject(
      'no_usable_password',
      'the hash is an "unusable password" marker: the user never had a password here — import them through a linked provider or ask for a password reset',
    );
  }
  const known = knownLookAlikes.find((lookAlike) => lookAlike.test.test(hash));
  if (known !== undefined) return legacyFamilyRefusal(hash) ?? reject('unsupported_family', `unsupported family: ${known.name}; ${NEEDS_MIGRATION}`);
  const braced = BRACED_SCHEME.exec(hash);
  if (braced !== null) {
    return legacyFamilyRefusal(hash) ?? reject('unsupported_family', `unsupported family: the {${braced[1]}} scheme; ${NEEDS_MIGRATION}`);
  }
  return undefined;
}

/** Checked only after the core's own families had their chance, so `$2a$`, `$argon2id$` and `$f_scrypt$` never reach it. */
export function otherCryptScheme(hash: string): HashRejection | undefined {
  const scheme = CRYPT_SCHEME.exec(hash);
  if (scheme === null) return undefined;
  return legacyFamilyRefusal(hash) ?? reject('unsupported_family', `unsupported family: the $${scheme[1]}$ crypt scheme; ${NEEDS_MIGRATION}`);
}

/**
 * A hash of a legacy family core-migrate verifies itself, refused by that family's label (the registry is the one
 * list). Only a hash the family can read is named so: a malformed one keeps its other refusal. Called once a hash is
 * known not to be the core's own, since some legacy forms (ASP.NET Identity's bare base64) are loose.
 */
export function legacyFamilyRefusal(hash: string): HashRejection | undefined {
  const detected = detectLegacyFamily(hash);
  if (detected === undefined) return undefined;
  const prepared = detected.check.prepare(hash);
  if (!prepared.usable && prepared.code === 'malformed_hash') return undefined;
  return reject('unsupported_family', `unsupported family: ${legacyHashFamilyLabel(detected.id)}; ${NEEDS_MIGRATION}`);
}

/** Traditional DES crypt: 13 characters of the crypt alphabet, and nothing else to tell it apart. */
export function looksLikeDesCrypt(hash: string): boolean {
  return /^[./0-9A-Za-z]{13}$/.test(hash);
}
