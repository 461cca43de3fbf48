import { describe, expect, it } from 'vitest';
import { MISSING_HASH_CONFIG_REASON, prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';
import { Secret } from '../../../core-client/src/secret.js';
import { verifyPassword } from '../../../core-client/src/hashes/verify-password.js';
import type { HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { makeVendorScryptHash } from '../../support/vendor-scrypt-maker.js';

const signerKey = Buffer.alloc(64, 7);
const config: HashConfig = { memCost: 4, rounds: 2, saltSeparator: 'Bw==', signerKey: new Secret(signerKey.toString('base64')) };
const HASH = Buffer.alloc(64, 0xfb).toString('base64'); // contains "+" and "/"
const SALT = Buffer.from([0xfb, 0xff, 0x01, 0x02, 0x03]).toString('base64'); // "+/8BAgM="

describe('vendor scrypt: building the $f_scrypt$ string', () => {
  it("joins hash, salt and the provider's parameters in the contract's order", () => {
    expect(prepareHash({ rawHash: HASH, salt: SALT, hashConfig: config })).toEqual({
      ok: true,
      family: 'vendor_scrypt',
      passwordHash: `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=Bw==`,
      hashingAlgorithm: 'vendor_scrypt',
      warnings: [],
    });
  });

  it('converts web-safe base64 to standard, adds missing padding, and says so', () => {
    const webSafeHash = HASH.replace(/\+/g, '-').replace(/\//g, '_');
    const prepared = prepareHash({ rawHash: webSafeHash, salt: SALT.replace(/=+$/, '').replace('+', '-').replace('/', '_'), hashConfig: config });
    expect(prepared).toMatchObject({ ok: true, passwordHash: `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=Bw==` });
    expect(prepared.ok && prepared.warnings).toEqual([
      'the hash was web-safe base64 and was converted to standard base64',
      'the salt was web-safe base64 and was converted to standard base64',
      'the salt lacked its "=" padding, which was added',
    ]);
  });

  it("is chosen by the record's hashingAlgorithm, and then an empty salt is refused", () => {
    expect(prepareHash({ rawHash: HASH, salt: ' ', hashingAlgorithm: ' VENDOR_SCRYPT ', hashConfig: config })).toMatchObject({
      ok: false,
      code: 'missing_salt',
    });
  });

  it('refuses a record with a salt but no hash config, saying which option to give', () => {
    expect(prepareHash({ rawHash: HASH, salt: SALT })).toEqual({ ok: false, code: 'missing_hash_config', reason: MISSING_HASH_CONFIG_REASON });
    expect(MISSING_HASH_CONFIG_REASON).toBe("vendor scrypt needs the provider's hashing parameters (--hash-config)");
  });

  it.each([
    ['a hash mixing both base64 alphabets', `${HASH.slice(0, 10)}-${HASH.slice(11)}`, SALT, 'malformed_hash', /mixes/],
    ['a hash outside base64', `${HASH.slice(0, 10)}*${HASH.slice(11)}`, SALT, 'malformed_hash', /alphabet/],
    ['a truncated hash', HASH.slice(0, 85), SALT, 'malformed_hash', /length/],
    ['a hash shorter than the signer key', HASH.slice(0, 44), SALT, 'malformed_hash', /signer key/],
    ['a salt outside base64', HASH, 'sa lt', 'invalid_salt', /alphabet/],
  ])('refuses %s', (_name, hash, salt, code, reason) => {
    const prepared = prepareHash({ rawHash: hash, salt, hashConfig: config });
    expect(prepared).toMatchObject({ ok: false, code, reason: expect.stringMatching(reason) });
    expect(prepared.ok || prepared.reason.includes(HASH.slice(0, 30))).toBe(false);
  });

  it.each([
    ['mem_cost 30 (128 GiB a check)', { ...config, memCost: 30 }, /128 · r · 2\^m with r=\d+, m=30 is .*check rounds and mem_cost/],
    ['mem_cost 0', { ...config, memCost: 0 }, /mem_cost/],
    ['rounds 0', { ...config, rounds: 0 }, /rounds/],
    ['rounds 2.5', { ...config, rounds: 2.5 }, /rounds/],
    ['a separator outside base64', { ...config, saltSeparator: 'B w' }, /base64_salt_separator/],
  ])('refuses a hash config with %s, naming the field', (_name, badConfig, reason) => {
    expect(prepareHash({ rawHash: HASH, salt: SALT, hashConfig: badConfig })).toMatchObject({
      ok: false,
      code: 'invalid_hash_config',
      reason: expect.stringMatching(reason),
    });
  });
});

describe('vendor scrypt: reading an existing $f_scrypt$ string', () => {
  const canonical = `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=Bw==`;

  it.each([
    ['m, r, s', `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=Bw==`],
    ['s, m, r', `$f_scrypt$${HASH}$${SALT}$s=Bw==$m=4$r=2`],
    ['r, s, m', `$f_scrypt$${HASH}$${SALT}$r=2$s=Bw==$m=4`],
  ])('accepts the parameters in the order %s and writes them as m, r, s', (_order, hash) => {
    expect(prepareHash({ rawHash: hash })).toMatchObject({ ok: true, family: 'vendor_scrypt', passwordHash: canonical, hashingAlgorithm: 'vendor_scrypt' });
  });

  it("keeps the hash's own parameters and warns when --hash-config disagrees", () => {
    const prepared = prepareHash({ rawHash: canonical, hashConfig: { ...config, memCost: 5 } });
    expect(prepared).toMatchObject({ ok: true, passwordHash: canonical });
    expect(prepared.ok && prepared.warnings.join(' ')).toMatch(/differ from --hash-config/);
  });

  it.each([
    ['a repeated part', `$f_scrypt$${HASH}$${SALT}$m=4$m=4$s=Bw==`],
    ['an unknown part', `$f_scrypt$${HASH}$${SALT}$m=4$r=2$x=Bw==`],
    ['a missing part', `$f_scrypt$${HASH}$${SALT}$m=4$r=2`],
    ['an eighth part', `${canonical}$`],
    ['mem_cost 0', `$f_scrypt$${HASH}$${SALT}$m=0$r=2$s=Bw==`],
    ['rounds 0', `$f_scrypt$${HASH}$${SALT}$m=4$r=0$s=Bw==`],
    ['an empty salt', `$f_scrypt$${HASH}$$m=4$r=2$s=Bw==`],
    ['an empty separator', `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=`],
  ])('refuses %s', (_name, hash) => {
    expect(prepareHash({ rawHash: hash })).toMatchObject({ ok: false, code: 'malformed_hash' });
  });
});

describe('vendor scrypt: local verification against an independent scrypt', () => {
  it('matches the right password and fails with a wrong one or a wrong signer key', async () => {
    const salt = Buffer.from('0123456789ab');
    const hash = await makeVendorScryptHash({
      password: 'correct horse',
      salt,
      saltSeparator: Buffer.from([7]),
      signerKey,
      memCost: 4,
      rounds: 2,
    });
    const prepared = prepareHash({ rawHash: hash, salt: salt.toString('base64'), hashConfig: config });
    if (!prepared.ok) throw new Error(prepared.reason);
    expect(await verifyPassword(new Secret('correct horse'), prepared.passwordHash, { signerKey: config.signerKey })).toEqual({
      ok: true,
      match: true,
      family: 'vendor_scrypt',
      warnings: [],
    });
    expect(await verifyPassword(new Secret('correct horsf'), prepared.passwordHash, { signerKey: config.signerKey })).toMatchObject({ match: false });
    const otherKey = new Secret(Buffer.alloc(64, 8).toString('base64'));
    expect(await verifyPassword(new Secret('correct horse'), prepared.passwordHash, { signerKey: otherKey })).toMatchObject({ match: false });
  });

  it('verifies rounds beyond the provider default of 8 (a core verifies them too)', async () => {
    const salt = Buffer.from('salt');
    const hash = await makeVendorScryptHash({ password: 'known', salt, saltSeparator: Buffer.from([7]), signerKey, memCost: 5, rounds: 9 });
    const prepared = prepareHash({ rawHash: `$f_scrypt$${hash}$${salt.toString('base64')}$m=5$r=9$s=Bw==` });
    if (!prepared.ok) throw new Error(prepared.reason);
    expect(await verifyPassword(new Secret('known'), prepared.passwordHash, { signerKey: config.signerKey })).toMatchObject({ ok: true, match: true });
  });

  it('warns that the core reads the password as ASCII when it is not', async () => {
    const salt = Buffer.from('salt');
    const hash = await makeVendorScryptHash({ password: 'pässword', salt, saltSeparator: Buffer.from([7]), signerKey, memCost: 3, rounds: 1 });
    const passwordHash = `$f_scrypt$${hash}$${salt.toString('base64')}$m=3$r=1$s=Bw==`;
    const result = await verifyPassword(new Secret('pässword'), passwordHash, { signerKey: config.signerKey });
    expect(result).toMatchObject({ ok: true, match: true, warnings: [expect.stringMatching(/ASCII/)] });
  });

  it('cannot check without the signer key, and says where to give it', async () => {
    expect(await verifyPassword(new Secret('x'), `$f_scrypt$${HASH}$${SALT}$m=4$r=2$s=Bw==`)).toEqual({
      ok: false,
      reason: 'checking a vendor scrypt hash needs the signer key (base64_signer_key in --hash-config)',
    });
  });
});
