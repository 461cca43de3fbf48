import type { ImportOperation } from '../plan/operation.js';
import { earlierCreation } from './account-state.js';
import type { Journal } from './journal.js';

/**
 * What an earlier run of the journal did with an operation a push meets again: nothing (`send` it), done as this run
 * would do it (`done`: skipped, once the core confirms where it checks), refused by the core (`refused`, with its
 * sentence), or created with another hash (`otherHash`: a push leaves it, a sync re-imports it). A sync asks the
 * accounts' states instead.
 */
export type EarlierRun = { kind: 'send' } | { kind: 'done' } | { kind: 'refused'; reason: string | undefined } | { kind: 'otherHash' };

/** `sendsUntouched`: the run replaces the hash of users that were in the core before (`--existing replace`). */
export function earlierRunOf(journal: Journal, item: ImportOperation, sendsUntouched: boolean): EarlierRun {
  const found = journal.lookup(item);
  // A user left untouched under --existing skip is done only for skip: a run with replace sends it.
  const journalled = found?.outcome === 'untouched' && sendsUntouched ? undefined : found;
  if (journalled !== undefined) return journalled.outcome === 'rejectedByCore' ? { kind: 'refused', reason: journalled.reason } : { kind: 'done' };
  if (item.kind !== 'passwordImport') return { kind: 'send' };
  const earlier = earlierCreation(journal, item);
  return earlier === 'asExported' ? { kind: 'done' } : earlier === 'otherHash' ? { kind: 'otherHash' } : { kind: 'send' };
}
