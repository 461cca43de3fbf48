import { z } from 'zod';
import { aspnetIdentityV2, aspnetIdentityV3 } from './aspnet-identity.js';
import { betterAuthScrypt } from './better-auth.js';
import { md5Crypt, sha256Crypt, sha512Crypt } from './crypt.js';
import { djangoBcryptSha256, djangoPbkdf2Sha1, djangoPbkdf2Sha256 } from './django.js';
import { familyCheck, type LegacyFamilyCheck } from './family.js';
import { keycloakPbkdf2 } from './keycloak.js';
import { ldapMd5, ldapSha, ldapSha256, ldapSha512, ldapSmd5, ldapSsha, ldapSsha256, ldapSsha512 } from './ldap.js';
import { passlibBcryptSha256, passlibPbkdf2Sha1, passlibPbkdf2Sha256, passlibPbkdf2Sha512, passlibScrypt } from './passlib.js';
import { phpass } from './phpass.js';
import { saltedDigest } from './salted-digest.js';
import { springPbkdf2, springSha256 } from './spring.js';
import { werkzeugPbkdf2, werkzeugScrypt } from './werkzeug.js';

/** The legacy families core-migrate verifies itself (for a login-time migration): the one list docs and screens read. */
export const LegacyHashFamilySchema = z.enum([
  'django_pbkdf2_sha256',
  'django_pbkdf2_sha1',
  'django_bcrypt_sha256',
  'werkzeug_pbkdf2',
  'werkzeug_scrypt',
  'better_auth_scrypt',
  'passlib_pbkdf2_sha256',
  'passlib_pbkdf2_sha512',
  'passlib_pbkdf2_sha1',
  'passlib_bcrypt_sha256',
  'passlib_scrypt',
  'spring_pbkdf2',
  'spring_sha256',
  'keycloak_pbkdf2',
  'aspnet_identity_v2',
  'aspnet_identity_v3',
  'phpass',
  'md5_crypt',
  'sha256_crypt',
  'sha512_crypt',
  'ldap_ssha',
  'ldap_ssha256',
  'ldap_ssha512',
  'ldap_smd5',
  'ldap_sha',
  'ldap_md5',
  'ldap_sha256',
  'ldap_sha512',
  'salted_digest',
]);
export type LegacyHashFamily = z.infer<typeof LegacyHashFamilySchema>;

export interface LegacyHashFamilyInfo {
  id: LegacyHashFamily;
  label: string;
  /** How a hash of the family begins, as its users would recognise it. */
  form: string;
  /** The cost its reference implementation writes today (or always), as a bench and docs state it. */
  usualCost: string;
}

interface FamilyEntry extends Omit<LegacyHashFamilyInfo, 'id'> {
  check: LegacyFamilyCheck;
}

