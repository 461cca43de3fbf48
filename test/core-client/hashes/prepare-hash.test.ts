import { describe, expect, it } from 'vitest';
import { PrefixRuleError, builtInWrapperNames, prefixRuleFromOption, type PrefixRule } from '../../../core-client/src/hashes/prefix-rules.js';
import { hashFamilies } from '../../../core-client/src/hashes/families.js';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';

const BCRYPT = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
const BCRYPT_2B = '$2b$04$cVWp4XaNU8a4v1uMRum2SO026BWLIoQMD/TXg5uZV.0P.uO8m3YEm';
const ARGON2 = '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4';
const F_SCRYPT = `$f_scrypt$${Buffer.alloc(64, 1).toString('base64')}$c2FsdA==$m=14$r=8$s=Bw==`;

function rule(option: string): PrefixRule {
  const parsed = prefixRuleFromOption(option);
  if (parsed instanceof PrefixRuleError) throw parsed;
  return parsed;
}

describe('the family list', () => {
  it("has exactly the contract's three families, each with a label and an example it accepts", () => {
    expect(hashFamilies.map((family) => family.id)).toEqual(['bcrypt', 'argon2', 'vendor_scrypt']);
    for (const family of hashFamilies) {
      expect(prepareHash({ rawHash: family.example })).toMatchObject({ ok: true, family: family.id, passwordHash: family.example });
    }
  });
});

describe('wrappers stripped by default, each by a named rule', () => {
  it.each([
    ['django bcrypt$', `bcrypt$${BCRYPT_2B}`, 'bcrypt', `$2a$${BCRYPT_2B.slice(4)}`],
    ['django argon2$', `argon2${ARGON2}`, 'argon2', ARGON2],
    ['spring {bcrypt}', `{bcrypt}${BCRYPT}`, 'bcrypt', BCRYPT],
    ['spring {argon2}', `{argon2}${ARGON2}`, 'argon2', ARGON2],
  ])('%s', (name, raw, family, passwordHash) => {
    expect(prepareHash({ rawHash: raw })).toEqual({ ok: true, family, passwordHash, warnings: [], strippedBy: name });
  });

  it("lists every built-in rule by name for the plan's counts", () => {
    expect(builtInWrapperNames).toEqual(['django bcrypt$', 'django argon2$', 'spring {bcrypt}', 'spring {argon2}']);
  });

  it('names the rule when what is left is unusable', () => {
    expect(prepareHash({ rawHash: `{bcrypt}${BCRYPT.slice(0, 40)}` })).toMatchObject({
      ok: false,
      code: 'malformed_hash',
      reason: expect.stringContaining('after stripping spring {bcrypt}'),
    });
  });
});

describe('operator prefix rules', () => {
  it('strips an exact prefix', () => {
    expect(prepareHash({ rawHash: `legacy:${BCRYPT}`, prefixRules: [rule('legacy:')] })).toMatchObject({
      ok: true,
      passwordHash: BCRYPT,
      strippedBy: 'operator prefix "legacy:"',
    });
  });

  it('strips a regular expression matched at the start only', () => {
    const byRegex = rule('re:v\\d+\\|');
    expect(prepareHash({ rawHash: `v12|${BCRYPT}`, prefixRules: [byRegex] })).toMatchObject({ ok: true, passwordHash: BCRYPT });
    expect(prepareHash({ rawHash: `xv12|${BCRYPT}`, prefixRules: [byRegex] })).toMatchObject({ ok: false });
  });

  it('runs before the built-in wrappers, and both names are kept', () => {
    expect(prepareHash({ rawHash: `app1/{bcrypt}${BCRYPT}`, prefixRules: [rule('app1/')] })).toMatchObject({
      ok: true,
      passwordHash: BCRYPT,
      strippedBy: 'operator prefix "app1/"+spring {bcrypt}',
    });
  });

  it('reads exact: as an escape for prefixes that look like the syntax', () => {
    expect(rule('exact:re:x')).toEqual({ name: 'operator prefix "re:x"', match: 're:x' });
  });

  it.each([['re:'], ['re:(unclosed'], [''], ['exact:']])('refuses the option "%s" with a typed error', (option) => {
    expect(prefixRuleFromOption(option)).toBeInstanceOf(PrefixRuleError);
    expect(prefixRuleFromOption(option)).toMatchObject({ code: 'stripPrefixInvalid', kind: 'setting', setting: 'stripPrefix' });
  });
});

