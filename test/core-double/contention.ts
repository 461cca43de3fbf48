import { CorePaths } from '../../core-client/src/contract/names.js';
import { isJsonObject } from './answers.js';

/**
 * A store that locks, as the in-memory core's (core-behaviour.md, "Under concurrency"; the figures below were
 * measured on a real in-memory core, `npm run bench -- locking`, docs/performance.md):
 * - A write arriving with k requests in flight (itself included) loses a lock conflict with probability 0 alone,
 *   `atTwo` at 2 and `atFour` at 4 (between them 1 - (1 - atTwo)^((k-1)^e), e chosen so that 4 gives `atFour`), then
 *   rising on log2 k to `atSixteen` at 16 and staying there. A lost write answers a 500 with the locked-table text and
 *   stores nothing.
 * - The store does one write at a time: each write holds it for `writeMs` (longer as it fills, `slowerEveryUsers`),
 *   and the next waits its turn (the rest of the request, its latency, overlaps). With `lostWriteTakesTurn` a write
 *   that loses the lock takes its turn too before it fails, as on the real store (a lost write answers after about
 *   as long as a successful one); otherwise it is answered at once, before any latency.
 * So more in flight stops paying once the store is busy, and with losers that take their turn it costs: the real
 * store's best level is a few in flight, the level a push has to find.
 */
export interface ContentionSettings {
  atTwo: number;
  atFour: number;
  /** The share of lost writes from 16 in flight on (absent: `atFour`, flat from 4 on). */
  atSixteen?: number;
  /** How long one write holds the store when it is empty; 0: writes overlap freely (lock conflicts only). */
  writeMs: number;
  lostWriteTakesTurn?: boolean;
  /** A write holds the store `writeMs × (1 + users held / slowerEveryUsers)` (absent: as long however full). */
  slowerEveryUsers?: number;
  /** A read (a lookup by email) takes this much longer per 1,000 users held; reads do not wait for the store. */
  readMsPerThousandUsers?: number;
  /**
   * The share of passwordless consumes that lose the lock after they used their code up (`store.useCode`): a real
   * core deletes the code in a transaction of its own before it creates the user.
   */
  lostConsumeUsedCode?: number;
}

/**
 * Measured on the real in-memory core (imports only, each 500 sent again after 20 ms; docs/performance.md, "The
 * double's locking model, measured on a real core"): the share of 500s keeps rising past 4 in flight (medians of
 * seven runs: 5%, 8%, 15% and 29% at 2, 4, 8 and 16, the store filling to a few thousand users meanwhile, which
 * `slowerEveryUsers` accounts for), a lost write takes about as long as a written one, a store of 20,000 users loses
 * 18%, 36%, 41% and 75%, and a lookup takes 13 ms empty and 65 ms at 20,000 users. Of the consumes that lost the
 * lock, 51 of 1,152 and 106 of 1,191 had used their code up (`npm run bench -- lock-leftovers`). `writeMs` and a latency of 6 ms
 * (`CALIBRATED_LATENCY_MS` of the bench) give the real core's 11-13 ms a write alone and 150-250 imports a second
 * at best on this shared machine.
 */
export const defaultContention: ContentionSettings = Object.freeze({
  atTwo: 0.04,
  atFour: 0.06,
  atSixteen: 0.22,
  writeMs: 4,
  lostWriteTakesTurn: true,
  slowerEveryUsers: 8_000,
  readMsPerThousandUsers: 2.5,
  lostConsumeUsedCode: 0.07,
});

/** The double's model before it was measured against a real core (issue 20): 33% lost from 4 on, lost writes at once, no slowing. */
export const earlierContention: ContentionSettings = Object.freeze({ atTwo: 0.16, atFour: 0.33, writeMs: 2.5 });

/** The text a locked in-memory store answers with (core-behaviour.md). */
export const LOCKED_TABLE_TEXT =
  'java.sql.SQLException: [SQLITE_LOCKED_SHAREDCACHE] Contention with a different database connection that shares the cache (database table is locked)';

export function contentionRate(settings: Pick<ContentionSettings, 'atTwo' | 'atFour' | 'atSixteen'>, inFlight: number): number {
  if (inFlight <= 1) return 0;
  if (inFlight > 4) {
    const towardSixteen = Math.min(1, Math.log2(inFlight / 4) / 2);
    return settings.atFour + ((settings.atSixteen ?? settings.atFour) - settings.atFour) * towardSixteen;
  }
  const exponent = Math.log(Math.log(1 - settings.atFour) / Math.log(1 - settings.atTwo)) / Math.log(3);
  return 1 - (1 - settings.atTwo) ** ((inFlight - 1) ** exponent);
}

/**
 * The share of writes lost with `inFlight` in flight on a store that holds `users` users: a write exposed as many
 * times longer as the store is slower loses as if it tried that many times (measured: 18%, 36%, 41% and 75% at 2, 4,
 * 8 and 16 in flight on a real in-memory core holding 20,000 users, against 5%, 8%, 15% and 29% nearly empty).
 */
export function lockLossRate(settings: ContentionSettings, inFlight: number, users: number): number {
  const exposure = writeTurnMs(settings, users) / settings.writeMs;
  return 1 - (1 - contentionRate(settings, inFlight)) ** (Number.isFinite(exposure) ? exposure : 1);
}

/** How long a write holds the store when it holds `users` users. */
export function writeTurnMs(settings: Pick<ContentionSettings, 'writeMs' | 'slowerEveryUsers'>, users: number): number {
  return settings.slowerEveryUsers === undefined ? settings.writeMs : settings.writeMs * (1 + users / settings.slowerEveryUsers);
}

/** How much longer a read takes when the store holds `users` users. */
export function readDelayMs(settings: Pick<ContentionSettings, 'readMsPerThousandUsers'>, users: number): number {
  return ((settings.readMsPerThousandUsers ?? 0) * users) / 1000;
}

/** The store's one writer: writes take their turn, first come first served, each holding it for `writeMs`. */
export class SerialStore {
  #freeAt = 0;

  /** Resolves when this write has had its turn in the store (at once when `writeMs` is 0). */
  async write(writeMs: number, now = performance.now()): Promise<void> {
    if (writeMs <= 0) return;
    const start = Math.max(now, this.#freeAt);
    this.#freeAt = start + writeMs;
    await new Promise((resolve) => setTimeout(resolve, this.#freeAt - now));
  }

  clear(): void {
    this.#freeAt = 0;
  }
}

/** A call that changes the store when carried out: a POST or PUT, other than a sign-in (which only reads). */
export function isWriteCall(method: string, path: string): boolean {
  if (method !== 'POST' && method !== 'PUT') return false;
  return path.split('?')[0]?.endsWith(CorePaths.signIn) !== true;
}

/** A passwordless consume (its code is used up in a transaction of its own, before the user is made). */
export function isConsumeCall(method: string, path: string): boolean {
  return method === 'POST' && path.split('?')[0]?.endsWith(CorePaths.passwordlessConsume) === true;
}

/**
 * Whether a call would write to the store: a POST or PUT with a JSON object to act on (an empty body, as the
 * pre-flight's tenant probe sends, is refused before the store is touched), other than a sign-in (which only reads).
 */
export function writesToStore(method: string, path: string, body: unknown): boolean {
  return isWriteCall(method, path) && isJsonObject(body) && Object.keys(body).length > 0;
}
