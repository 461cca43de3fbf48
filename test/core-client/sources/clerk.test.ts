import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyLegacyPassword } from '../../../core-client/src/hashes/legacy/verify-legacy.js';
import { planSource, type PlanOptions, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { Secret } from '../../../core-client/src/secret.js';
import { clerkPassword } from '../../../core-client/src/sources/clerk/clerk-hashers.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { VENDOR_SCRYPT_VECTOR, vendorScryptHashString } from '../../core-double/known-hashes.js';
import { loadLegacyVectors } from '../hashes/legacy/legacy-vectors.js';
import { fixture, readAll, withTempDir } from './support.js';

// test/fixtures/exports/clerk/README.md says where each fact of the fixture comes from.
const users = fixture('clerk/users.csv');
const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const HEADER =
  'id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher';

async function planOf(path: string, options: PlanOptions = {}): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path, options)) planned.push(record);
  return planned;
}

function vector(file: 'passlib' | 'django' | 'werkzeug', prefix: string): { hash: string; password: string } {
  const found = loadLegacyVectors(file).vectors.find((candidate) => 'hash' in candidate && candidate.hash.startsWith(prefix));
  if (found === undefined || !('hash' in found)) throw new Error(`no ${file} vector ${prefix}`);
  return { hash: found.hash, password: found.password };
}

const fromAdapted = (text: string): Buffer => Buffer.from(text.replace(/\./g, '+'), 'base64');