describe('look-alikes are refused by name, never guessed', () => {
  it.each([
    ['Django bcrypt_sha256', `bcrypt_sha256$${BCRYPT_2B}`, /bcrypt_sha256/],
    ['Django PBKDF2', 'pbkdf2_sha256$600000$c2FsdHNhbHQ$ZHVtbXlkdW1teWR1bW15ZHVtbXk=', /PBKDF2/],
    ['passlib PBKDF2', '$pbkdf2-sha256$29000$N2bMOQeBEEJoDWGMUWqttQ$pfcPgl3sQwP7PDpFGvmkOWDB5ilUdjuC8ZvIT7CGtH4', /PBKDF2/],
    ['Django scrypt', 'scrypt$c2FsdA$16384$8$1$ZHVtbXk=', /standard scrypt/],
    ['Django salted SHA-1', 'sha1$salt$2aae6c35c94fcfb415dbe95f408b9ce91ee846ed', /SHA-1/],
    ['MD5-crypt', '$1$rasmusle$rISCgZzpwk3UhDidwXvin0', /MD5-crypt/],
    ['SHA-512-crypt', '$6$rounds=5000$usesomesillystri$D4IrlXatmP7rx3P3InaxBeoomnAihCKRVQP22JZ6EY47Wc6BkroIuUUBOov1i.S5KPgErtP/EN5mcO.ChWQW21', /SHA512-crypt/],
    ['phpass', '$P$984478476IagS59wHZvyQMArzfx58u.', /phpass/],
    ['yescrypt', '$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o.9agCG9G317fhZg9SqC.5i5rd.RhAtQ7', /yescrypt/],
    ['unsalted MD5', '5f4dcc3b5aa765d61d8327deb882cf99', /MD5/],
    ['unsalted SHA-1', '5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8', /SHA-1/],
    ['unsalted SHA-256', '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8', /SHA-2/],
    ['MySQL', '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19', /MySQL/],
    ['LDAP {SSHA} too short to hold a salt', '{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=', /the \{SSHA\} scheme/],
    ['Spring {pbkdf2}', '{pbkdf2}5d923b44a6d129f3ddf3e3c8d29412723dcbde72445e8ef6bf3b508fbf17fa4ed4d6b99ca763d8dc', /Spring Security PBKDF2/],
    ['Spring {noop}', '{noop}password', /\{noop\}/],
    ['another crypt scheme', '$sha512$abc$def', /\$sha512\$/],
    ['traditional DES crypt', 'rl.3StKT.4T8M', /DES/],
  ])('%s', (_name, raw, reason) => {
    const prepared = prepareHash({ rawHash: raw });
    expect(prepared).toMatchObject({ ok: false, code: 'unsupported_family', reason: expect.stringMatching(reason) });
    expect(prepared.ok || prepared.reason).toMatch(/password reset or login-time migration/);
    expect(prepared.ok || prepared.reason.includes(raw)).toBe(false);
  });

  it.each([
    ['Werkzeug PBKDF2', 'pbkdf2:sha256:1000$FqNxk3WjgQGeuJcnxi45-Q$f4b6db181664faaf4fa5a3ed941f2b7ab6b4a8ad1ac17b0b9af6a3e4e0a0b6f8'],
    ['ASP.NET Identity v2', 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJg=='],
    ['SHA512-crypt', '$6$rounds=5000$usesomesillystri$D4IrlXatmP7rx3P3InaxBeoomnAihCKRVQP22JZ6EY47Wc6BkroIuUUBOov1i.S5KPgErtP/EN5mcO.ChWQW21'],
    ['LDAP {SSHA}', '{SSHA}UMBcMRA7bgmUXX9/TSUlV8gB8YMZQyiF'],
  ])('names a legacy family core-migrate verifies by its label: %s', (label, raw) => {
    expect(prepareHash({ rawHash: raw })).toEqual({
      ok: false,
      code: 'unsupported_family',
      reason: `unsupported family: ${label}; the core cannot verify it — needs a password reset or login-time migration`,
    });
  });

  it('keeps the format refusal for a bare base64 that only looks like ASP.NET Identity', () => {
    expect(prepareHash({ rawHash: 'AAAAAAAAAAAAAAAAAAAAAAAA' })).toMatchObject({ ok: false, code: 'unrecognised_format' });
  });

  it('treats a leading "!" as an account without a usable password', () => {
    expect(prepareHash({ rawHash: '!Ct8nWeR1vBX4mUgzAf7nJJTSA7ExQ2Ml7OsTFRcA' })).toMatchObject({ ok: false, code: 'no_usable_password' });
  });
});

describe('everything else the entry point decides', () => {
  it('refuses an empty hash', () => {
    expect(prepareHash({ rawHash: '  ' })).toEqual({ ok: false, code: 'empty_hash', reason: 'the record has no password hash' });
  });

  it('refuses a hash longer than anything a family writes', () => {
    expect(prepareHash({ rawHash: 'a'.repeat(5000) })).toMatchObject({ ok: false, code: 'too_long' });
  });

  it('refuses what it does not recognise, pointing at --strip-prefix', () => {
    expect(prepareHash({ rawHash: 'something:else' })).toMatchObject({
      ok: false,
      code: 'unrecognised_format',
      reason: expect.stringContaining('--strip-prefix'),
    });
  });

  it('recognises a bare 64-byte base64 hash as vendor scrypt without its salt', () => {
    expect(prepareHash({ rawHash: Buffer.alloc(64, 3).toString('base64') })).toMatchObject({ ok: false, code: 'missing_salt' });
  });

  it('ignores a salt beside a BCrypt hash, with a warning', () => {
    const prepared = prepareHash({ rawHash: BCRYPT, salt: 'c2FsdA==' });
    expect(prepared).toMatchObject({ ok: true, family: 'bcrypt', warnings: [expect.stringMatching(/salt was ignored/)] });
  });

  it.each([
    ['bcrypt', BCRYPT, true],
    ['BCRYPT', BCRYPT, true],
    ['argon2id', ARGON2, true],
    ['argon2', BCRYPT, false],
    ['vendor_scrypt', BCRYPT, false],
  ])("checks the record's own algorithm %s against the hash", (hashingAlgorithm, rawHash, usable) => {
    const prepared = prepareHash({ rawHash, hashingAlgorithm });
    expect(prepared.ok).toBe(usable);
    if (!prepared.ok) expect(prepared.code).toBe('algorithm_mismatch');
  });

  it.each([
    ['md5', /"md5"/],
    ['scrypt', /ambiguous.*vendor_scrypt/],
    ['pbkdf2 with spaces and $', /that the record names/],
  ])('refuses the record algorithm %s as unsupported', (hashingAlgorithm, reason) => {
    expect(prepareHash({ rawHash: BCRYPT, hashingAlgorithm })).toMatchObject({ ok: false, code: 'unsupported_family', reason: expect.stringMatching(reason) });
  });

  it('takes a record naming the algorithm as a real core does (firebase_scrypt) as the scrypt variant', () => {
    for (const hashingAlgorithm of ['firebase_scrypt', 'FIREBASE_SCRYPT', 'vendor_scrypt']) {
      expect(prepareHash({ rawHash: F_SCRYPT, hashingAlgorithm }), hashingAlgorithm).toMatchObject({
        ok: true,
        family: 'vendor_scrypt',
        passwordHash: F_SCRYPT,
      });
    }
    expect(prepareHash({ rawHash: BCRYPT, hashingAlgorithm: 'firebase_scrypt' })).toMatchObject({ ok: false, code: 'algorithm_mismatch' });
  });

  it.each([
    ['declared as the variant', 'vendor_scrypt', F_SCRYPT.slice('$f_scrypt$'.length)],
    ['declared with the core’s name', 'firebase_scrypt', F_SCRYPT.slice('$f_scrypt$'.length)],
    ['not declared, with a leading $', undefined, F_SCRYPT.slice('$f_scrypt'.length)],
    ['not declared, with f_scrypt$', undefined, F_SCRYPT.slice(1)],
  ])('says that the $f_scrypt$ prefix is missing from a variant string %s', (_name, hashingAlgorithm, rawHash) => {
    const prepared = prepareHash({ rawHash, ...(hashingAlgorithm === undefined ? {} : { hashingAlgorithm }) });
    expect(prepared).toMatchObject({ ok: false, code: 'malformed_hash', reason: expect.stringContaining('but not its $f_scrypt$ prefix') });
  });

  it('refuses a record naming bcrypt whose hash is something else', () => {
    expect(prepareHash({ rawHash: 'not-a-hash', hashingAlgorithm: 'bcrypt' })).toMatchObject({ ok: false, code: 'malformed_hash' });
  });
});
