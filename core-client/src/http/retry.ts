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

/**
 * Why an attempt failed, as far as a request's attempts are concerned (one rule for every request a command sends):
 * - `pushBack`: the core asked to slow down (429, 503);
 * - `contention`: its store was busy with another write (a lock; the record is fine);
 * - `unreachable`: no answer from the core itself (a lost connection, a timeout, a gateway's 502 or 504);
 * - `serverError`: any other 5xx, which may be this request's doing.
 */
export type FailureKind = 'pushBack' | 'contention' | 'unreachable' | 'serverError';

export function failureKind(error: Transient): FailureKind {
  if (error.status === 429 || error.status === 503) return 'pushBack';
  if (error.reason === 'contention') return 'contention';
  if (error.reason === 'network' || error.reason === 'timeout' || error.status === 502 || error.status === 504) return 'unreachable';
  return 'serverError';
}

/** A push-back or a busy store says nothing against the request: waiting it out never uses up one of its attempts. */
export function usesAnAttempt(kind: FailureKind): boolean {
  return kind === 'unreachable' || kind === 'serverError';
}

/**
 * A lock conflict clears as soon as the other write commits: the first retry comes within a few milliseconds, and
 * later ones wait at most a quarter of a second. A long wait would only hide from a push's controller what the core
 * can take.
 */
const CONTENTION_BASE_DELAY_MS = 10;
const CONTENTION_MAX_DELAY_MS = 250;

/**
 * How long to wait before sending again after `failuresInARow` failures, the last of kind `kind`: what Retry-After
 * asked for when the core sent one (within the client's cap), a short jittered wait for a lock conflict, otherwise
 * the policy's backoff.
 */
export function retryDelayMs(policy: RetryPolicy, kind: FailureKind, failuresInARow: number, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.max(0, retryAfterMs);
  if (kind === 'contention') return Math.floor(random() * Math.min(CONTENTION_MAX_DELAY_MS, CONTENTION_BASE_DELAY_MS * 2 ** Math.max(0, failuresInARow - 1)));
  return backoffDelayMs(policy, failuresInARow, undefined, random);
}

/** How long any command waits for a core that answers nothing useful (push-backs, errors, silence) before it gives up. */
export const DEFAULT_GIVE_UP_AFTER_MS = 5 * 60_000;

/** The policy of a command's requests outside a push's engine: the default attempts, bounded by the give-up time. */
export function commandRetryPolicy(giveUpAfterMs: number = DEFAULT_GIVE_UP_AFTER_MS): RetryPolicy {
  return Object.freeze({ ...defaultRetryPolicy, maxTotalMs: giveUpAfterMs });
}

/**
 * The same policy for a request that reports rather than insists (a pre-flight step, a feature probe): its own
 * failures are reported at once, while push-backs are still waited out within the give-up time.
 */
export function pushBacksOnly(policy: RetryPolicy | false): RetryPolicy | false {
  return policy === false ? false : Object.freeze({ ...policy, maxAttempts: 1 });
}

export interface RetryInfo {
  /** The request that just failed (1-based, every sending counted). */
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

/**
 * Runs `operation` until it succeeds, fails with a non-retryable error, runs out of attempts, or the next wait would
 * overrun `maxTotalMs`; then rethrows the last error unchanged. Only failures that may be the request's own use an
 * attempt (`usesAnAttempt`): a core that pushes back (429, 503, waited as its Retry-After asks) or whose store is
 * busy is waited out for as long as `maxTotalMs` allows. An abort stops waiting at once.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, policy: RetryPolicy, options: RetryOptions = {}): Promise<T> {
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? (() => performance.now());
  const isRetryable = options.isRetryable ?? isTransientError;
  const startedAt = now();
  // The waits asked for, as a floor of the time spent: a clock that does not move cannot wait forever.
  let waited = 0;
  let attempts = 0;

  for (let sent = 1; ; sent += 1) {
    options.signal?.throwIfAborted();
    try {
      return await operation(sent);
    } catch (error) {
      if (!isRetryable(error) || options.signal?.aborted === true) throw error;
      const kind = error instanceof Transient ? failureKind(error) : 'serverError';
      if (usesAnAttempt(kind)) attempts += 1;
      if (attempts >= policy.maxAttempts) throw error;
      const delayMs = retryDelayMs(policy, kind, sent, retryAfterOf(error), random);
      if (Math.max(now() - startedAt, waited) + delayMs > policy.maxTotalMs) throw error;
      options.onRetry?.({ attempt: sent, delayMs, error });
      waited += delayMs;
      await sleep(delayMs, options.signal);
    }
  }
}

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof Transient ? error.retryAfterMs : undefined;
}
