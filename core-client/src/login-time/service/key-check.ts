import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Secret } from '../../secret.js';
import { FailureBuckets } from '../failure-buckets.js';

/**
 * Wrong service keys one connecting address may send: 10 at once, then one every 6 seconds. A backend holding the key
 * never meets it; a process guessing the key gets 10 tries a minute from each address (from each /64 in IPv6).
 */
export const KEY_FAILURES_PER_ADDRESS = 10;
export const KEY_FAILURE_WINDOW_SECONDS = 60;
/** Connecting addresses remembered at most. */
const MAX_TRACKED_ADDRESSES = 100_000;

/** Compares digests of both, so neither the key's length nor its first differing byte shows in the time taken. */
function sameKey(given: string, key: Secret): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(key.reveal()));
}

function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Whether a request carries the service's key: yes; no (a missing key counts as a wrong one); or not asked, as its address sent too many wrong ones. */
export type KeyVerdict = { kind: 'accepted' } | { kind: 'refused' } | { kind: 'tooManyWrongKeys'; retryAfterSeconds: number };

/**
 * The service key's check, with its own limit per connecting address (the body, which names the end user, is not
 * read before the key is accepted). An address over the limit is refused before its key is looked at, so guessing is
 * bounded, whatever key it sends; only that address is held.
 */
export class ServiceKeyCheck {
  readonly #key: Secret;
  readonly #now: () => number;
  readonly #wrongKeys = new FailureBuckets({
    capacity: KEY_FAILURES_PER_ADDRESS,
    windowMs: KEY_FAILURE_WINDOW_SECONDS * 1000,
    maxTracked: MAX_TRACKED_ADDRESSES,
  });

  constructor(key: Secret, now: () => number = Date.now) {
    this.#key = key;
    this.#now = now;
  }

  /** `address` is the connecting address as the limits compare it (ClientAddress's `limitKey`); undefined counts as one. */
  check(request: IncomingMessage, address: string | undefined): KeyVerdict {
    const now = this.#now();
    const key = address ?? 'unknown';
    const state = this.#wrongKeys.state(key, now);
    if (state.kind === 'empty') return { kind: 'tooManyWrongKeys', retryAfterSeconds: Math.ceil(state.waitMs / 1000) };
    const token = bearerToken(request);
    if (token !== undefined && sameKey(token, this.#key)) return { kind: 'accepted' };
    this.#wrongKeys.fail(key, now);
    return { kind: 'refused' };
  }
}
