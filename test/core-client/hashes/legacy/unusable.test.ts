import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEGACY_COST_LIMITS } from '../../../../core-client/src/hashes/legacy/cost-limits.js';
import { legacyHashFamilyLabel, type LegacyHashFamily } from '../../../../core-client/src/hashes/legacy/registry.js';
import { inspectLegacyHash, verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { loadLegacyVectors } from './legacy-vectors.js';

// ASP.NET Identity blobs have no prefix: with a character outside base64 they are of no family (their own cases below).
const made = (['django', 'werkzeug', 'passlib', 'crypt', 'published'] as const)
  .flatMap((file) => loadLegacyVectors(file).vectors)
  .flatMap((vector) => ('hash' in vector && vector.expect === 'match' && !vector.family.startsWith('aspnet') ? [vector] : []))
  .map((vector) => ({ family: vector.family, password: vector.password, hash: vector.hash }));

describe('a corrupted hash is unusable, with a reason that names the family and holds neither hash nor password', () => {
  it.each(made.map((vector, index) => ({ name: `${index}: ${vector.family}`, ...vector })))('$name', async ({ hash, password, family }) => {
    const corrupted = `${hash.slice(0, -1)}!`;
    const outcome = await verifyLegacyPassword(new Secret(password), corrupted);
    expect(outcome).toMatchObject({ outcome: 'unusable', code: 'malformed_hash', family });
    if (outcome.outcome !== 'unusable') return;
    expect(outcome.reason.toLowerCase()).toContain(legacyHashFamilyLabel(family).split(' ')[0]?.toLowerCase());
    expect(outcome.reason).not.toContain(corrupted.slice(-12));
    expect(outcome.reason).not.toContain(password);
  });

  it.each([
    ['a truncated ASP.NET Identity v2 blob', 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggE=', 'aspnet_identity_v2'],
    ['an ASP.NET Identity v3 blob with an unknown PRF', 'AQAAAAkAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4B6pZWND6zgESBuWiHw', 'aspnet_identity_v3'],
    ['a Werkzeug hash without iterations', 'pbkdf2:sha256$abcdefgh$' + 'ab'.repeat(32), 'werkzeug_pbkdf2'],
    ['a Werkzeug hash of an unknown digest', 'pbkdf2:whirlpool:1000$abcdefgh$' + 'ab'.repeat(32), 'werkzeug_pbkdf2'],
    ['a Spring {pbkdf2} of another salt length', '{pbkdf2}' + 'ab'.repeat(44), 'spring_pbkdf2'],
    ['a phpass count below 2^7', '$P$4IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', 'phpass'],
    ['an scrypt N that is not a power of two', 'scrypt:1000:8:1$salt$' + 'ab'.repeat(64), 'werkzeug_scrypt'],
    ['a SHA-crypt rounds below 1000', '$6$rounds=999$salt$' + 'a'.repeat(86), 'sha512_crypt'],
    ['a Keycloak key of an odd length', '$keycloak-pbkdf2-sha256$27500$c2FsdHNhbHRzYWx0c2FsdA==$' + Buffer.alloc(20).toString('base64'), 'keycloak_pbkdf2'],
  ] as const)('%s', async (_name, hash, family) => {
    const outcome = await verifyLegacyPassword(new Secret('my password'), hash);
    expect(outcome).toMatchObject({ outcome: 'unusable', family });
    expect(inspectLegacyHash(hash)).toMatchObject({ usable: false, family });
  });

  it.each([
    ['', 'empty_hash'],
    ['x'.repeat(300), 'too_long'],
    ['$2a$10$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui', 'unrecognised_format'],
    ['5f4dcc3b5aa765d61d8327deb882cf99', 'unrecognised_format'],
    ["scrypt$salt$16384$8$1$Django's layout", 'unrecognised_format'],
  ] as const)('%s… is %s, with no family', async (hash, code) => {
    const outcome = await verifyLegacyPassword(new Secret('password'), hash);
    expect(outcome).toEqual({ outcome: 'unusable', code, reason: expect.any(String) });
  });
});

/** Each of these would run for minutes to years if it were computed: the test's time limit is the proof it is not. */
describe('a hash beyond the cost limits is refused before any work', () => {
  const over = {
    django_pbkdf2_sha256: 'pbkdf2_sha256$999999999999$salt$' + Buffer.alloc(32).toString('base64'),
    werkzeug_pbkdf2: `pbkdf2:sha512:${LEGACY_COST_LIMITS.pbkdf2MaxIterations + 1}$salt$` + 'ab'.repeat(64),
    werkzeug_scrypt: 'scrypt:1073741824:8:1$salt$' + 'ab'.repeat(64),
    passlib_pbkdf2_sha256: '$pbkdf2-sha256$4000000000$c2FsdA$' + Buffer.alloc(32).toString('base64').replace(/=+$/, '').replace(/\+/g, '.'),
    passlib_scrypt: '$scrypt$ln=20,r=64,p=1$c2FsdHNhbHQ$' + Buffer.alloc(32).toString('base64').replace(/=+$/, ''),
    passlib_bcrypt_sha256: '$bcrypt-sha256$v=2,t=2b,r=31$j9ELiPSp7.8BD9.nVPlb3u$DCk.E.bTzzOaquj94L4RMsNh7fYFzyC',
    django_bcrypt_sha256: 'bcrypt_sha256$$2b$31$stVy2/FqGvwc30/tiPu/9erUV3lAZjDWZerUStqFa.6K5xMJ1Gt1e',
    keycloak_pbkdf2: '$keycloak-pbkdf2-sha512$2000000000$c2FsdHNhbHRzYWx0c2FsdA==$' + Buffer.alloc(64).toString('base64'),
    aspnet_identity_v3: Buffer.concat([Buffer.from([1, 0, 0, 0, 2, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 16]), Buffer.alloc(48)]).toString('base64'),
    sha512_crypt: '$6$rounds=999999999$salt$' + 'a'.repeat(86),
    sha256_crypt: `$5$rounds=${LEGACY_COST_LIMITS.shaCryptMaxRounds + 1}$salt$` + 'a'.repeat(43),
    phpass: '$P$S' + 'abcdefgh' + 'a'.repeat(22),
  } satisfies Partial<Record<LegacyHashFamily, string>>;

  it.each(Object.entries(over))('%s', async (family, hash) => {
    const outcome = await verifyLegacyPassword(new Secret('password'), hash);
    expect(outcome).toMatchObject({ outcome: 'unusable', code: 'cost_too_high', family, reason: expect.stringMatching(/above/) });
    expect(inspectLegacyHash(hash)).toMatchObject({ usable: false, code: 'cost_too_high', family });
  });
});

describe('whatever the text, a check answers with data and never throws', () => {
  const prefixes = [
    'pbkdf2_sha256$',
    'bcrypt_sha256$',
    'pbkdf2:sha256:',
    'scrypt:',
    '$pbkdf2-sha256$',
    '$bcrypt-sha256$',
    '$scrypt$',
    '{pbkdf2}',
    '{sha256}',
    '$keycloak-pbkdf2$',
    'AQAAAA',
    'AAAB',
    '$P$',
    '$1$',
    '$5$',
    '$6$rounds=',
    '{SSHA}',
    '{MD5}',
    '$salted-digest$sha1$',
  ];
  it('for hashes that begin like a family and go on at random', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...prefixes), fc.string({ maxLength: 80 }), async (prefix, rest) => {
        const outcome = await verifyLegacyPassword(new Secret('password'), prefix + rest);
        expect(['match', 'mismatch', 'unusable']).toContain(outcome.outcome);
      }),
      { numRuns: 300 },
    );
  });
});