describe('a Clerk dashboard export', () => {
  it('is detected by its header, whatever the file is named', async () => {
    expect(await detectFormat(users)).toBe('clerk');
    await withTempDir(async (dir) => {
      const unnamed = join(dir, 'export');
      await writeFile(unnamed, `${HEADER}\nuser_1,,,,a@example.com,,,,,,,,\n`);
      expect(await detectFormat(unnamed)).toBe('clerk');
    });
  });

  it('reads the old id, the primary email and whether Clerk verified it, the name, username and phone, and whether the user had TOTP (never its secret)', async () => {
    const { records, error } = await readAll(readSource(users));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(8);
    expect(records[0]).toEqual({
      kind: 'user',
      location: { file: users, line: 2 },
      sourceId: 'user_2aBcRyptAnnA01',
      system: 'clerk',
      email: 'anna@example.com',
      emailVerified: true,
      passwordHash: '$2b$04$rMxCpEUV/QReR/5PNKWHyu6y7v05voM9WJosqrBY3ZCJ7xBSpAus2',
      profile: { displayName: 'Anna Berg', username: 'anna', phoneNumber: '+14155550101', totpEnrolled: true },
      providers: [],
      signsInByEmailCode: false,
    });
    expect(records[2]).toMatchObject({ sourceId: 'user_2cPbkdf2Cara03', emailVerified: false });
    // A phone-only user signs in by the number Clerk verified; an email-only user is the plan's to judge.
    expect(records[6]).toMatchObject({ sourceId: 'user_2gPhoneGus07', phoneNumber: '+447700900123', profile: { displayName: 'Gus' } });
    expect(records[7]).toEqual({
      kind: 'user',
      location: { file: users, line: 9 },
      sourceId: 'user_2hEmailHal08',
      system: 'clerk',
      email: 'hal@example.com',
      emailVerified: true,
      providers: [],
    });
    expect(JSON.stringify(records)).not.toContain(TOTP_SECRET);
  });

  it('plans bcrypt, argon2 and scrypt_firebase as imports, the legacy ones parked, the peppered one refused naming its hasher, the phone user passwordless', async () => {
    const plan = await planOf(users);
    const kinds = plan.map((record) => record.items.map((item) => (item.kind === 'rejection' ? item.code : item.kind)));
    expect(kinds).toEqual([
      ['passwordImport'],
      ['passwordImport'],
      ['unsupportedHashFamily'],
      ['unsupportedHashFamily'],
      ['passwordImport'],
      ['unsupportedHashFamily'],
      ['passwordlessSignInUp'],
      ['passwordlessSignInUp'],
    ]);
    const pepper = plan[5]?.items[0];
    expect(pepper?.kind === 'rejection' && pepper.reason).toMatch(/^Clerk's password_hasher "bcrypt_peppered": .*pepper.*--verify-with/);
    const scrypt = plan[4]?.items[0];
    expect(scrypt?.kind === 'passwordImport' && scrypt.body).toEqual({
      email: 'eva@example.com',
      passwordHash: vendorScryptHashString(),
      hashingAlgorithm: 'vendor_scrypt',
    });
    // No signer key reaches the plan: the core is configured with it.
    expect(JSON.stringify(plan)).not.toContain(VENDOR_SCRYPT_VECTOR.signerKey);

    const parked = await planOf(users, { loginTime: true, oldSystem: 'http' });
    expect(parked.map((record) => record.items[0]?.kind)).toEqual([
      'passwordImport',
      'passwordImport',
      'loginTimeWait',
      'loginTimeWait',
      'passwordImport',
      'loginTimeWait',
      'passwordlessSignInUp',
      'loginTimeWait',
    ]);
    expect(parked[2]?.items[0]).toMatchObject({ family: 'passlib_pbkdf2_sha256' });
    expect(parked[3]?.items[0]).toMatchObject({ family: 'ldap_md5' });
    expect(parked[5]?.items[0]).toMatchObject({ oldSystem: 'http' });
    expect(JSON.stringify(parked)).not.toContain(TOTP_SECRET);
  });

  it('refuses a broken row naming its line and field, and goes on with the rest', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.csv');
      const scryptOf = (key: string) => `${VENDOR_SCRYPT_VECTOR.hash}$${VENDOR_SCRYPT_VECTOR.salt}$${key}$Bw==$8$14`;
      const rows = [
        'user_a,,,,a@example.com,,,,,,,$2b$04$rMxCpEUV/QReR/5PNKWHyu6y7v05voM9WJosqrBY3ZCJ7xBSpAus2,bcrypt',
        'user_b,,,,b@example.com,,,,,,,not-a-bcrypt-hash,bcrypt',
        ',,,,c@example.com,,,,,,,,',
        'user_d,,,,d@example.com,,,,,,,,,',
        `user_e,,,,e@example.com,,,,,,,${scryptOf(VENDOR_SCRYPT_VECTOR.signerKey)},scrypt_firebase`,
        `user_f,,,,f@example.com,,,,,,,${scryptOf('b3RoZXIta2V5')},scrypt_firebase`,
        'user_g,,,,g@example.com,,,,,,,,',
      ];
      await writeFile(path, `${HEADER}\n${rows.join('\n')}\n`);
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      expect(records.map((record) => record.kind)).toEqual(['user', 'malformed', 'malformed', 'malformed', 'user', 'malformed', 'user']);
      expect(records[1]).toEqual({
        kind: 'malformed',
        location: { file: path, line: 3, field: 'password_digest' },
        sourceId: 'user_b',
        reason: 'field "password_digest": the digest is not of the bcrypt form Clerk documents ($2a$<cost>$<salt and hash>)',
      });
      expect(records[2]).toMatchObject({ location: { line: 4, field: 'id' }, reason: 'field "id": the user id is empty' });
      expect(records[3]).toMatchObject({ location: { line: 5 }, reason: 'the row has 14 fields, the header has 13' });
      expect(records[5]).toMatchObject({
        location: { line: 7, field: 'password_digest' },
        reason: expect.stringContaining('signer key is not the one of line 6'),
      });
      expect(JSON.stringify(records)).not.toContain('b3RoZXIta2V5');
    });
  });

  it('refuses a file cut short in its last row, after the rows before it', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.csv');
      await writeFile(path, `${HEADER}\nuser_a,Ann,,,a@example.com,,a@example.com,,,,,,\nuser_b,Bo,,,b@exa`);
      const { records, error } = await readAll(readSource(path));
      expect(records.map((record) => record.kind)).toEqual(['user']);
      expect(error).toMatchObject({
        code: 'source.truncated',
        message: expect.stringContaining("line 3) has 5 of the header's 13 fields: the file looks cut short"),
      });
    });
  });

  it('refuses another system’s CSV given as Clerk’s, saying which it is', async () => {
    const { error } = await readAll(readSource(fixture('cognito/users.csv'), { format: 'clerk' }));
    expect(error).toMatchObject({
      code: 'source.wrong-format',
      setting: 'format',
      message: expect.stringContaining('a Cognito user CSV: --format cognito-csv'),
    });
  });
});

