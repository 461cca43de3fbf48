/**
 * Failures counted per key (an email, a client, an email from a client, a connecting address) as token buckets: a key
 * may fail `capacity` times at once, and the bucket fills again at `capacity` per window, so in the long run it fails
 * at most `capacity` times a window, and once empty it may try once every `window / capacity` instead of waiting a
 * whole window out. Only decided failures take a token. A check under way holds one (so a burst cannot outrun the
 * bucket), and gives it back when it ends without a failure: checks under way make others wait for their end, never
 * refuse them.
 */

/** What a key may do now: go on; wait for the checks under way that hold its tokens; or nothing for `waitMs`. */
export type BucketState = { kind: 'free' } | { kind: 'held' } | { kind: 'empty'; waitMs: number };

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
  /** Tokens held by checks under way. */
  held: number;
  /** Attempts waiting for a check under way to end, woken (all, in order) when one does. */
  waiting: (() => void)[];
}

export class FailureBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;
  /** Tokens a millisecond. */
  readonly #rate: number;
  readonly #maxTracked: number;

  constructor(settings: { capacity: number; windowMs: number; maxTracked: number }) {
    this.#capacity = settings.capacity;
    this.#rate = settings.capacity / settings.windowMs;
    this.#maxTracked = settings.maxTracked;
  }

  /** Keys remembered now (a full bucket with nothing under way is forgotten: it says nothing). */
  get size(): number {
    return this.#buckets.size;
  }

  state(key: string, now: number): BucketState {
    const bucket = this.#current(key, now);
    if (bucket === undefined || bucket.tokens - bucket.held >= 1) return { kind: 'free' };
    if (bucket.tokens >= 1) return { kind: 'held' };
    return { kind: 'empty', waitMs: Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate)) };
  }

  /** Holds a token for a check under way; only after `state` answered `free`. */
  hold(key: string, now: number): void {
    const bucket = this.#current(key, now) ?? this.#add(key, now);
    bucket.held += 1;
  }

  /**
   * Ends a check that held a token: `failed` takes the token, `cleared` fills the bucket (the right password from
   * there), `undecided` gives it back. Wakes the attempts waiting on this key.
   */
  release(key: string, result: 'failed' | 'cleared' | 'undecided', now: number): void {
    const bucket = this.#current(key, now);
    if (bucket === undefined) return;
    bucket.held = Math.max(0, bucket.held - 1);
    if (result === 'failed') {
      bucket.tokens -= 1;
      // The most recently failing keys are forgotten last.
      this.#buckets.delete(key);
      this.#buckets.set(key, bucket);
    }
    if (result === 'cleared') bucket.tokens = this.#capacity;
    const waiting = bucket.waiting.splice(0);
    this.#forgetIfFull(key, bucket);
    for (const wake of waiting) wake();
  }

  /** A failure that held nothing (a wrong service key): takes a token now. */
  fail(key: string, now: number): void {
    this.hold(key, now);
    this.release(key, 'failed', now);
  }

  /** Resolves when a check under way on this key ends (`state` answered `held`). */
  waitForRelease(key: string, now: number): Promise<void> {
    const bucket = this.#current(key, now) ?? this.#add(key, now);
    return new Promise((resolve) => bucket.waiting.push(resolve));
  }

  /** The bucket brought up to date, or undefined when it is full with nothing under way (then it is forgotten). */
  #current(key: string, now: number): Bucket | undefined {
    const bucket = this.#buckets.get(key);
    if (bucket === undefined) return undefined;
    bucket.tokens = Math.min(this.#capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.#rate);
    bucket.at = now;
    return this.#forgetIfFull(key, bucket) ? undefined : bucket;
  }

  #forgetIfFull(key: string, bucket: Bucket): boolean {
    if (bucket.tokens < this.#capacity || bucket.held > 0 || bucket.waiting.length > 0) return false;
    this.#buckets.delete(key);
    return true;
  }

  #add(key: string, now: number): Bucket {
    if (this.#buckets.size >= this.#maxTracked) this.#makeRoom(now);
    const bucket: Bucket = { tokens: this.#capacity, at: now, held: 0, waiting: [] };
    this.#buckets.set(key, bucket);
    return bucket;
  }

  /**
   * Forgets the buckets that filled up again, then the least recently failing ones (a tenth at a time), never one a
   * check holds or an attempt waits on: a flood of made-up keys cannot grow the memory without bound.
   */
  #makeRoom(now: number): void {
    for (const key of [...this.#buckets.keys()]) this.#current(key, now);
    let excess = this.#buckets.size - this.#maxTracked + Math.ceil(this.#maxTracked / 10);
    for (const [key, bucket] of this.#buckets) {
      if (excess <= 0) break;
      if (bucket.held > 0 || bucket.waiting.length > 0) continue;
      this.#buckets.delete(key);
      excess -= 1;
    }
  }
}
