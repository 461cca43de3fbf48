import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimeOfEpochMs } from '../../../core-client/src/sources/firebase/epoch-time.js';

describe('isoTimeOfEpochMs', () => {
  it('writes what toISOString writes, for any time a Date can hold (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8.64e15 }), (ms) => {
        expect(isoTimeOfEpochMs(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('gets the edges of days, leap years and the four-digit years right', () => {
    for (const text of [
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '+010000-01-01T00:00:00.000Z',
    ]) {
      expect(isoTimeOfEpochMs(Date.parse(text))).toBe(text);
    }
  });

  it('has no answer past the range of a Date, where toISOString throws', () => {
    expect(isoTimeOfEpochMs(8.64e15 + 1)).toBeUndefined();
    expect(isoTimeOfEpochMs(1e20)).toBeUndefined();
  });
});
