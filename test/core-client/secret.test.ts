import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Secret, isSecret } from '../../core-client/src/secret.js';

describe('Secret', () => {
  const secret = new Secret('s3cr3t-api-key-value-123');

  it('prints *** however it is turned into text', () => {
    expect(String(secret)).toBe('***');
    expect(`${secret}`).toBe('***');
    expect(JSON.stringify({ apiKey: secret })).toBe('{"apiKey":"***"}');
    expect(inspect(secret)).toBe('Secret(***)');
    expect(inspect({ nested: { secret } }, { depth: 5 })).not.toContain('s3cr3t');
    expect(new Error(`refused ${secret}`).message).toBe('refused ***');
  });

  it('gives its value only when asked, and redacts it from texts built elsewhere', () => {
    expect(secret.reveal()).toBe('s3cr3t-api-key-value-123');
    expect(secret.redact('key s3cr3t-api-key-value-123 refused twice: s3cr3t-api-key-value-123')).toBe('key *** refused twice: ***');
    expect(new Secret('').redact('nothing to hide')).toBe('nothing to hide');
    expect(new Secret('').isEmpty).toBe(true);
    expect(isSecret(secret)).toBe(true);
    expect(isSecret('s3cr3t')).toBe(false);
  });
});
