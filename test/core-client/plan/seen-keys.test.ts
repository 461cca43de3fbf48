import { describe, expect, it } from 'vitest';
import { SeenKeys } from '../../../core-client/src/plan/seen-keys.js';

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

  it('stays compact: well under 40 bytes a key', () => {
    const seen = new SeenKeys();
    for (let i = 0; i < 100_000; i += 1) seen.firstSeenOrRecord(`k${i}`, { position: i, source: 0 });
    expect(seen.bytesUsed / seen.size).toBeLessThan(40);
  });
});
