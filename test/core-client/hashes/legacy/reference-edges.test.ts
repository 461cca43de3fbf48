import { describe, expect, it } from 'vitest';
import { inspectLegacyHash, verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';

/** The edges where a family's own reference implementation refuses or accepts a hash: core-migrate does the same. */
const PASSWORD = 'correct horse battery staple';

describe('LDAP salted digests are decoded as OpenLDAP decodes them', () => {
  // passlib 1.7.4 vectors (test/fixtures/hash-vectors/legacy/passlib.json), each cut where the old decoder still read
  // it: the characters left end mid-group with their unused bits zero.
  it.each([
    ['{SSHA}EiSMMkWXEV0fLZIE6EB0YU+65XiMEQ', 'ldap_ssha'],
    ['{SSHA256}wav2++1kSeBUkiY09KzXB30lRc+Kit6OkCCa/V392gkgxBgjZMw', 'ldap_ssha256'],
    ['{SSHA512}+NWj59qZ2oQOiCgpYarulzuZb9SqdaR/DNCcGRoGjyxijrKKrRrpD4G9ByfKgAjEecAXPlpAApnMeaoTYcJWZu49xxjjXKs', 'ldap_ssha512'],
  ])('refuses %s, cut short, as malformed instead of parking it', async (hash, family) => {
    expect(inspectLegacyHash(hash)).toMatchObject({ usable: false, code: 'malformed_hash', family, reason: expect.stringContaining('padded base64') });
    expect(await verifyLegacyPassword(new Secret(PASSWORD), hash)).toMatchObject({ outcome: 'unusable', code: 'malformed_hash', family });
  });

  // OpenLDAP's lutil_b64_pton refuses input that ends without the "=" its group needs: it never verifies such a hash.
  it.each([
    ['{SMD5}qCqb4a+epOb/hY7TCGLvGyolhDA=', 'ldap_smd5'],
    ['{SSHA256}wav2++1kSeBUkiY09KzXB30lRc+Kit6OkCCa/V392gkgxBgjZMwZow==', 'ldap_ssha256'],
  ])('verifies %s as written, and refuses it with its "=" padding removed', async (hash, family) => {
    expect(await verifyLegacyPassword(new Secret(PASSWORD), hash)).toEqual({ outcome: 'match', family });
    const unpadded = hash.replace(/=+$/, '');
    expect(await verifyLegacyPassword(new Secret(PASSWORD), unpadded)).toMatchObject({ outcome: 'unusable', code: 'malformed_hash', family });
  });

  it('still reads a hash whose base64 needs no padding', async () => {
    expect(await verifyLegacyPassword(new Secret(PASSWORD), '{SSHA}UMBcMRA7bgmUXX9/TSUlV8gB8YMZQyiF')).toEqual({ outcome: 'match', family: 'ldap_ssha' });
  });
});

describe("passlib's bcrypt-sha256 cost is written without a leading zero", () => {
  // passlib 1.7.4's bcrypt_sha256.using(rounds=4) vectors, their cost written "04" and "05": passlib raises
  // ZeroPaddedRoundsError for both.
  it.each([
    '$bcrypt-sha256$v=2,t=2b,r=04$.qUEAU5vbuxIRY0ePP1P6.$WTJ7VieZBGLtFXP2HOsEiYJXp1Kpjdq',
    '$bcrypt-sha256$v=2,t=2b,r=05$.qUEAU5vbuxIRY0ePP1P6.$WTJ7VieZBGLtFXP2HOsEiYJXp1Kpjdq',
    '$bcrypt-sha256$2b,04$0XuhVOa8wSVKX9PRzxBsgO$qUod1/1RvUBBcDZd9nBktwEji4JXtPq',
    '$bcrypt-sha256$2a,05$0XuhVOa8wSVKX9PRzxBsgO$qUod1/1RvUBBcDZd9nBktwEji4JXtPq',
  ])('refuses %s as malformed', async (hash) => {
    const inspection = inspectLegacyHash(hash);
    expect(inspection).toMatchObject({ usable: false, code: 'malformed_hash', family: 'passlib_bcrypt_sha256' });
    expect(inspection.usable ? '' : inspection.reason).toContain('no leading zero');
    expect(await verifyLegacyPassword(new Secret(PASSWORD), hash)).toMatchObject({ outcome: 'unusable', family: 'passlib_bcrypt_sha256' });
  });

  it('verifies the same hashes written as passlib writes them', async () => {
    const v2 = '$bcrypt-sha256$v=2,t=2b,r=4$.qUEAU5vbuxIRY0ePP1P6.$WTJ7VieZBGLtFXP2HOsEiYJXp1Kpjdq';
    const v1 = '$bcrypt-sha256$2b,4$0XuhVOa8wSVKX9PRzxBsgO$qUod1/1RvUBBcDZd9nBktwEji4JXtPq';
    for (const hash of [v2, v1]) {
      expect(await verifyLegacyPassword(new Secret(PASSWORD), hash)).toEqual({ outcome: 'match', family: 'passlib_bcrypt_sha256' });
    }
  });
});

describe("passlib's scrypt with an empty salt", () => {
  // RFC 7914 section 12 (the scrypt paper's first vector): scrypt(P = "", S = "", N = 16, r = 1, p = 1, dkLen = 64).
  // passlib keeps 32 bytes of key, and scrypt's first 32 bytes do not depend on dkLen (PBKDF2's first block).
  const derived = Buffer.from(
    '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906',
    'hex',
  );
  const hash = `$scrypt$ln=4,r=1,p=1$$${derived.subarray(0, 32).toString('base64').replace(/=+$/, '')}`;

  it('verifies the empty password, and no other', async () => {
    expect(inspectLegacyHash(hash)).toMatchObject({ usable: true, family: 'passlib_scrypt' });
    expect(await verifyLegacyPassword(new Secret(''), hash)).toEqual({ outcome: 'match', family: 'passlib_scrypt' });
    expect(await verifyLegacyPassword(new Secret('password'), hash)).toEqual({ outcome: 'mismatch', family: 'passlib_scrypt' });
  });

  it('still refuses an empty checksum', () => {
    expect(inspectLegacyHash('$scrypt$ln=4,r=1,p=1$$')).toMatchObject({ usable: false, code: 'malformed_hash', family: 'passlib_scrypt' });
  });
});
