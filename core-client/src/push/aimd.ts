import { z } from 'zod';

export const ConcurrencyLimitsSchema = z
  .object({
    initial: z.number().int().positive(),
    min: z.number().int().positive(),
    max: z.number().int().positive(),
  })
  .refine((limits) => limits.min <= limits.initial && limits.initial <= limits.max, {
    message: 'concurrency limits must satisfy min <= initial <= max',
  });
export type ConcurrencyLimits = z.infer<typeof ConcurrencyLimitsSchema>;

/**
 * Sized for a core on the same network: enough requests in flight to hide a few milliseconds of round trip, few
 * enough that a single core is not flooded before it can push back. `--concurrency N` replaces the ceiling.
 */
export const defaultConcurrencyLimits: ConcurrencyLimits = { initial: 32, min: 1, max: 64 };

/** The limits `--concurrency N` stands for: start at N (a deliberate choice), never exceed it, still back off. */
export function concurrencyLimitsFor(requested: number): ConcurrencyLimits {
  return { initial: requested, min: 1, max: requested };
}

/**
 * Additive-increase, multiplicative-decrease over the number of requests in flight, as TCP does with its window.
 * Pure: the caller says when an answer was healthy or pushed back and what time it is.
 *
 * - Healthy answers grow the limit by one per full window of answers (`limit` healthy answers in a row). Until the first
 *   push-back it grows by one per answer instead (slow start), so a fast core is reached in a few round trips.
 * - A push-back (429, 5xx, a dropped connection) halves the limit, once per window: answers to requests that were
 *   already in flight when the limit was cut carry an older epoch and are not counted again, so one storm of 429s
 *   does not collapse the limit to its floor.
 * - Retry-After holds every new request until that time.
 */
export class AimdController {
  readonly #limits: ConcurrencyLimits;
  #window: number;
  #epoch = 0;
  #slowStart = true;
  #holdUntil = 0;
  #healthySinceGrowth = 0;

  constructor(limits: ConcurrencyLimits = defaultConcurrencyLimits) {
    this.#limits = ConcurrencyLimitsSchema.parse(limits);
    this.#window = limits.initial;
  }

  /** How many requests may be in flight now. */
  get limit(): number {
    return this.#window;
  }

  /** Stamp a request with this when it is sent; hand it back with its answer. */
  get epoch(): number {
    return this.#epoch;
  }

  /** No new request should start before this time (ms, same clock as `now` given to `onPushBack`). */
  get holdUntil(): number {
    return this.#holdUntil;
  }

  onSuccess(): void {
    this.#healthySinceGrowth += 1;
    if (this.#slowStart || this.#healthySinceGrowth >= this.#window) {
      this.#window = Math.min(this.#limits.max, this.#window + 1);
      this.#healthySinceGrowth = 0;
    }
  }

  onPushBack(sentAtEpoch: number, now: number, retryAfterMs?: number): void {
    if (retryAfterMs !== undefined && retryAfterMs > 0) {
      this.#holdUntil = Math.max(this.#holdUntil, now + retryAfterMs);
    }
    this.#slowStart = false;
    if (sentAtEpoch < this.#epoch) return;
    this.#window = Math.max(this.#limits.min, Math.floor(this.#window / 2));
    this.#healthySinceGrowth = 0;
    this.#epoch += 1;
  }
}
