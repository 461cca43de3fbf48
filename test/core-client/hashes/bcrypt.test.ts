import { describe, expect, it } from 'vitest';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';

const SALT_AND_HASH = 'usesomesillystringfore2uDLvp1Ii2e./U9C8sBjqp8I90dH6hi';

describe('BCrypt normalisation', () => {
  it.each(['2b', '2y', '2a'])("rewrites $%s$ to the contract's $2a$ without a warning", (revision) => {
    expect(prepareHash({ rawHash: `$${revision}$07$${SALT_AND_HASH}` })).toEqual({
      ok: true,
      family: 'bcrypt',
      passwordHash: `$2a$07$${SALT_AND_HASH}`,
      warnings: [],
    });
  });

  it('keeps $2x$ and warns that it marks the sign-extension bug', () => {
    const prepared = prepareHash({ rawHash: `$2x$07$${SALT_AND_HASH}` });
    expect(prepared).toMatchObject({ ok: true, family: 'bcrypt', passwordHash: `$2x$07$${SALT_AND_HASH}` });
    expect(prepared.ok && prepared.warnings.join(' ')).toMatch(/sign-extension/);
  });

  it('trims surrounding white space, as the core does', () => {
    expect(prepareHash({ rawHash: `  $2y$07$${SALT_AND_HASH}\n` })).toMatchObject({ ok: true, passwordHash: `$2a$07$${SALT_AND_HASH}` });
  });

  it.each([
    ['cost 04 is the lowest', '04', true],
    ['cost 16, the most a core checks in reasonable time', '16', true],
    ['cost 31: valid, but every login would take days', '31', false],
    ['cost 03', '03', false],
    ['cost 32', '32', false],
    ['a one-digit cost', '7', false],
    ['a three-digit cost', '007', false],
    ['a non-numeric cost', 'a7', false],
  ])('checks the cost: %s', (_name, cost, usable) => {
    expect(prepareHash({ rawHash: `$2a$${cost}$${SALT_AND_HASH}` }).ok).toBe(usable);
  });

  it.each([
    ['the unknown revision $2c$', `$2c$07$${SALT_AND_HASH}`, 'malformed_hash', /revision/],
    ['an upper-case revision', `$2A$07$${SALT_AND_HASH}`, 'malformed_hash', /form/],
    ['one character short', `$2a$07$${SALT_AND_HASH.slice(0, -1)}`, 'malformed_hash', /59 characters/],
    ['one character long', `$2a$07$${SALT_AND_HASH}u`, 'malformed_hash', /61 characters/],
    ['a character outside the alphabet', `$2a$07$${SALT_AND_HASH.replace('.', '+')}`, 'malformed_hash', /alphabet/],
    ['a salt ending in a character bcrypt never writes', `$2a$07$usesomesillystringforf2uDLvp1Ii2e./U9C8sBjqp8I90dH6hi`, 'malformed_hash', /salt character/],
    ['a hash ending in a character bcrypt never writes', `$2a$07$${SALT_AND_HASH.slice(0, -1)}j`, 'malformed_hash', /hash character/],
    ['no separator after the cost', `$2a$07${SALT_AND_HASH}`, 'malformed_hash', /form/],
    ['the original $2$ revision', `$2$07$${SALT_AND_HASH}`, 'unsupported_family', /\$2\$/],
  ])('refuses %s, naming the problem and not the hash', (_name, hash, code, reason) => {
    const prepared = prepareHash({ rawHash: hash });
    expect(prepared).toMatchObject({ ok: false, code, reason: expect.stringMatching(reason) });
    expect(prepared.ok || prepared.reason.includes(SALT_AND_HASH.slice(0, 20))).toBe(false);
  });
});
