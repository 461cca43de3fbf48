import type { CoreClient } from '../http/core-client.js';
import { isCoreError } from '../http/errors.js';
import type { WaitingStore } from './store/waiting-store.js';
import { optional } from '../optional.js';

/** What a rollback did with a login-time migration: the users created at their first sign-in, and the store. */
export type LoginTimeRollback = {
  dryRun: boolean;
  /** Users created in the core at their first sign-in, removed from it (a dry run: that would be). */
  arrivalsRemoved: number;
  /** Removals the core refused or did not answer: those users stay in the store, so the same command tries again. */
  arrivalsFailed: number;
  /** Users still waiting, taken out of the store (a dry run: that would be). */
  waitingDropped: number;
};

/**
 * Undoes a login-time migration: each user created at its first sign-in is removed from the core by the id the core
 * names it by (its old id once mapped), then forgotten by the store; the users still waiting are forgotten. The store
 * is empty at the end unless a removal failed. A dry run only counts.
 */
export async function rollbackArrivals(
  store: WaitingStore,
  client: Pick<CoreClient, 'removeUser'>,
  options: { dryRun: boolean; signal?: AbortSignal },
): Promise<LoginTimeRollback> {
  if (options.dryRun) {
    const counts = await store.counts();
    return { dryRun: true, arrivalsRemoved: counts.migrated, arrivalsFailed: 0, waitingDropped: counts.waiting + counts.migrating };
  }
  const result: LoginTimeRollback = { dryRun: false, arrivalsRemoved: 0, arrivalsFailed: 0, waitingDropped: 0 };
  for await (const arrival of store.arrivals()) {
    if (options.signal?.aborted === true) break;
    try {
      await client.removeUser(arrival.coreUserId, optional('signal', options.signal));
    } catch (error) {
      if (!isCoreError(error)) throw error;
      result.arrivalsFailed += 1;
      continue;
    }
    await store.forget(arrival.email);
    result.arrivalsRemoved += 1;
  }
  if (options.signal?.aborted !== true) result.waitingDropped = await store.forgetWaiting();
  return result;
}
