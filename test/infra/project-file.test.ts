import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PLAIN_KEYS, SECRET_KEYS, STACK_CONFIG_KEYS } from '../../infra/config.js';

/** The `config:` block of Pulumi.yaml: each key with its scalar attributes (type, secret, default). */
async function declaredConfig(): Promise<Map<string, Record<string, string>>> {
  const text = await readFile(new URL('../../Pulumi.yaml', import.meta.url), 'utf8');
  const block = text.slice(text.indexOf('\nconfig:\n'));
  const keys = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const line of block.split('\n').slice(2)) {
    const key = /^ {2}(\w+):$/.exec(line);
    const attribute = /^ {4}(\w+): (.*)$/.exec(line);
    if (key?.[1] !== undefined) keys.set(key[1], (current = {}));
    else if (attribute?.[1] !== undefined && current !== undefined) current[attribute[1]] = attribute[2] ?? '';
  }
  return keys;
}

describe('Pulumi.yaml', () => {
  it('declares exactly the keys the program reads', async () => {
    expect([...(await declaredConfig()).keys()].sort()).toEqual([...STACK_CONFIG_KEYS].sort());
  });

  it('marks exactly the secret keys secret, so the CLI stores them encrypted', async () => {
    const declared = await declaredConfig();
    for (const key of SECRET_KEYS) expect(declared.get(key)?.['secret'], key).toBe('true');
    for (const key of PLAIN_KEYS) expect(declared.get(key)?.['secret'], key).toBeUndefined();
  });
});
