import { z } from 'zod';
import { FailureBuckets, type BucketState } from './failure-buckets.js';

/**
 * How many wrong passwords a login-time migration lets through before it answers "try later", each a bucket of
 * failures that fills again at its size per window (FailureBuckets): per email from one client (one end user guessing
 * at one account), per client across emails (one end user guessing at many), and per email across every client (many
 * addresses, or whoever holds the service's key and can name any client, guessing at one account). Only the first two
 * are keyed on the end user, so strangers' failures never hold back anyone else's client; the third is larger and,
 * once spent, slows an account's checks to one every `windowSeconds / maxFailuresPerEmail` rather than shutting it.
 * Defaults and bounds live here, once; docs/login-time.md ("Attempt limits and the threat model") gives the numbers.
 */
export const AttemptLimitSettingsSchema = z.object({
  maxFailuresPerEmailFromClient: z.number().int().min(1).max(1000).default(5),
  maxFailuresPerClient: z.number().int().min(1).max(100_000).default(50),
  maxFailuresPerEmail: z.number().int().min(1).max(100_000).default(20),
  windowSeconds: z.number().int().min(1).max(86_400).default(900),
  /** Keys remembered at most in each count, so a flood of made-up emails cannot grow the memory without bound. */
  maxTracked: z.number().int().min(100).max(10_000_000).default(100_000),
});
export type AttemptLimitSettings = z.infer<typeof AttemptLimitSettingsSchema>;

/** One sign-in attempt under way: end it with its result. */
export interface AttemptTicket {
  readonly keys: readonly HeldKey[];
}

interface HeldKey {
  readonly buckets: FailureBuckets;
  readonly key: string;
  /** A right password fills this bucket again (the pair's: the client proved it knows the password). */
  readonly clearedByMatch: boolean;
}

export type AttemptAdmission = { admitted: true; ticket: AttemptTicket } | { admitted: false; retryAfterSeconds: number };

/**
 * What a check decided: `failed` a wrong password or an email that is not waiting (both alike, so the limits cannot
 * tell a parked email from any other); `matched` the right password; `undecided` nothing (try later, an error).
 */
export type AttemptResult = 'failed' | 'matched' | 'undecided';

/**
 * The failure counts of one login-time migration process, kept in memory (a restart forgets them; several processes
 * count apart). An attempt goes on when every bucket it belongs to has a token no check under way holds; it waits
 * while checks under way hold them (never refused because of them); it is refused, with how long until a token comes
 * back, only when a bucket is spent by decided failures.
 */
export class AttemptLimits {
  readonly #fromClient: FailureBuckets;
  readonly #clients: FailureBuckets;
  readonly #emails: FailureBuckets;
  readonly #now: () => number;

  constructor(settings: Partial<AttemptLimitSettings> = {}, now: () => number = Date.now) {
    const parsed = AttemptLimitSettingsSchema.parse(settings);
    const windowMs = parsed.windowSeconds * 1000;
    const { maxTracked } = parsed;
    this.#fromClient = new FailureBuckets({ capacity: parsed.maxFailuresPerEmailFromClient, windowMs, maxTracked });
    this.#clients = new FailureBuckets({ capacity: parsed.maxFailuresPerClient, windowMs, maxTracked });
    this.#emails = new FailureBuckets({ capacity: parsed.maxFailuresPerEmail, windowMs, maxTracked });
    this.#now = now;
  }

  /** Keys counted now in each bucket (for a test; never which ones). */
  get tracked(): { emailsFromClients: number; clients: number; emails: number } {
    return { emailsFromClients: this.#fromClient.size, clients: this.#clients.size, emails: this.#emails.size };
  }

  /**
   * Waits for its turn and answers whether the attempt may be checked. `email` as the plan normalises it
   * (normaliseEmail), so the limit is per account, not per spelling; `client` the end user's address as the limits
   * compare it (ClientAddress's `limitKey`), or undefined when the backend did not name it: then only the email's
   * bucket counts, as the connecting address is the backend's, shared by every user.
   */
  async admit(attempt: { email: string; client: string | undefined }): Promise<AttemptAdmission> {
    const keys: HeldKey[] = [{ buckets: this.#emails, key: attempt.email, clearedByMatch: false }];
    if (attempt.client !== undefined) {
      keys.push({ buckets: this.#clients, key: attempt.client, clearedByMatch: false });
      keys.push({ buckets: this.#fromClient, key: JSON.stringify([attempt.client, attempt.email]), clearedByMatch: true });
    }
    for (;;) {
      const now = this.#now();
      const states = keys.map((held): [HeldKey, BucketState] => [held, held.buckets.state(held.key, now)]);
      const waitMs = Math.max(0, ...states.map(([, state]) => (state.kind === 'empty' ? state.waitMs : 0)));
      if (waitMs > 0) return { admitted: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
      const held = states.find(([, state]) => state.kind === 'held')?.[0];
      if (held === undefined) {
        for (const { buckets, key } of keys) buckets.hold(key, now);
        return { admitted: true, ticket: { keys } };
      }
      await held.buckets.waitForRelease(held.key, now);
    }
  }

  end(ticket: AttemptTicket, result: AttemptResult): void {
    const now = this.#now();
    for (const { buckets, key, clearedByMatch } of ticket.keys) {
      buckets.release(key, result === 'failed' ? 'failed' : result === 'matched' && clearedByMatch ? 'cleared' : 'undecided', now);
    }
  }
}
