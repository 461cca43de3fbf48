import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { Transient } from './errors.js';

export const RetryPolicySchema = z.object({
  /** Attempts in all, the first one included (1 = no retry). */
  maxAttempts: z.number().int().min(1),
  baseDelayMs: z.number().min(0),
  maxDelayMs: z.number().min(0),
  /** No retry starts once waiting for it would pass this much time since the first attempt began. */
  maxTotalMs: z.number().min(0),
});
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxTotalMs: 60_000,
});

/**
 * How long to wait after failed attempt number `attempt` (1-based).
 * Without Retry-After: exponential backoff with full jitter, `random() * min(maxDelay, base * 2^(attempt-1))`,
 * so many clients hit by the same burst spread out instead of coming back together.
 * With Retry-After: exactly what the core asked for, even above maxDelay — `withRetry` gives up instead when
 * the wait would overrun the total budget.
 */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.max(0, retryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryInfo {
  /** The attempt that just failed (1-based). */
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface RetryOptions {
  signal?: AbortSignal;
  /** In [0, 1); defaults to Math.random. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds, monotonic; defaults to performance.now. */
  now?: () => number;
  onRetry?: (info: RetryInfo) => void;
  /** Which errors are worth another attempt; defaults to `Transient` core errors. */
  isRetryable?: (error: unknown) => boolean;
}

export const isTransientError = (error: unknown): error is Transient => error instanceof Transient;

const realSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  await delay(ms, undefined, signal === undefined ? undefined : { signal });
};

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof Transient ? error.retryAfterMs : undefined;
}

/**
 * Runs `operation` until it succeeds, fails with a non-retryable error, runs out of attempts, or the next wait
 * would overrun `maxTotalMs`; then rethrows the last error unchanged. An abort stops waiting at once.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, policy: RetryPolicy, options: RetryOptions = {}): Promise<T> {
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? (() => performance.now());
  const isRetryable = options.isRetryable ?? isTransientError;
  const startedAt = now();

  for (let attempt = 1; ; attempt += 1) {
    options.signal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      if (!isRetryable(error) || attempt >= policy.maxAttempts || options.signal?.aborted === true) throw error;
      const delayMs = backoffDelayMs(policy, attempt, retryAfterOf(error), random);
      if (now() - startedAt + delayMs > policy.maxTotalMs) throw error;
      options.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }
}