describe("Clerk's password hashers", () => {
  const check = async (password: string, hash: string | undefined) => (await verifyLegacyPassword(new Secret(password), hash ?? '')).outcome;
  const hashOf = (hasher: string, digest: string) => {
    const read = clerkPassword(hasher, digest);
    return read !== undefined && 'passwordHash' in read ? read.passwordHash : undefined;
  };

  it('writes pbkdf2_sha256 (base64 salt and hash) as passlib writes it: the same hash as passlib made', async () => {
    const passlib = vector('passlib', '$pbkdf2-sha256$1000$');
    const [, , rounds = '', salt = '', checksum = ''] = passlib.hash.split('$');
    const clerk = `pbkdf2_sha256$${rounds}$${fromAdapted(salt).toString('base64')}$${fromAdapted(checksum).toString('base64')}`;
    expect(hashOf('pbkdf2_sha256', clerk)).toBe(passlib.hash);
    expect(await check(passlib.password, hashOf('pbkdf2_sha256', clerk))).toBe('match');
  });

  it('writes pbkdf2_sha1 (text salt, hex hash) as Django writes it, and pbkdf2_sha512 (text salt, hex hash) as passlib does', async () => {
    const django = vector('django', 'pbkdf2_sha1$');
    const [, iterations = '', salt = '', key = ''] = django.hash.split('$');
    expect(hashOf('pbkdf2_sha1', `pbkdf2_sha1$${iterations}$${salt}$${Buffer.from(key, 'base64').toString('hex')}`)).toBe(django.hash);
    const werkzeug = vector('werkzeug', 'pbkdf2:sha512:1000$');
    const [method = '', textSalt = '', hex = ''] = werkzeug.hash.split('$');
    const clerk = `pbkdf2_sha512$${method.split(':')[2] ?? ''}$${textSalt}$${hex}`;
    expect(await check(werkzeug.password, hashOf('pbkdf2_sha512', clerk))).toBe('match');
    expect(await check(`${werkzeug.password}!`, hashOf('pbkdf2_sha512', clerk))).toBe('mismatch');
  });

  it("reads md5 and sha256 as the LDAP schemes of the same digests (Clerk's own examples: md5 of password, sha256 of test)", async () => {
    expect(hashOf('md5', '5f4dcc3b5aa765d61d8327deb882cf99')).toBe('{MD5}X03MO1qnZdYdgyfeuILPmQ==');
    expect(await check('password', hashOf('md5', '5f4dcc3b5aa765d61d8327deb882cf99'))).toBe('match');
    expect(await check('test', hashOf('sha256', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'))).toBe('match');
    expect(await check('test!', hashOf('sha256', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'))).toBe('mismatch');
  });

  it('keeps the forms the legacy families read as they are, and refuses a digest not of its hasher’s form', () => {
    expect(hashOf('bcrypt_sha256_django', 'bcrypt_sha256$$2b$12$abc')).toBe('bcrypt_sha256$$2b$12$abc');
    expect(hashOf('scrypt_werkzeug', 'scrypt:32768:8:1$salt$abcd')).toBe('scrypt:32768:8:1$salt$abcd');
    expect(hashOf('md5_phpass', '$P$B12345678abcdefghijklmnopqrstu')).toBe('$P$B12345678abcdefghijklmnopqrstu');
    expect(hashOf('ldap_ssha', '{SSHA}abcd')).toBe('{SSHA}abcd');
    expect(clerkPassword('sha256', 'abc')).toEqual({ malformed: expect.stringContaining('64 hexadecimal'), field: 'password_digest' });
    expect(clerkPassword('argon2i', '$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo')).toMatchObject({ field: 'password_digest' });
  });

  it.each([
    ['awscognito', /Cognito pool/],
    ['bcrypt_peppered', /pepper/],
    ['hmac_sha256_utf16_b64', /key the export does not carry/],
    ['sha256_salted', /salt order/],
    ['md5_salted', /salt order/],
    ['sha512_symfony', /Symfony/],
    ['pbkdf2_sha512_hex', /does not document/],
    ['made_up', /"made_up", which Clerk does not document/],
  ])('says why %s cannot be read', (hasher, why) => {
    expect(clerkPassword(hasher, 'whatever-digest')).toEqual({ unreadable: expect.stringMatching(why) });
  });

  it('reads no password from an empty digest, and a digest without a hasher as the hash itself says', () => {
    expect(clerkPassword('bcrypt', '')).toBeUndefined();
    expect(clerkPassword('', '$2b$04$abc')).toEqual({ passwordHash: '$2b$04$abc' });
  });
});
