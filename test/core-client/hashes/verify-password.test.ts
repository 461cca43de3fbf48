import { argon2d, argon2id, bcrypt } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { HASH_COST_LIMITS } from '../../../core-client/src/hashes/cost-limits.js';
import { verifyPassword } from '../../../core-client/src/hashes/verify-password.js';
import { Secret } from '../../../core-client/src/secret.js';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';

const PASSWORD = 'Tr0ub4dor&3';
const salt = Buffer.from('0123456789abcdef');

async function normalised(hash: string): Promise<string> {
  const prepared = prepareHash({ rawHash: hash });
  if (!prepared.ok) throw new Error(prepared.reason);
  return prepared.passwordHash;
}

describe('verifyPassword against hashes made by another implementation (hash-wasm)', () => {
  it.each([
    ['argon2d', () => argon2d({ password: PASSWORD, salt, parallelism: 1, iterations: 1, memorySize: 64, hashLength: 32, outputType: 'encoded' })],
    ['argon2id', () => argon2id({ password: PASSWORD, salt, parallelism: 2, iterations: 2, memorySize: 64, hashLength: 24, outputType: 'encoded' })],
    ['bcrypt', () => bcrypt({ password: PASSWORD, salt, costFactor: 4, outputType: 'encoded' })],
  ])('%s: matches the password and nothing else', async (_family, make) => {
    const hash = await normalised(await make());
    expect(await verifyPassword(new Secret(PASSWORD), hash)).toMatchObject({ ok: true, match: true });
    expect(await verifyPassword(new Secret(`${PASSWORD}x`), hash)).toMatchObject({ ok: true, match: false });
    expect(await verifyPassword(new Secret(''), hash)).toMatchObject({ ok: true, match: false });
  });
});

describe('verifyPassword warnings and refusals', () => {
  it('warns that bcrypt ignored what follows the 72nd byte', async () => {
    const long = 'a'.repeat(80);
    const hash = await normalised(await bcrypt({ password: long.slice(0, 72), salt, costFactor: 4, outputType: 'encoded' }));
    expect(await verifyPassword(new Secret(long), hash)).toMatchObject({ ok: true, match: true, warnings: [expect.stringMatching(/72 bytes/)] });
  });

  it('refuses to check a BCrypt cost that would take minutes', async () => {
    const costly = `$2a$${HASH_COST_LIMITS.bcryptMaxCost + 1}$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW`;
    expect(await verifyPassword(new Secret('U*U'), costly)).toMatchObject({ ok: false, reason: expect.stringMatching(/BCrypt cost 17 is above 16/) });
  });

  it('refuses to check an Argon2 memory cost that would take gigabytes', async () => {
    const costly = '$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4';
    expect(await verifyPassword(new Secret('password'), costly)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/memory m=4194304 KiB is above 1048576 KiB/),
    });
  });

  it('answers with the rejection reason for a hash it cannot use', async () => {
    expect(await verifyPassword(new Secret('x'), '5f4dcc3b5aa765d61d8327deb882cf99')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/unsupported family/),
    });
  });

  it('never puts the password in its answer', async () => {
    const secretPassword = 'very-secret-password-42';
    const results = await Promise.all([
      verifyPassword(new Secret(secretPassword), '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'),
      verifyPassword(new Secret(secretPassword), 'garbage'),
      verifyPassword(new Secret(secretPassword), `$f_scrypt$${Buffer.alloc(64).toString('base64')}$c2FsdA==$m=1$r=1$s=Bw==`),
    ]);
    expect(JSON.stringify(results)).not.toContain(secretPassword);
  });
});
