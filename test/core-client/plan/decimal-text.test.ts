import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText } from '../../../core-client/src/plan/decimal-text.js';

describe('decimalText', () => {
  it('writes what String writes, at the edges of its groups of three digits and anywhere (property)', () => {
    for (const value of [0, 7, 999, 1000, 1001, 10_000, 999_999, 1_000_000, 1_000_001, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER]) {
      expect(decimalText(value)).toBe(String(value));
    }
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (value) => decimalText(value) === String(value)));
  });
});
