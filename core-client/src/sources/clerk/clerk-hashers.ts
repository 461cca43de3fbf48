import { createHash } from 'node:crypto';
import { VENDOR_SCRYPT, VENDOR_SCRYPT_HASH_PREFIX } from '../../contract/names.js';
import { decodeStrictBase64 } from '../../hashes/base64.js';
import { decodeHex } from '../../hashes/legacy/encodings.js';

/**
 * What a Clerk dashboard export's `password_digest` becomes, by its `password_hasher` (the names and digest forms of
 * Clerk's Backend API, CreateUser `password_hasher`):
 *
 * - a hash the core imports (bcrypt, argon2i, argon2id; scrypt_firebase as the vendor scrypt `$f_scrypt$` string);
 * - a hash core-migrate verifies at the first sign-in, written in a legacy family's own form where Clerk's form is
 *   another spelling of it (pbkdf2_sha256 as passlib's, pbkdf2_sha1 as Django's, md5 and sha256 as LDAP's);
 * - `unreadable`, with the sentence that names the hasher and why: only the old system can check such a password.
 */
export type ClerkPassword =
  | { passwordHash: string; hashingAlgorithm?: string; signerKeyDigest?: string }
  | { unreadable: string }
  | { malformed: string; field: 'password_digest' | 'password_hasher' };

/** passlib's adapted base64: standard base64 with `.` for `+`, unpadded. */
const adaptedBase64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '').replace(/\+/g, '.');
const DECIMAL = /^[1-9]\d{0,9}$/;

function notOfForm(hasher: string, form: string): ClerkPassword {
  return { malformed: `the digest is not of the ${hasher} form Clerk documents (${form})`, field: 'password_digest' };
}

/** Clerk's `pbkdf2_sha256$<iterations>$<base64 salt>$<base64 hash>`: the salt's bytes are the decoded base64. */
function pbkdf2Sha256(digest: string): ClerkPassword {
  const [name, iterations = '', salt = '', key = '', ...rest] = digest.split('$');
  const saltBytes = decodeStrictBase64(salt, 'optional');
  const keyBytes = decodeStrictBase64(key, 'optional');
  if (name !== 'pbkdf2_sha256' || rest.length > 0 || !DECIMAL.test(iterations) || saltBytes === undefined || keyBytes === undefined || saltBytes.length === 0) {
    return notOfForm('pbkdf2_sha256', 'pbkdf2_sha256$<iterations>$<base64 salt>$<base64 hash>');
  }
  if (keyBytes.length !== 32)
    return { unreadable: `a Clerk pbkdf2_sha256 digest with a ${keyBytes.length}-byte key (core-migrate checks the 32-byte key of SHA-256)` };
  return { passwordHash: `$pbkdf2-sha256$${iterations}$${adaptedBase64(saltBytes)}$${adaptedBase64(keyBytes)}` };
}

/** Clerk's `pbkdf2_sha1$<iterations>$<salt>$<hex hash>` (the salt as text, as Django's): Django's form, the key in base64. */
function pbkdf2Sha1(digest: string): ClerkPassword {
  const [name, iterations = '', salt = '', key = '', ...rest] = digest.split('$');
  const keyBytes = decodeHex(key);
  if (name !== 'pbkdf2_sha1' || rest.length > 0 || !DECIMAL.test(iterations) || salt === '' || keyBytes === undefined) {
    return notOfForm('pbkdf2_sha1', 'pbkdf2_sha1$<iterations>$<salt>$<hex hash>');
  }
  if (keyBytes.length !== 20)
    return { unreadable: `a Clerk pbkdf2_sha1 digest with a ${keyBytes.length}-byte key (core-migrate checks the 20-byte key of SHA-1)` };
  return { passwordHash: `pbkdf2_sha1$${iterations}$${salt}$${keyBytes.toString('base64')}` };
}

/** Clerk's `pbkdf2_sha512$<iterations>$<salt>$<hex hash>`, the salt as text: passlib's form, the salt's UTF-8 bytes in it. */
function pbkdf2Sha512(digest: string): ClerkPassword {
  const [name, iterations = '', salt = '', key = '', ...rest] = digest.split('$');
  const keyBytes = decodeHex(key);
  if (name !== 'pbkdf2_sha512' || rest.length > 0 || !DECIMAL.test(iterations) || salt === '' || keyBytes === undefined) {
    return notOfForm('pbkdf2_sha512', 'pbkdf2_sha512$<iterations>$<salt>$<hex hash>');
  }
  if (keyBytes.length !== 64)
    return { unreadable: `a Clerk pbkdf2_sha512 digest with a ${keyBytes.length}-byte key (core-migrate checks the 64-byte key of SHA-512)` };
  return { passwordHash: `$pbkdf2-sha512$${iterations}$${adaptedBase64(Buffer.from(salt, 'utf8'))}$${adaptedBase64(keyBytes)}` };
}

