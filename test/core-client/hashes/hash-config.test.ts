import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HashConfigError, parseHashConfig, type HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { Secret } from '../../../core-client/src/secret.js';

const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';

function expectConfig(result: HashConfig | HashConfigError): HashConfig {
  if (result instanceof HashConfigError) throw new Error(`expected a config, got: ${result.message}`);
  return result;
}

describe('parseHashConfig', () => {
  it.each([
    [
      'the console block as pasted, trailing comma included',
      `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${SIGNER_KEY},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}\n`,
    ],
    [
      'the block on one line with odd spacing',
      `hash_config{algorithm:SCRYPT ,base64_signer_key :  ${SIGNER_KEY},base64_salt_separator:Bw==,rounds:8,mem_cost:14,}`,
    ],
    ['the block without its name', `{\n algorithm: SCRYPT,\n base64_signer_key: ${SIGNER_KEY},\n base64_salt_separator: Bw==,\n rounds: 8,\n mem_cost: 14\n}`],
    ['bare lines with quoted values', `base64_signer_key: "${SIGNER_KEY}"\nbase64_salt_separator: 'Bw=='\nrounds: 8\nmem_cost: 14`],
    [
      'JSON with the same names',
      JSON.stringify({ algorithm: 'SCRYPT', base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: 8, mem_cost: 14 }),
    ],
    ['JSON with numbers as strings', JSON.stringify({ base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: '8', mem_cost: '14' })],
    [
      'JSON nested under hash_config',
      JSON.stringify({ hash_config: { base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: 8, mem_cost: 14 } }),
    ],
    [
      "the camelCase names of the provider's API",
      JSON.stringify({ hashConfig: { algorithm: 'SCRYPT', signerKey: SIGNER_KEY, saltSeparator: 'Bw==', rounds: 8, memoryCost: 14 } }),
    ],
  ])('reads %s', (_name, text) => {
    const config = expectConfig(parseHashConfig(text));
    expect({ memCost: config.memCost, rounds: config.rounds, saltSeparator: config.saltSeparator }).toEqual({
      memCost: 14,
      rounds: 8,
      saltSeparator: 'Bw==',
    });
    expect(config.signerKey).toBeInstanceOf(Secret);
    expect(config.signerKey?.reveal()).toBe(SIGNER_KEY);
  });

  it('keeps the signer key out of every printed form', () => {
    const config = expectConfig(parseHashConfig(`base64_signer_key: ${SIGNER_KEY}\nbase64_salt_separator: Bw==\nrounds: 8\nmem_cost: 14`));
    for (const printed of [JSON.stringify(config), inspect(config, { depth: 5 }), `${String(config.signerKey)}`]) {
      expect(printed).not.toContain(SIGNER_KEY.slice(0, 12));
    }
  });

  it('reads a config without a signer key (it is needed only to verify locally)', () => {
    const config = expectConfig(parseHashConfig('base64_salt_separator: Bw==, rounds: 8, mem_cost: 14'));
    expect(config.signerKey).toBeUndefined();
  });

  it('converts a web-safe separator to standard base64', () => {
    expect(expectConfig(parseHashConfig('base64_salt_separator: -_8, rounds: 1, mem_cost: 1')).saltSeparator).toBe('+/8=');
  });

  it.each([
    [
      'mem_cost 18 with rounds 8 (256 MiB a check)',
      'mem_cost: 18',
      'mem_cost',
      /r=8, m=18 is 256 MiB, above 128 MiB a check may take: check rounds and mem_cost/,
    ],
    ['rounds 99 with mem_cost 14', 'rounds: 99', 'mem_cost', /r=99, m=14 is 198 MiB, above 128 MiB/],
    ['mem_cost 0', 'mem_cost: 0', 'mem_cost', /at least 1/],
    ['rounds 0', 'rounds: 0', 'rounds', /at least 1/],
    ['rounds written as a word', 'rounds: eight', 'rounds', /whole number/],
    ['rounds with a fraction', 'rounds: 2.5', 'rounds', /whole number/],
    ['a separator outside base64', 'base64_salt_separator: B*w==', 'base64_salt_separator', /alphabet/],
    ['a signer key outside base64', 'base64_signer_key: not%base64', 'base64_signer_key', /alphabet/],
    ['another algorithm', 'algorithm: BCRYPT', 'algorithm', /SCRYPT/],
    ['an unknown setting', 'mem-cost: 14', 'mem-cost', /unknown setting/],
  ])('refuses %s, naming the field', (_name, override, field, message) => {
    const base: Record<string, string> = { base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: '8', mem_cost: '14' };
    const overriddenName = override.split(':')[0] ?? '';
    const lines = Object.entries(base)
      .filter(([name]) => name !== overriddenName)
      .map(([name, value]) => `${name}: ${value}`);
    const text = `hash_config {\n${[...lines, override].join(',\n')},\n}`;
    const result = parseHashConfig(text);
    expect(result).toBeInstanceOf(HashConfigError);
    if (!(result instanceof HashConfigError)) return;
    expect(result.field).toBe(field);
    expect(result.message).toMatch(message);
    expect(result.message).not.toContain(SIGNER_KEY.slice(0, 12));
  });

  it("takes parameters above the provider's defaults that a core verifies (rounds 9, mem_cost 15)", () => {
    expect(expectConfig(parseHashConfig('base64_salt_separator: Bw==, rounds: 9, mem_cost: 15'))).toMatchObject({ rounds: 9, memCost: 15 });
  });

  it('refuses a setting given twice', () => {
    const result = parseHashConfig('base64_salt_separator: Bw==, rounds: 8, mem_cost: 14, rounds: 8');
    expect(result instanceof HashConfigError && [result.field, result.message]).toEqual(['rounds', 'rounds appears twice in the hash config']);
    expect(result).toMatchObject({ code: 'hashConfigInvalid', kind: 'setting', setting: 'hashConfig' });
  });

  it.each([
    ['a missing separator', 'rounds: 8, mem_cost: 14', 'base64_salt_separator'],
    ['missing rounds', 'base64_salt_separator: Bw==, mem_cost: 14', 'rounds'],
    ['missing mem_cost', 'base64_salt_separator: Bw==, rounds: 8', 'mem_cost'],
  ])('refuses %s, naming the field', (_name, text, field) => {
    const result = parseHashConfig(text);
    expect(result).toBeInstanceOf(HashConfigError);
    expect(result instanceof HashConfigError && result.field).toBe(field);
    expect(result instanceof HashConfigError && result.message).toBe(`${field} is missing`);
  });

  it.each([
    ['empty text', '   '],
    ['a line that is not "name: value"', 'rounds 8'],
    ['a JSON array', '[1, 2]'],
  ])('refuses %s', (_name, text) => {
    expect(parseHashConfig(text)).toBeInstanceOf(HashConfigError);
  });
});