const familyDetails = {
  django_pbkdf2_sha256: {
    label: 'Django PBKDF2-SHA256',
    form: 'pbkdf2_sha256$<iterations>$<salt>$<base64>',
    usualCost: '1,000,000 iterations (Django 5.2)',
    check: familyCheck(djangoPbkdf2Sha256),
  },
  django_pbkdf2_sha1: {
    label: 'Django PBKDF2-SHA1',
    form: 'pbkdf2_sha1$<iterations>$<salt>$<base64>',
    usualCost: '1,000,000 iterations (Django 5.2)',
    check: familyCheck(djangoPbkdf2Sha1),
  },
  django_bcrypt_sha256: {
    label: 'Django bcrypt_sha256',
    form: 'bcrypt_sha256$$2b$<cost>$…',
    usualCost: 'bcrypt cost 12',
    check: familyCheck(djangoBcryptSha256),
  },
  werkzeug_pbkdf2: {
    label: 'Werkzeug PBKDF2',
    form: 'pbkdf2:sha256:<iterations>$<salt>$<hex>',
    usualCost: '1,000,000 iterations (Werkzeug 3.1)',
    check: familyCheck(werkzeugPbkdf2),
  },
  werkzeug_scrypt: {
    label: 'Werkzeug scrypt',
    form: 'scrypt:<n>:<r>:<p>$<salt>$<hex>',
    usualCost: 'N = 32768, r = 8, p = 1 (32 MiB)',
    check: familyCheck(werkzeugScrypt),
  },
  better_auth_scrypt: {
    label: 'Better Auth scrypt',
    form: '<32 hex salt>:<128 hex key>',
    usualCost: 'N = 16384, r = 16, p = 1 (32 MiB; fixed)',
    check: familyCheck(betterAuthScrypt),
  },
  passlib_pbkdf2_sha256: {
    label: 'passlib PBKDF2-SHA256',
    form: '$pbkdf2-sha256$<rounds>$<salt>$<checksum>',
    usualCost: '29,000 rounds (passlib 1.7)',
    check: familyCheck(passlibPbkdf2Sha256),
  },
  passlib_pbkdf2_sha512: {
    label: 'passlib PBKDF2-SHA512',
    form: '$pbkdf2-sha512$<rounds>$<salt>$<checksum>',
    usualCost: '25,000 rounds (passlib 1.7)',
    check: familyCheck(passlibPbkdf2Sha512),
  },
  passlib_pbkdf2_sha1: {
    label: 'passlib PBKDF2-SHA1',
    form: '$pbkdf2$<rounds>$<salt>$<checksum>',
    usualCost: '131,000 rounds (passlib 1.7)',
    check: familyCheck(passlibPbkdf2Sha1),
  },
  passlib_bcrypt_sha256: {
    label: 'passlib bcrypt-sha256',
    form: '$bcrypt-sha256$v=2,t=2b,r=<cost>$<salt>$<checksum>',
    usualCost: 'bcrypt cost 12',
    check: familyCheck(passlibBcryptSha256),
  },
  passlib_scrypt: {
    label: 'passlib scrypt',
    form: '$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<checksum>',
    usualCost: 'ln = 16, r = 8, p = 1 (64 MiB)',
    check: familyCheck(passlibScrypt),
  },
  spring_pbkdf2: {
    label: 'Spring Security PBKDF2',
    form: '{pbkdf2}<hex>, {pbkdf2@SpringSecurity_v5_8}<hex>',
    usualCost: '185,000 (SHA-1) or 310,000 (SHA-256) iterations',
    check: familyCheck(springPbkdf2),
  },
  spring_sha256: {
    label: 'Spring Security StandardPasswordEncoder',
    form: '{sha256}<hex>',
    usualCost: '1,024 SHA-256 iterations',
    check: familyCheck(springSha256),
  },
  keycloak_pbkdf2: {
    label: 'Keycloak PBKDF2',
    form: '$keycloak-<algorithm>$… (made from a credential)',
    usualCost: '210,000 iterations (SHA-512, Keycloak 24 on; 27,500 SHA-256 before)',
    check: familyCheck(keycloakPbkdf2),
  },
  aspnet_identity_v2: {
    label: 'ASP.NET Identity v2',
    form: '<base64 of 0x00 ‖ salt ‖ key>',
    usualCost: '1,000 iterations (HMAC-SHA1)',
    check: familyCheck(aspnetIdentityV2),
  },
  aspnet_identity_v3: {
    label: 'ASP.NET Identity v3',
    form: '<base64 of 0x01 ‖ PRF ‖ iterations ‖ salt length ‖ salt ‖ key>',
    usualCost: '100,000 iterations (HMAC-SHA512, .NET 7+)',
    check: familyCheck(aspnetIdentityV3),
  },
  phpass: { label: 'phpass (WordPress, phpBB)', form: '$P$…, $H$…', usualCost: '2^13 MD5 iterations (WordPress)', check: familyCheck(phpass) },
  md5_crypt: { label: 'MD5-crypt', form: '$1$<salt>$<hash>', usualCost: '1,000 rounds (fixed)', check: familyCheck(md5Crypt) },
  sha256_crypt: { label: 'SHA256-crypt', form: '$5$[rounds=<n>$]<salt>$<hash>', usualCost: '5,000 rounds', check: familyCheck(sha256Crypt) },
  sha512_crypt: { label: 'SHA512-crypt', form: '$6$[rounds=<n>$]<salt>$<hash>', usualCost: '5,000 rounds', check: familyCheck(sha512Crypt) },
  ldap_ssha: { label: 'LDAP {SSHA}', form: '{SSHA}<base64>', usualCost: 'one SHA-1', check: familyCheck(ldapSsha) },
  ldap_ssha256: { label: 'LDAP {SSHA256}', form: '{SSHA256}<base64>', usualCost: 'one SHA-256', check: familyCheck(ldapSsha256) },
  ldap_ssha512: { label: 'LDAP {SSHA512}', form: '{SSHA512}<base64>', usualCost: 'one SHA-512', check: familyCheck(ldapSsha512) },
  ldap_smd5: { label: 'LDAP {SMD5}', form: '{SMD5}<base64>', usualCost: 'one MD5', check: familyCheck(ldapSmd5) },
  ldap_sha: { label: 'LDAP {SHA}', form: '{SHA}<base64>', usualCost: 'one SHA-1 (unsalted)', check: familyCheck(ldapSha) },
  ldap_md5: { label: 'LDAP {MD5}', form: '{MD5}<base64>', usualCost: 'one MD5 (unsalted)', check: familyCheck(ldapMd5) },
  ldap_sha256: { label: 'LDAP {SHA256}', form: '{SHA256}<base64>', usualCost: 'one SHA-256 (unsalted)', check: familyCheck(ldapSha256) },
  ldap_sha512: { label: 'LDAP {SHA512}', form: '{SHA512}<base64>', usualCost: 'one SHA-512 (unsalted)', check: familyCheck(ldapSha512) },
  salted_digest: {
    label: 'salted MD5/SHA digest (declared scheme)',
    form: '$salted-digest$… (made from a digest, its salt and the declared scheme)',
    usualCost: 'one digest',
    check: familyCheck(saltedDigest),
  },
} satisfies Record<LegacyHashFamily, FamilyEntry>;

export const legacyHashFamilies: readonly LegacyHashFamilyInfo[] = LegacyHashFamilySchema.options.map((id) => {
  const { label, form, usualCost } = familyDetails[id];
  return { id, label, form, usualCost };
});

const checks: ReadonlyArray<{ id: LegacyHashFamily; check: LegacyFamilyCheck }> = LegacyHashFamilySchema.options.map((id) => ({
  id,
  check: familyDetails[id].check,
}));

export function legacyHashFamilyLabel(family: LegacyHashFamily): string {
  return familyDetails[family].label;
}

/** The family whose form the hash has, or undefined; the form alone decides, the hash is not checked here. */
export function detectLegacyFamily(hash: string): { id: LegacyHashFamily; check: LegacyFamilyCheck } | undefined {
  return checks.find((entry) => entry.check.detect(hash));
}
