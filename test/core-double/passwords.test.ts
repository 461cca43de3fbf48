import { describe, expect, it } from 'vitest';
import { parseVendorScryptHash, verifyPassword } from './passwords.js';
import { VENDOR_SCRYPT_VECTOR as V, argon2HashOf, bcryptHashOf, vendorScryptHashString } from './known-hashes.js';

describe('the double verifies passwords independently of core-client', () => {
  it('accepts the vendor scrypt public vector and rejects a wrong password or signer key', async () => {
    const stored = vendorScryptHashString();
    expect(await verifyPassword(V.password, stored, V.signerKey)).toBe(true);
    expect(await verifyPassword('user1passworD', stored, V.signerKey)).toBe(false);
    const otherKey = Buffer.from(V.signerKey, 'base64').reverse().toString('base64');
    expect(await verifyPassword(V.password, stored, otherKey)).toBe(false);
    expect(await verifyPassword(V.password, stored, undefined)).toBe(false);
  });

  it('reads the m/r/s parameters in any order and refuses other shapes', () => {
    const reordered = `$f_scrypt$${V.hash}$${V.salt}$s=${V.saltSeparator}$r=${V.rounds}$m=${V.memCost}`;
    expect(parseVendorScryptHash(reordered)).toEqual({
      hash: V.hash,
      salt: V.salt,
      memCost: V.memCost,
      rounds: V.rounds,
      saltSeparator: V.saltSeparator,
    });
    expect(parseVendorScryptHash(`$f_scrypt$${V.hash}$${V.salt}$m=14$r=8`)).toBeUndefined();
    expect(parseVendorScryptHash(`$f_scrypt$${V.hash}$${V.salt}$m=14$m=8$s=Bw==`)).toBeUndefined();
    expect(parseVendorScryptHash(`$f_scrypt$${V.hash}$${V.salt}$m=x$r=8$s=Bw==`)).toBeUndefined();
  });

  it.each(['2a', '2b', '2y'] as const)('verifies bcrypt hashes with the $%s$ prefix', async (prefix) => {
    const stored = await bcryptHashOf('correct horse', prefix);
    expect(await verifyPassword('correct horse', stored, undefined)).toBe(true);
    expect(await verifyPassword('wrong horse', stored, undefined)).toBe(false);
  });

  it('verifies bcrypt passwords longer than 72 bytes on their first 72, as bcrypt does', async () => {
    const long = 'x'.repeat(72);
    const stored = await bcryptHashOf(long);
    expect(await verifyPassword(`${long}and more`, stored, undefined)).toBe(true);
  });

  it.each(['argon2i', 'argon2d', 'argon2id'] as const)('verifies %s hashes', async (variant) => {
    const stored = await argon2HashOf('correct horse', variant);
    expect(await verifyPassword('correct horse', stored, undefined)).toBe(true);
    expect(await verifyPassword('wrong horse', stored, undefined)).toBe(false);
  });

  it('never matches a truncated or unknown hash', async () => {
    const stored = await bcryptHashOf('correct horse');
    expect(await verifyPassword('correct horse', stored.slice(0, 40), undefined)).toBe(false);
    expect(await verifyPassword('correct horse', 'plain-text', undefined)).toBe(false);
  });
});
