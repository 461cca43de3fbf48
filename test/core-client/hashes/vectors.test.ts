import { describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { parseHashConfig, type HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';
import { verifyPassword } from '../../../core-client/src/hashes/verify-password.js';
import { loadVectors } from './vectors.js';

// Changed at the front: bcrypt ignores what follows the 72nd byte.
const wrongPassword = (password: string) => new Secret(`x${password}`);

describe.each([
  ['bcrypt', loadVectors('bcrypt')],
  ['argon2', loadVectors('argon2')],
] as const)('published %s vectors', (family, vectors) => {
  it.each(vectors.map((vector) => [`${vector.hash} (${vector.source})`, vector] as const))('%s', async (_name, vector) => {
    const prepared = prepareHash({ rawHash: vector.hash });
    expect(prepared).toMatchObject({ ok: true, family });
    if (!prepared.ok) return;
    expect(await verifyPassword(new Secret(vector.password), prepared.passwordHash)).toMatchObject({ ok: true, match: true });
    expect(await verifyPassword(wrongPassword(vector.password), prepared.passwordHash)).toMatchObject({ ok: true, match: false });
  });
});

describe('published vendor scrypt vector', () => {
  const [vector] = loadVectors('vendor-scrypt');
  if (vector === undefined) throw new Error('the vendor scrypt fixture is empty');
  const config = parseHashConfig(JSON.stringify(vector.hashConfig)) as HashConfig;

  it(`builds the contract's $f_scrypt$ string (${vector.source})`, () => {
    expect(config).not.toBeInstanceOf(Error);
    const prepared = prepareHash({ rawHash: vector.hash, salt: vector.salt ?? '', hashConfig: config });
    expect(prepared).toEqual({
      ok: true,
      family: 'vendor_scrypt',
      passwordHash: vector.expectedPasswordHash,
      hashingAlgorithm: 'vendor_scrypt',
      warnings: [],
    });
  });

  it('matches the password with the right signer key, and fails with a wrong password or a wrong signer key', async () => {
    const passwordHash = vector.expectedPasswordHash ?? '';
    const signerKey = config.signerKey;
    expect(signerKey).toBeDefined();
    expect(await verifyPassword(new Secret(vector.password), passwordHash, { signerKey })).toMatchObject({ ok: true, match: true });
    expect(await verifyPassword(wrongPassword(vector.password), passwordHash, { signerKey })).toMatchObject({ ok: true, match: false });
    const otherKey = Buffer.from(signerKey?.reveal() ?? '', 'base64');
    otherKey[0] = (otherKey[0] ?? 0) ^ 1;
    expect(await verifyPassword(new Secret(vector.password), passwordHash, { signerKey: new Secret(otherKey.toString('base64')) })).toMatchObject({
      ok: true,
      match: false,
    });
  });
});
