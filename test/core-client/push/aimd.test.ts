import { describe, expect, it } from 'vitest';
import { AimdController, concurrencyLimitsFor } from '../../../core-client/src/push/aimd.js';

describe('AimdController', () => {
  it('grows by one per answer until the first push-back (slow start), up to the ceiling', () => {
    const aimd = new AimdController({ initial: 2, min: 1, max: 5 });
    aimd.onSuccess();
    expect(aimd.limit).toBe(3);
    for (let i = 0; i < 10; i += 1) aimd.onSuccess();
    expect(aimd.limit).toBe(5);
  });

  it('halves on a push-back and then grows by one per full window of healthy answers', () => {
    const aimd = new AimdController({ initial: 16, min: 1, max: 64 });
    aimd.onPushBack(aimd.epoch, 0);
    expect(aimd.limit).toBe(8);
    for (let i = 0; i < 7; i += 1) aimd.onSuccess();
    expect(aimd.limit).toBe(8);
    aimd.onSuccess();
    expect(aimd.limit).toBe(9);
  });

  it('counts a storm of push-backs from requests sent before the cut only once', () => {
    const aimd = new AimdController({ initial: 32, min: 1, max: 64 });
    const sentAt = aimd.epoch;
    for (let i = 0; i < 20; i += 1) aimd.onPushBack(sentAt, 0);
    expect(aimd.limit).toBe(16);
    aimd.onPushBack(aimd.epoch, 0);
    expect(aimd.limit).toBe(8);
  });

  it('never goes below the floor', () => {
    const aimd = new AimdController({ initial: 4, min: 2, max: 8 });
    for (let i = 0; i < 10; i += 1) aimd.onPushBack(aimd.epoch, 0);
    expect(aimd.limit).toBe(2);
  });

  it('holds new requests until Retry-After has passed, keeping the latest deadline', () => {
    const aimd = new AimdController({ initial: 4, min: 1, max: 8 });
    expect(aimd.holdUntil).toBe(0);
    aimd.onPushBack(aimd.epoch, 1_000, 2_000);
    expect(aimd.holdUntil).toBe(3_000);
    aimd.onPushBack(aimd.epoch, 1_500, 500);
    expect(aimd.holdUntil).toBe(3_000);
  });

  it('refuses limits that contradict each other', () => {
    expect(() => new AimdController({ initial: 10, min: 1, max: 5 })).toThrow(/min <= initial <= max/);
  });

  it('--concurrency N starts at N and never exceeds it', () => {
    const aimd = new AimdController(concurrencyLimitsFor(3));
    expect(aimd.limit).toBe(3);
    for (let i = 0; i < 10; i += 1) aimd.onSuccess();
    expect(aimd.limit).toBe(3);
  });
});
