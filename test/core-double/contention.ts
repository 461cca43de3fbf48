import { CorePaths } from '../../core-client/src/contract/names.js';
import { isJsonObject } from './answers.js';

/**
 * A store that locks, as the in-memory core's (core-behaviour.md, "Under concurrency"): with k requests in flight a
 * write fails with a 500 and the locked-table text, with probability 1 - (1 - atTwo)^((k-1)^e), e chosen so that 4 in
 * flight give `atFour`. With the defaults: 0 alone, 16% at 2, 33% at 4, 53% at 8, 74% at 16. It keeps rising past 4,
 * where the real core levels off at about a third but also gets slower: either way more in flight stops paying at
 * some level, and here that level (about 16) is one a push has to find rather than the largest it may use.
 */
export interface ContentionSettings {
  atTwo: number;
  atFour: number;
}

export const defaultContention: ContentionSettings = Object.freeze({ atTwo: 0.16, atFour: 0.33 });

/** The text a locked in-memory store answers with (core-behaviour.md). */
export const LOCKED_TABLE_TEXT =
  'java.sql.SQLException: [SQLITE_LOCKED_SHAREDCACHE] Contention with a different database connection that shares the cache (database table is locked)';

export function contentionRate(settings: ContentionSettings, inFlight: number): number {
  if (inFlight <= 1) return 0;
  const exponent = Math.log(Math.log(1 - settings.atFour) / Math.log(1 - settings.atTwo)) / Math.log(3);
  return 1 - (1 - settings.atTwo) ** ((inFlight - 1) ** exponent);
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
