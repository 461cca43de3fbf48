import { describe, expect, it } from 'vitest';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';

const SALT = 'c29tZXNhbHQ';
const DIGEST = 'nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4';
const encoded = (head: string, salt = SALT, digest = DIGEST) => `${head}$${salt}$${digest}`;

describe('Argon2 normalisation', () => {
  it.each(['argon2id', 'argon2d'])('accepts the contract variant %s unchanged, without warnings', (variant) => {
    const hash = encoded(`$${variant}$v=19$m=256,t=2,p=1`);
    expect(prepareHash({ rawHash: hash })).toEqual({ ok: true, family: 'argon2', passwordHash: hash, warnings: [] });
  });

  it('accepts argon2i with a warning that the core may refuse it', () => {
    const prepared = prepareHash({ rawHash: encoded('$argon2i$v=19$m=256,t=2,p=1') });
    expect(prepared).toMatchObject({ ok: true, family: 'argon2' });
    expect(prepared.ok && prepared.warnings.join(' ')).toMatch(/argon2i.*may refuse/);
  });

  it('writes out v=16 when the version is missing, as the reference implementation assumes', () => {
    const prepared = prepareHash({ rawHash: encoded('$argon2id$m=256,t=2,p=1') });
    expect(prepared).toMatchObject({ ok: true, passwordHash: encoded('$argon2id$v=16$m=256,t=2,p=1') });
    expect(prepared.ok && prepared.warnings.join(' ')).toMatch(/v=16/);
  });

  it('removes "=" padding from the salt and hash, with a warning', () => {
    const prepared = prepareHash({ rawHash: encoded('$argon2id$v=19$m=256,t=2,p=1', `${SALT}=`, `${DIGEST}=`) });
    expect(prepared).toMatchObject({ ok: true, passwordHash: encoded('$argon2id$v=19$m=256,t=2,p=1') });
    expect(prepared.ok && prepared.warnings.length).toBe(2);
  });

  it.each([
    ['the variant argon2ds', encoded('$argon2ds$v=19$m=256,t=2,p=1'), 'unsupported_family'],
    ['version 18', encoded('$argon2id$v=18$m=256,t=2,p=1'), 'malformed_hash'],
    ['memory below 8 × p', encoded('$argon2id$v=19$m=15,t=2,p=2'), 'malformed_hash'],
    ['memory above 2^32 - 1', encoded('$argon2id$v=19$m=4294967296,t=2,p=1'), 'malformed_hash'],
    ['zero iterations', encoded('$argon2id$v=19$m=256,t=0,p=1'), 'malformed_hash'],
    ['zero parallelism', encoded('$argon2id$v=19$m=256,t=2,p=0'), 'malformed_hash'],
    ['parallelism above 2^24 - 1', encoded('$argon2id$v=19$m=4294967295,t=2,p=16777216'), 'malformed_hash'],
    ['a leading zero', encoded('$argon2id$v=19$m=0256,t=2,p=1'), 'malformed_hash'],
    ['parameters out of order', encoded('$argon2id$v=19$t=2,m=256,p=1'), 'malformed_hash'],
    ['a missing parameter', encoded('$argon2id$v=19$m=256,t=2'), 'malformed_hash'],
    ['a repeated parameter', encoded('$argon2id$v=19$m=256,m=256,p=1'), 'malformed_hash'],
    ['a keyid parameter', encoded('$argon2id$v=19$m=256,t=2,p=1,keyid=AAAA'), 'malformed_hash'],
    ['a salt under 8 bytes', encoded('$argon2id$v=19$m=256,t=2,p=1', 'c29tZXNh'), 'malformed_hash'],
    ['a hash truncated to 8 bytes', encoded('$argon2id$v=19$m=256,t=2,p=1', SALT, 'nf65EOgLrQM'), 'malformed_hash'],
    ['a salt outside base64', encoded('$argon2id$v=19$m=256,t=2,p=1', 'c29tZXNh!HQ'), 'malformed_hash'],
    ['a hash with an impossible base64 length', encoded('$argon2id$v=19$m=256,t=2,p=1', SALT, `${DIGEST}AA`), 'malformed_hash'],
    ['a missing hash part', `$argon2id$v=19$m=256,t=2,p=1$${SALT}`, 'malformed_hash'],
    ['an extra part', `${encoded('$argon2id$v=19$m=256,t=2,p=1')}$x`, 'malformed_hash'],
  ])('refuses %s', (_name, hash, code) => {
    const prepared = prepareHash({ rawHash: hash });
    expect(prepared).toMatchObject({ ok: false, code });
    expect(prepared.ok || prepared.reason.includes(DIGEST)).toBe(false);
  });
});