/** An unsalted hex digest (md5, sha256) as the LDAP scheme of the same digest: `{MD5}` / `{SHA256}` and its base64. */
function hexDigest(hasher: string, digest: string, bytes: number, scheme: string): ClerkPassword {
  const decoded = decodeHex(digest.trim());
  if (decoded === undefined || decoded.length !== bytes) return notOfForm(hasher, `${bytes * 2} hexadecimal characters`);
  return { passwordHash: `{${scheme}}${decoded.toString('base64')}` };
}

/**
 * Clerk's `scrypt_firebase`: `<hash>$<salt>$<signer key>$<salt separator>$<rounds>$<memory cost>`, the provider's
 * parameters inside each digest. The core verifies the `$f_scrypt$` string with the one signer key it is configured
 * with: the key is never written on, only a digest of it is kept to tell two keys apart.
 */
function scryptFirebase(digest: string): ClerkPassword {
  const [hash = '', salt = '', signerKey = '', separator = '', rounds = '', memCost = '', ...rest] = digest.split('$');
  if (rest.length > 0 || hash === '' || salt === '' || signerKey === '' || separator === '' || !DECIMAL.test(rounds) || !DECIMAL.test(memCost)) {
    return notOfForm('scrypt_firebase', '<hash>$<salt>$<signer key>$<salt separator>$<rounds>$<memory cost>');
  }
  return {
    passwordHash: `${VENDOR_SCRYPT_HASH_PREFIX}${hash}$${salt}$m=${memCost}$r=${rounds}$s=${separator}`,
    hashingAlgorithm: VENDOR_SCRYPT,
    signerKeyDigest: createHash('sha256').update(signerKey).digest('hex'),
  };
}

function startingWith(hasher: string, digest: string, prefixes: readonly string[], form: string): ClerkPassword {
  return prefixes.some((prefix) => digest.startsWith(prefix)) ? { passwordHash: digest } : notOfForm(hasher, form);
}

/** Hashers Clerk documents whose digest cannot be checked without what the export does not carry, or whose form it does not document. */
const UNREADABLE: Readonly<Record<string, string>> = {
  awscognito: 'the password stays in the AWS Cognito pool it came from (Clerk asks the pool at the first sign-in)',
  bcrypt_peppered: 'a bcrypt of the password with a pepper the export does not carry',
  hmac_sha256_utf16_b64: 'an HMAC-SHA256 under a key the export does not carry',
  md5_salted: 'a salted MD5 whose salt order Clerk does not document',
  sha256_salted: 'a salted SHA-256 whose salt order Clerk does not document',
  pbkdf2_sha512_hex: 'a PBKDF2-SHA512 form Clerk does not document',
  sha512_symfony: "Symfony's legacy iterated SHA-512, which core-migrate does not verify",
};

/** The password of one row, by its hasher; a digest without a hasher is read as the hash itself says. */
export function clerkPassword(hasherText: string, digestText: string): ClerkPassword | undefined {
  const hasher = hasherText.trim().toLowerCase();
  const digest = digestText.trim();
  if (digest === '') return undefined;
  const unreadable = UNREADABLE[hasher];
  if (unreadable !== undefined) return { unreadable: `Clerk's password_hasher "${hasher}": ${unreadable}` };
  switch (hasher) {
    case '':
      return { passwordHash: digest };
    case 'bcrypt':
      return startingWith(hasher, digest, ['$2'], '$2a$<cost>$<salt and hash>');
    case 'argon2i':
      return startingWith(hasher, digest, ['$argon2i$'], '$argon2i$v=19$m=…,t=…,p=…$<salt>$<hash>');
    case 'argon2id':
      return startingWith(hasher, digest, ['$argon2id$'], '$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>');
    case 'bcrypt_sha256_django':
      return startingWith(hasher, digest, ['bcrypt_sha256$$2'], 'bcrypt_sha256$$2b$<cost>$<salt and hash>');
    case 'pbkdf2_sha256_django':
      return startingWith(hasher, digest, ['pbkdf2_sha256$'], 'pbkdf2_sha256$<iterations>$<salt>$<base64 hash>');
    case 'pbkdf2_sha256':
      return pbkdf2Sha256(digest);
    case 'pbkdf2_sha1':
      return pbkdf2Sha1(digest);
    case 'pbkdf2_sha512':
      return pbkdf2Sha512(digest);
    case 'phpass':
    case 'md5_phpass':
      return startingWith(hasher, digest, ['$P$', '$H$'], '$P$<rounds><salt><checksum>');
    case 'scrypt_firebase':
      return scryptFirebase(digest);
    case 'scrypt_werkzeug':
      return startingWith(hasher, digest, ['scrypt:'], 'scrypt:<n>:<r>:<p>$<salt>$<hash>');
    case 'ldap_ssha':
      return startingWith(hasher, digest, ['{SSHA}', '{ssha}'], '{SSHA}<base64>');
    case 'md5':
      return hexDigest(hasher, digest, 16, 'MD5');
    case 'sha256':
      return hexDigest(hasher, digest, 32, 'SHA256');
    default:
      return { unreadable: `Clerk's password_hasher "${hasher.slice(0, 40)}", which Clerk does not document` };
  }
}
