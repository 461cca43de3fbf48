import { z } from 'zod';

/**
 * How many wrong passwords a login-time migration accepts before it answers "try later": per email (a guess at one
 * account) and per client address (one client guessing at many accounts), each within a window that starts at the
 * first failure. Defaults and bounds live here, once.
 */
export const AttemptLimitSettingsSchema = z.object({
  maxFailuresPerEmail: z.number().int().min(1).max(1000).default(5),
  maxFailuresPerClient: z.number().int().min(1).max(100_000).default(50),
  windowSeconds: z.number().int().min(1).max(86_400).default(900),
  /** Emails and clients remembered at most, so a flood of made-up emails cannot grow the memory without bound. */
  maxTracked: z.number().int().min(100).max(10_000_000).default(100_000),
});
export type AttemptLimitSettings = z.infer<typeof AttemptLimitSettingsSchema>;

interface Counter {
  failures: number;
  /** Checks under way: they count as failures until they end, so a burst of parallel guesses is bounded too. */
  inFlight: number;
  windowStart: number;
}

/** One sign-in attempt under way: end it with its result. */
export interface AttemptTicket {
  readonly email: string;
  readonly client: string;
}

export type AttemptAdmission = { admitted: true; ticket: AttemptTicket } | { admitted: false; retryAfterSeconds: number };

/** A map of counters that forgets expired windows first, then the oldest entries, when it is full. */
class CounterTable {
  readonly #counters = new Map<string, Counter>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #maxTracked: number;

  constructor(maxFailures: number, windowMs: number, maxTracked: number) {
    this.#maxFailures = maxFailures;
    this.#windowMs = windowMs;
    this.#maxTracked = maxTracked;
  }

  /** Milliseconds until the key may try again, or 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const counter = this.#current(key, now);
    if (counter === undefined || counter.failures + counter.inFlight < this.#maxFailures) return 0;
    return Math.max(1, counter.windowStart + this.#windowMs - now);
  }

  begin(key: string, now: number): void {
    const counter = this.#current(key, now) ?? this.#add(key, now);
    counter.inFlight += 1;
  }

  end(key: string, failed: boolean, now: number): void {
    const counter = this.#counters.get(key);
    if (counter === undefined) return;
    counter.inFlight = Math.max(0, counter.inFlight - 1);
    if (failed) {
      if (now - counter.windowStart >= this.#windowMs) counter.windowStart = now;
      counter.failures += 1;
    }
    if (counter.failures === 0 && counter.inFlight === 0) this.#counters.delete(key);
  }

  forget(key: string): void {
    const counter = this.#counters.get(key);
    if (counter === undefined) return;
    counter.failures = 0;
    if (counter.inFlight === 0) this.#counters.delete(key);
  }

  get size(): number {
    return this.#counters.size;
  }

  #current(key: string, now: number): Counter | undefined {
    const counter = this.#counters.get(key);
    if (counter !== undefined && counter.inFlight === 0 && now - counter.windowStart >= this.#windowMs) {
      this.#counters.delete(key);
      return undefined;
    }
    return counter;
  }

  #add(key: string, now: number): Counter {
    if (this.#counters.size >= this.#maxTracked) this.#makeRoom(now);
    const counter: Counter = { failures: 0, inFlight: 0, windowStart: now };
    this.#counters.set(key, counter);
    return counter;
  }

  #makeRoom(now: number): void {
    for (const [key, counter] of this.#counters) {
      if (counter.inFlight === 0 && now - counter.windowStart >= this.#windowMs) this.#counters.delete(key);
    }
    // Still full: the oldest entries go (a Map keeps insertion order), a tenth at a time.
    const excess = this.#counters.size - this.#maxTracked + Math.ceil(this.#maxTracked / 10);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.#counters.keys()) {
      if (dropped >= excess) break;
      this.#counters.delete(key);
      dropped += 1;
    }
  }
}

/**
 * The failure counts of one login-time migration process, kept in memory (a restart forgets them; several
 * processes count apart). An attempt is admitted only while both its email and its client are below their limits,
 * counting the attempts still under way; a wrong password counts against both, a success clears the email's count.
 */
export class AttemptLimits {
  readonly #emails: CounterTable;
  readonly #clients: CounterTable;
  readonly #now: () => number;

  constructor(settings: Partial<AttemptLimitSettings> = {}, now: () => number = Date.now) {
    const { maxFailuresPerEmail, maxFailuresPerClient, windowSeconds, maxTracked } = AttemptLimitSettingsSchema.parse(settings);
    this.#emails = new CounterTable(maxFailuresPerEmail, windowSeconds * 1000, maxTracked);
    this.#clients = new CounterTable(maxFailuresPerClient, windowSeconds * 1000, maxTracked);
    this.#now = now;
  }

  /** Emails and clients counted now (for a test or a health answer; never which ones). */
  get tracked(): { emails: number; clients: number } {
    return { emails: this.#emails.size, clients: this.#clients.size };
  }

  /** `email` as the plan normalises it (normaliseEmail), so the limit is per account, not per spelling. */
  begin(attempt: { email: string; client: string }): AttemptAdmission {
    const now = this.#now();
    const { email } = attempt;
    const waitMs = Math.max(this.#emails.blockedFor(email, now), this.#clients.blockedFor(attempt.client, now));
    if (waitMs > 0) return { admitted: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    this.#emails.begin(email, now);
    this.#clients.begin(attempt.client, now);
    return { admitted: true, ticket: { email, client: attempt.client } };
  }

  /** `wrongPassword` counts a failure; `matched` clears the email's failures; `neither` (nothing decided) only ends it. */
  end(ticket: AttemptTicket, result: 'wrongPassword' | 'matched' | 'neither'): void {
    const now = this.#now();
    this.#emails.end(ticket.email, result === 'wrongPassword', now);
    this.#clients.end(ticket.client, result === 'wrongPassword', now);
    if (result === 'matched') this.#emails.forget(ticket.email);
  }
}
