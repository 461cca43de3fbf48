import { describe, expect, it } from 'vitest';
import { MAX_KEY_POSITION, SeenKeys } from '../../core-client/src/seen-keys.js';

describe('SeenKeys', () => {
  it('answers where a key was first seen, across growth of the table', () => {
    const seen = new SeenKeys(4);
    for (let i = 0; i < 50_000; i += 1) {
      expect(seen.firstSeenOrRecord(`user${i}@example.com`, { position: i + 1, source: i % 2 })).toBeUndefined();
    }
    expect(seen.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) {
      expect(seen.firstSeenOrRecord(`user${i}@example.com`, { position: 999_999, source: 0 })).toEqual({ position: i + 1, source: i % 2 });
    }
    expect(seen.positionOf('nobody@example.com')).toBeUndefined();
    expect(seen.size).toBe(50_000);
  });

  it('keeps the latest position for last-wins', () => {
    const seen = new SeenKeys();
    seen.recordLatest('a@b.io', { position: 1, source: 0 });
    seen.recordLatest('a@b.io', { position: 9, source: 1 });
    expect(seen.positionOf('a@b.io')).toEqual({ position: 9, source: 1 });
    expect(seen.size).toBe(1);
  });

  it('stays compact at every size: at most 12 bytes a slot and 85 % full, never below 68 % once grown', () => {
    const seen = new SeenKeys();
    for (let i = 0; i < 300_000; i += 1) {
      seen.firstSeenOrRecord(`k${i}`, { position: i, source: 0 });
      if (i % 10_007 === 0 && i > 100_000) expect(seen.bytesUsed / seen.size).toBeLessThan(12 / 0.67);
    }
    expect(seen.bytesUsed / seen.size).toBeGreaterThanOrEqual(12 / 0.86);
  });

  it('keeps the largest position and the second file apart, and refuses what does not fit', () => {
    const seen = new SeenKeys();
    expect(seen.firstSeenOrRecord('a', { position: MAX_KEY_POSITION, source: 1 })).toBeUndefined();
    expect(seen.positionOf('a')).toEqual({ position: MAX_KEY_POSITION, source: 1 });
    expect(() => seen.recordLatest('b', { position: MAX_KEY_POSITION + 1, source: 0 })).toThrow(RangeError);
    expect(() => seen.recordLatest('b', { position: 1, source: 2 })).toThrow(RangeError);
  });
});
