import { CorePaths } from '../../core-client/src/contract/names.js';
import { isJsonObject } from './answers.js';

/**
 * A store that locks, as the in-memory core's (core-behaviour.md, "Under concurrency"), in two parts:
 * - A write arriving with k requests in flight (itself included) loses a lock conflict with probability
 *   1 - (1 - atTwo)^((k-1)^e), e chosen so that 4 in flight give `atFour`, and no more beyond 4: 0 alone, 16% at 2,
 *   25% at 3, 33% from 4 on (the real store: 32% at 16). A lost write is answered at once, a 500 with the locked-table
 *   text, before any latency or queue: it did nothing, and retrying it is cheap.
 * - The store does one write at a time: each write that gets through holds it for `writeMs`, and the next waits its
 *   turn (the rest of the request, its latency, overlaps). So the imports per second rise from 1 to about 4 in flight
 *   (at 10 ms latency and 2.5 ms a write: 80, 160, 320 a second at 1, 2, 4) and then stay flat at 1 / writeMs
 *   (400 a second), while each answer takes longer: more in flight stops paying at a level a push has to find.
 */
export interface ContentionSettings {
  atTwo: number;
  atFour: number;
  /** How long one write holds the store; 0: writes overlap freely (lock conflicts only). */
  writeMs: number;
}

export const defaultContention: ContentionSettings = Object.freeze({ atTwo: 0.16, atFour: 0.33, writeMs: 2.5 });

/** The text a locked in-memory store answers with (core-behaviour.md). */
export const LOCKED_TABLE_TEXT =
  'java.sql.SQLException: [SQLITE_LOCKED_SHAREDCACHE] Contention with a different database connection that shares the cache (database table is locked)';

export function contentionRate(settings: Pick<ContentionSettings, 'atTwo' | 'atFour'>, inFlight: number): number {
  if (inFlight <= 1) return 0;
  const exponent = Math.log(Math.log(1 - settings.atFour) / Math.log(1 - settings.atTwo)) / Math.log(3);
  return 1 - (1 - settings.atTwo) ** ((Math.min(inFlight, 4) - 1) ** exponent);
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

/**
 * Whether a call would write to the store: a POST or PUT with a JSON object to act on (an empty body, as the
 * pre-flight's tenant probe sends, is refused before the store is touched), other than a sign-in (which only reads).
 */
export function writesToStore(method: string, path: string, body: unknown): boolean {
  return isWriteCall(method, path) && isJsonObject(body) && Object.keys(body).length > 0;
}
