import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashRejectionCodeSchema } from '../../../core-client/src/hashes/families.js';
import { Secret } from '../../../core-client/src/secret.js';
import { prepareHash, type PrepareHashInput } from '../../../core-client/src/hashes/prepare-hash.js';
import type { HashConfig } from '../../../core-client/src/hashes/hash-config.js';

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const config: HashConfig = { memCost: 14, rounds: 8, saltSeparator: 'Bw==', signerKey: new Secret(Buffer.alloc(64, 1).toString('base64')) };

const fromAlphabet = (alphabet: string, length: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((chars) => chars.join(''));
const base64Of = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max, size: 'max' }).map((bytes) => Buffer.from(bytes).toString('base64'));

/** Salts end in a character whose spare bits are zero ('.Oeu'), hashes in one of every fourth: mostly valid, sometimes not. */
const bcryptTail = fc.oneof(
  fc
    .tuple(fromAlphabet(BCRYPT_ALPHABET, 21), fc.constantFrom(...'.Oeu'), fromAlphabet(BCRYPT_ALPHABET, 30), fc.constantFrom(...'.CGKOSWaeimquy26'))
    .map((parts) => parts.join('')),
  fromAlphabet(BCRYPT_ALPHABET, 53),
);
const bcryptLike = fc
  .tuple(fc.constantFrom('a', 'b', 'x', 'y', 'c', ''), fc.integer({ min: 0, max: 40 }), bcryptTail)
  .map(([minor, cost, rest]) => `$2${minor}$${String(cost).padStart(2, '0')}$${rest}`);

const argon2Like = fc
  .record({
    variant: fc.constantFrom('argon2id', 'argon2d', 'argon2i', 'argon2ds'),
    version: fc.constantFrom('v=19$', 'v=16$', '', 'v=18$'),
    m: fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.integer({ min: 64, max: 4096 })),
    t: fc.integer({ min: 0, max: 5 }),
    p: fc.integer({ min: 0, max: 9 }),
    salt: base64Of(0, 40),
    hash: base64Of(0, 70),
    unpad: fc.boolean(),
  })
  .map(({ variant, version, m, t, p, salt, hash, unpad }) => {
    const strip = (text: string) => (unpad ? text.replace(/=+$/, '') : text);
    return `$${variant}$${version}m=${m},t=${t},p=${p}$${strip(salt)}$${strip(hash)}`;
  });

const scryptParts = fc.record({
  hash: fc.oneof(base64Of(64, 64), base64Of(1, 80)),
  salt: base64Of(0, 20),
  m: fc.integer({ min: 0, max: 16 }),
  r: fc.integer({ min: 0, max: 9 }),
  webSafe: fc.boolean(),
});
const fScryptLike = fc.tuple(scryptParts, fc.constantFrom([0, 1, 2], [2, 0, 1], [1, 2, 0])).map(([parts, order]) => {
  const named = [`m=${parts.m}`, `r=${parts.r}`, 's=Bw=='];
  return `$f_scrypt$${parts.hash}$${parts.salt}$${order.map((index) => named[index]).join('$')}`;
});

/** The built-in wrappers, and look-alikes that must be refused. */
const WRAPPERS = ['', 'bcrypt$', 'argon2', '{bcrypt}', '{argon2}', 'bcrypt_sha256$', 'pbkdf2_sha256$', '{SSHA}', '!', '$2', '$argon2id$', '$f_scrypt$'];
const wrapped = (inner: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom(...WRAPPERS), inner).map(([wrapper, hash]) => wrapper + hash);

const anyHashLike = wrapped(fc.oneof(bcryptLike, argon2Like, fScryptLike, base64Of(64, 64), base64Of(0, 90)));

const truncations = anyHashLike.chain((hash) => fc.integer({ min: 0, max: hash.length }).map((end) => hash.slice(0, end)));

const inputs: fc.Arbitrary<PrepareHashInput> = fc.record(
  {
    rawHash: fc.oneof(
      { arbitrary: anyHashLike, weight: 6 },
      { arbitrary: truncations, weight: 2 },
      { arbitrary: fc.string(), weight: 1 },
      { arbitrary: fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes).toString('latin1')), weight: 1 },
    ),
    salt: fc.oneof(fc.constant(''), base64Of(1, 16), fc.string({ maxLength: 10 })),
    hashingAlgorithm: fc.constantFrom('vendor_scrypt', 'bcrypt', 'argon2', 'scrypt', 'md5', '', ' Vendor_Scrypt '),
    hashConfig: fc.constantFrom(config, { ...config, memCost: 99 }, { ...config, saltSeparator: '*' }),
  },
  { requiredKeys: ['rawHash'] },
);

describe('prepareHash properties', () => {
  it('never throws: every input gives a usable hash or a typed rejection with a reason that does not echo it', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const result = prepareHash(input);
        if (result.ok) {
          expect(result.passwordHash.length).toBeGreaterThan(0);
          return;
        }
        expect(HashRejectionCodeSchema.options).toContain(result.code);
        expect(result.reason.length).toBeGreaterThan(10);
        const raw = input.rawHash.trim();
        if (raw.length >= 16) expect(result.reason).not.toContain(raw);
      }),
      { numRuns: 3000 },
    );
  });

  it('is idempotent: a normalised hash normalises to itself, in the same family', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const first = prepareHash(input);
        if (!first.ok) return;
        const second = prepareHash({
          rawHash: first.passwordHash,
          ...(first.hashingAlgorithm !== undefined && { hashingAlgorithm: first.hashingAlgorithm }),
        });
        expect(second).toMatchObject({ ok: true, family: first.family, passwordHash: first.passwordHash });
      }),
      { numRuns: 3000 },
    );
  });

  it('produces usable hashes often enough for the idempotence property to mean something', () => {
    const samples = fc.sample(inputs, { numRuns: 2000, seed: 42 });
    const families = new Set(samples.map((input) => prepareHash(input)).flatMap((result) => (result.ok ? [result.family] : [])));
    expect([...families].sort()).toEqual(['argon2', 'bcrypt', 'vendor_scrypt']);
  });

  it('never throws for any text behind any wrapper, built-in or refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...WRAPPERS), fc.string(), (wrapper, rest) => {
        expect(typeof prepareHash({ rawHash: wrapper + rest }).ok).toBe('boolean');
      }),
    );
  });
});
