import { describe, expect, it } from 'vitest';
import { defaultProviderMap } from '../../../core-client/src/plan/providers.js';
import { parseHashConfig, type HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { planRecord } from '../../../core-client/src/plan/plan-record.js';
import type { SourceRecord } from '../../../core-client/src/sources/source-user.js';

const bcrypt = '$2b$04$ULkXn/xdNAh/YTDVvHd.uuB6OATQ14xNWHf7Yn0hwUsnzb5F/yhue';
const argon2 = '$argon2id$v=19$m=64,t=1,p=1$8rjE+RNjMxVBUVGQ0brL/w$GEX9oaStoBIniUK7d+4uYZSvM2nnIrKiqw2b1F1gYrM';
const vendorHash = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';
const hashConfig = parseHashConfig(
  'hash_config { algorithm: SCRYPT, base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14 }',
) as HashConfig;

const rules = { providerMap: defaultProviderMap, hashConfig };
const at = { file: '/exports/users.json', index: 7 };

function user(fields: Partial<Extract<SourceRecord, { kind: 'user' }>>): SourceRecord {
  return { kind: 'user', location: at, providers: [], ...fields };
}

describe('planRecord', () => {
  it('turns a bcrypt user into an import with the email normalised as the core does and the prefix rewritten to $2a$', () => {
    const [item, ...rest] = planRecord(user({ email: '  Ada@Example.COM ', passwordHash: bcrypt }), rules);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      kind: 'passwordImport',
      operationKey: 'I7#pw',
      email: 'ada@example.com',
      family: 'bcrypt',
      body: { email: 'ada@example.com', passwordHash: `$2a$${bcrypt.slice(4)}` },
    });
    expect(item).not.toHaveProperty('body.hashingAlgorithm');
  });

  it('keeps an Argon2 hash as it is, without hashingAlgorithm', () => {
    const [item] = planRecord(user({ email: 'a@b.io', passwordHash: argon2 }), rules);
    expect(item).toMatchObject({ kind: 'passwordImport', family: 'argon2', body: { passwordHash: argon2 } });
    expect(item).not.toHaveProperty('body.hashingAlgorithm');
  });

  it('builds the vendor scrypt string from hash, salt and the hash config, with hashingAlgorithm vendor_scrypt', () => {
    const [item] = planRecord(user({ email: 'user1@example.com', passwordHash: vendorHash, salt: '42xEC+ixf3L2lw==' }), rules);
    expect(item).toMatchObject({
      kind: 'passwordImport',
      family: 'vendor_scrypt',
      body: {
        passwordHash: `$f_scrypt$${vendorHash}$42xEC+ixf3L2lw==$m=14$r=8$s=Bw==`,
        hashingAlgorithm: 'vendor_scrypt',
      },
    });
    expect(JSON.stringify(item)).not.toContain('jxspr8Ki0RYyc');
  });

  it('rejects a vendor scrypt user when no hash config is given, naming the flag, without echoing the hash', () => {
    const [item] = planRecord(user({ email: 'u@example.com', passwordHash: vendorHash, salt: '42xEC+ixf3L2lw==' }), {
      providerMap: defaultProviderMap,
    });
    expect(item).toMatchObject({ kind: 'rejection', code: 'unusableHash', operation: 'passwordImport', email: 'u@example.com' });
    expect(item?.kind === 'rejection' && item.reason).toMatch(/hash-config/);
    expect(JSON.stringify(item)).not.toContain(vendorHash.slice(0, 20));
  });

  it('rejects a truncated bcrypt hash that a core would accept by its prefix alone', () => {
    const [item] = planRecord(user({ email: 'a@b.io', passwordHash: bcrypt.slice(0, 40) }), rules);
    expect(item).toMatchObject({ kind: 'rejection', code: 'unusableHash' });
  });

  it('rejects a hash of a family the core cannot verify as unsupported', () => {
    const [item] = planRecord(user({ email: 'a@b.io', passwordHash: 'pbkdf2_sha256$260000$salt$aGFzaA==' }), rules);
    expect(item).toMatchObject({ kind: 'rejection', code: 'unsupportedHashFamily' });
  });

  it('rejects a password user without an email, and one with an invalid or overlong email', () => {
    expect(planRecord(user({ passwordHash: bcrypt }), rules)[0]).toMatchObject({ code: 'missingEmail' });
    expect(planRecord(user({ email: 'not-an-email', passwordHash: bcrypt }), rules)[0]).toMatchObject({ code: 'invalidEmail' });
    expect(planRecord(user({ email: `${'a'.repeat(260)}@b.io`, passwordHash: bcrypt }), rules)[0]).toMatchObject({ code: 'invalidEmail' });
  });

  it('makes one sign-in-up per linked provider, mapping provider ids to short names and carrying the verified flag', () => {
    const items = planRecord(
      user({
        email: 'Grace@Example.com',
        emailVerified: true,
        providers: [
          { providerId: 'google.com', providerUserId: '1234', email: 'grace@gmail.com' },
          { providerId: 'github.com', providerUserId: '99' },
          { providerId: 'password', providerUserId: 'grace@example.com' },
        ],
      }),
      rules,
    );
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'thirdPartySignInUp',
        operationKey: 'I7#tp0',
        body: { thirdPartyId: 'google', thirdPartyUserId: '1234', email: { id: 'grace@gmail.com', isVerified: true } },
      }),
      expect.objectContaining({
        kind: 'thirdPartySignInUp',
        operationKey: 'I7#tp1',
        body: { thirdPartyId: 'github', thirdPartyUserId: '99', email: { id: 'grace@example.com', isVerified: true } },
      }),
    ]);
  });

  it('names an unmapped provider and how to map it', () => {
    const [item] = planRecord(user({ email: 'a@b.io', providers: [{ providerId: 'gc.apple.com', providerUserId: 'G:1' }] }), rules);
    expect(item).toMatchObject({ kind: 'rejection', code: 'unmappedProvider', operation: 'thirdPartySignInUp' });
    expect(item?.kind === 'rejection' && item.reason).toContain('--provider-map "gc.apple.com=');
  });

  it('honours a provider map override', () => {
    const [item] = planRecord(user({ email: 'a@b.io', providers: [{ providerId: 'gc.apple.com', providerUserId: 'G:1' }] }), {
      providerMap: { ...defaultProviderMap, 'gc.apple.com': 'gamecenter' },
    });
    expect(item).toMatchObject({ kind: 'thirdPartySignInUp', body: { thirdPartyId: 'gamecenter' } });
  });

  it('rejects an overlong provider user id', () => {
    const [item] = planRecord(user({ email: 'a@b.io', providers: [{ providerId: 'google.com', providerUserId: 'x'.repeat(257) }] }), rules);
    expect(item).toMatchObject({ kind: 'rejection', code: 'invalidProviderUser' });
  });

  it('counts a password user whose hash is missing (an Auth0 database user) as needing a reset or login-time migration', () => {
    expect(planRecord(user({ email: 'a@b.io', signsInByEmailCode: false }), rules)).toEqual([
      expect.objectContaining({ kind: 'rejection', code: 'withoutCredentials', reason: expect.stringMatching(/password reset or login-time migration/) }),
    ]);
  });

  it('names the missing email first for a record with nothing (`{}`)', () => {
    expect(planRecord(user({ providers: [] }), rules)).toEqual([
      expect.objectContaining({
        kind: 'rejection',
        code: 'missingEmail',
        reason: "the record has no email address (and neither a password hash nor a linked provider): check the export's email field and its mapping",
      }),
    ]);
  });

  it("turns a malformed record into a rejection carrying the reader's reason", () => {
    const items = planRecord({ kind: 'malformed', location: { file: 'x.csv', line: 4 }, reason: 'column 2: stray quote' }, rules);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'rejection', code: 'malformedRecord', reason: 'column 2: stray quote', operationKey: 'L4#malformedRecord' }),
    ]);
  });

  it('imports the password and links the providers of one user', () => {
    const items = planRecord(user({ email: 'a@b.io', passwordHash: argon2, providers: [{ providerId: 'facebook.com', providerUserId: 'fb1' }] }), rules);
    expect(items.map((item) => item.kind)).toEqual(['passwordImport', 'thirdPartySignInUp']);
  });
});
