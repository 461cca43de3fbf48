import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthRejected, RecordRejected, Transient } from '../../../core-client/src/http/errors.js';
import { type RetryPolicy, backoffDelayMs, defaultRetryPolicy, withRetry } from '../../../core-client/src/http/retry.js';
import { seededRandom } from '../../support/seeded-random.js';

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalMs: 10_000 };

/** A clock that only moves when the code under test sleeps (or an operation says time passed). */
function fakeTime() {
  let nowMs = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      nowMs += ms;
    },
  };
}

const transient = (retryAfterMs?: number) => new Transient('busy', 'rateLimited', retryAfterMs, { status: 429 });
const serverError = () => new Transient('broke', 'serverError', undefined, { status: 500 });
const locked = () => new Transient('locked', 'contention', undefined, { status: 500 });

describe('backoffDelayMs', () => {
  it('is full jitter: anywhere from 0 up to the exponential ceiling, capped by maxDelay', () => {
    const random = seededRandom(42);
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      const samples = Array.from({ length: 200 }, () => backoffDelayMs(policy, attempt, undefined, random));
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...samples)).toBeLessThan(ceiling);
      // Full jitter spreads over the whole range, not just near the ceiling.
      expect(Math.min(...samples)).toBeLessThan(ceiling * 0.1);
      expect(Math.max(...samples)).toBeGreaterThan(ceiling * 0.9);
    }
  });

  it('stays within [0, ceiling) for any random value and attempt', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const delay = backoffDelayMs(policy, attempt, undefined, () => r);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        return delay >= 0 && delay <= ceiling && (ceiling === 0 || delay < ceiling);
      }),
    );
  });

  it('honours Retry-After exactly, even above maxDelay', () => {
    expect(backoffDelayMs(policy, 1, 5_000, () => 0.5)).toBe(5_000);
    expect(backoffDelayMs(policy, 3, 0, () => 0.5)).toBe(0);
  });
});

describe('withRetry', () => {
  it('retries transient errors and returns the first success', async () => {
    const time = fakeTime();
    const seen: number[] = [];
    const retries: Array<{ attempt: number; delayMs: number }> = [];
    const result = await withRetry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw transient();
        return 'done';
      },
      policy,
      { ...time, random: () => 0.5, onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }) },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 50 },
      { attempt: 2, delayMs: 100 },
    ]);
    expect(time.sleeps).toEqual([50, 100]);
  });

  it('stops after maxAttempts of failures that may be its own and rethrows the last error', async () => {
    const time = fakeTime();
    let calls = 0;
    const errors = Array.from({ length: 5 }, () => serverError());
    const outcome = withRetry(
      async () => {
        const error = errors[calls];
        calls += 1;
        throw error;
      },
      policy,
      { ...time, random: () => 0 },
    );
    await expect(outcome).rejects.toBe(errors[4]);
    expect(calls).toBe(policy.maxAttempts);
  });

  it('never uses an attempt for a push-back or a lock conflict: those are waited out until the total budget', async () => {
    const time = fakeTime();
    let calls = 0;
    const outcome = await withRetry(
      async () => {
        calls += 1;
        if (calls <= 12) throw transient(1_000);
        if (calls <= 20) throw locked();
        return 'served';
      },
      { ...policy, maxTotalMs: 60_000 },
      { ...time, random: () => 0.5 },
    );
    expect(outcome).toBe('served');
    expect(calls).toBeGreaterThan(policy.maxAttempts);
    expect(time.sleeps.slice(0, 12)).toEqual(Array.from({ length: 12 }, () => 1_000));
    // A lock conflict clears within milliseconds: its waits stay short whatever the policy's backoff.
    for (const ms of time.sleeps.slice(12)) expect(ms).toBeLessThan(250);

    const storm = fakeTime();
    const endless = transient(1_000);
    await expect(withRetry(async () => Promise.reject(endless), policy, storm)).rejects.toBe(endless);
    // The budget bounds the storm: every wait fitted within it.
    expect(storm.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(policy.maxTotalMs);
    expect(storm.sleeps.length).toBe(policy.maxTotalMs / 1_000);
  });

  it('counts the time waited as spent even when the clock does not move (no endless loop with a fake sleep)', async () => {
    let calls = 0;
    const endless = transient(1_000);
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw endless;
        },
        policy,
        { sleep: async () => undefined, now: () => 0 },
      ),
    ).rejects.toBe(endless);
    // One wait of a second each, ten of them in the 10 s budget; then it gives up.
    expect(calls).toBe(policy.maxTotalMs / 1_000 + 1);
  });

  it('does not retry errors that are not transient', async () => {
    for (const error of [new AuthRejected('no'), new RecordRejected('bad', 'bad'), new TypeError('bug')]) {
      let calls = 0;
      const outcome = withRetry(
        async () => {
          calls += 1;
          throw error;
        },
        policy,
        fakeTime(),
      );
      await expect(outcome).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  it('waits what Retry-After asks for', async () => {
    const time = fakeTime();
    let calls = 0;
    await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw transient(3_000);
        return calls;
      },
      policy,
      { ...time, random: () => 0.99 },
    );
    expect(time.sleeps).toEqual([3_000]);
  });

  it('gives up rather than wait past the total budget', async () => {
    const time = fakeTime();
    let calls = 0;
    const tooLong = transient(policy.maxTotalMs + 1);
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw tooLong;
        },
        policy,
        time,
      ),
    ).rejects.toBe(tooLong);
    expect(calls).toBe(1);
    expect(time.sleeps).toEqual([]);
  });

  it('counts the time attempts themselves take against the total budget', async () => {
    const time = fakeTime();
    let calls = 0;
    const budget: RetryPolicy = { maxAttempts: 100, baseDelayMs: 10, maxDelayMs: 10, maxTotalMs: 1_000 };
    await expect(
      withRetry(
        async () => {
          calls += 1;
          time.advance(300);
          throw transient();
        },
        budget,
        { ...time, random: () => 0.5 },
      ),
    ).rejects.toBeInstanceOf(Transient);
    // Attempts end at 300, 605, 910 and 1215 ms (each wait is 5 ms); after the fourth no wait fits in 1000 ms.
    expect(calls).toBe(4);
    expect(time.sleeps).toEqual([5, 5, 5]);
  });

  it('stops at once when aborted, without another attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    const outcome = withRetry(
      async () => {
        calls += 1;
        controller.abort(new Error('stopped by the operator'));
        throw transient();
      },
      policy,
      { ...fakeTime(), signal: controller.signal },
    );
    await expect(outcome).rejects.toBeInstanceOf(Transient);
    expect(calls).toBe(1);
  });

  it('has a sane default policy', () => {
    expect(defaultRetryPolicy.maxAttempts).toBeGreaterThan(1);
    expect(defaultRetryPolicy.maxDelayMs).toBeGreaterThanOrEqual(defaultRetryPolicy.baseDelayMs);
    expect(defaultRetryPolicy.maxTotalMs).toBeGreaterThanOrEqual(defaultRetryPolicy.maxDelayMs);
  });
});
