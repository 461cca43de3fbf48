import { JournalError, type Journal } from '../journal/journal.js';
import type { PlannedRecord } from '../plan/plan-source.js';
import type { SyncForecast } from '../summary/push-summary.js';
import type { DeletedPolicy } from '../choices.js';
import { forecastSync, journalWithoutStates, overlapTooLow, syncJournalProblem, SyncRefusedError, type SyncGuardOptions } from './sync-guard.js';

/** What a sync needs besides its journal. */
export interface SyncRunOptions extends Omit<SyncGuardOptions, 'removesGone'> {
  deleted: DeletedPolicy;
  /**
   * The same plan read once more, from its start: the sync's first pass (`forecastSync`) reads it before anything is
   * sent, to refuse an export unlike the journal's system and to count the removals against their limit.
   */
  firstPass: () => AsyncIterable<PlannedRecord>;
}

/** A sync ready to send: its journal, open, and what the first pass found. */
export interface OpenedSync {
  journal: Journal;
  forecast: SyncForecast;
  deleted: DeletedPolicy;
}

/**
 * Opens a sync's journal and guards the sync before anything is sent: a journal that exists, keeps account states
 * (version 4 on) and has some, an export that looks like a newer one of the journal's system (unless the operator
 * says so), and the removals counted against their limit. Throws the refusal; the journal is closed on one.
 */
export async function openSync(
  journalPath: string,
  sync: SyncRunOptions,
  openJournal: (path: string) => Promise<Journal>,
  signal: AbortSignal | undefined,
): Promise<OpenedSync> {
  const missing = await syncJournalProblem(journalPath);
  if (missing !== undefined) throw new JournalError(missing);
  const journal = await openJournal(journalPath);
  if (journal.version < 4) {
    journal.close();
    throw new JournalError(
      `The journal ${journal.path} was written by an earlier version of core-migrate: it says which operations were done, but keeps no digest of ` +
        'what each user was, so a sync could compare nothing (neither new users nor changes); it still resumes and rolls back its push. ' +
        'To sync, push the newer export with a new --journal (users already in the core are left untouched or their hash replaced, as --existing says).',
    );
  }
  const forecast = await guardSync(sync, journal, signal);
  if (forecast instanceof Error) throw forecast;
  return { journal, forecast, deleted: sync.deleted };
}

async function guardSync(sync: SyncRunOptions, journal: Journal, signal: AbortSignal | undefined): Promise<SyncForecast | Error> {
  const empty = journalWithoutStates(journal);
  const forecast =
    empty === undefined
      ? await forecastSync(sync.firstPass(), journal, { ...sync, removesGone: sync.deleted === 'remove', signal }).catch((error: unknown) =>
          error instanceof Error ? error : new Error(String(error)),
        )
      : new JournalError(empty);
  // Interrupted during the first pass: its counts are partial, and the run that follows stops before sending.
  const interrupted = signal?.aborted === true;
  if (forecast instanceof Error || (sync.ignoreOverlap !== true && !interrupted && overlapTooLow(forecast))) {
    journal.close();
    return forecast instanceof Error ? forecast : new SyncRefusedError(forecast);
  }
  return forecast;
}
