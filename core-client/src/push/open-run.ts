import { Journal, JournalError } from '../journal/journal.js';
import { ReportWriter } from '../plan/rejection-report.js';
import { openSync, type OpenedSync } from '../sync/open-sync.js';
import type { RunPushOptions } from './run-options.js';

/** What a run writes to and, for a sync, what it compares with; all open before anything is sent. */
export interface OpenedRun {
  journal: Journal | undefined;
  report: ReportWriter | undefined;
  sync: OpenedSync | undefined;
}

/**
 * Opens the run's journal (a sync's through `openSync`, which refuses a sync before anything is sent) and its report;
 * the journal is closed again when the report cannot be opened.
 */
export async function openRun(options: RunPushOptions): Promise<OpenedRun> {
  const command = options.mode ?? 'push';
  const openJournal = async (path: string): Promise<Journal> => {
    const journal = await Journal.open(path, {
      sourceFingerprint: options.sourceFingerprint,
      target: options.client.describe(),
      digestKey: (salt) => options.client.digestKey(salt),
      readOnly: options.dryRun === true,
      onNote: (message) => options.onEvent?.({ type: 'note', message }),
      anySource: command === 'sync',
      run: { command, source: options.sourceName ?? '' },
    });
    if (journal instanceof JournalError) throw journal;
    return journal;
  };
  const sync = options.mode === 'sync' ? await openSync(options.journalPath, options.sync, openJournal, options.signal) : undefined;
  const journal = sync?.journal ?? (options.journalPath === undefined ? undefined : await openJournal(options.journalPath));
  let report: ReportWriter | undefined;
  try {
    report =
      options.reportPath === undefined
        ? undefined
        : new ReportWriter({ role: 'report', path: options.reportPath }, { command, dryRun: options.dryRun === true, source: options.sourceName ?? '' });
  } catch (error) {
    journal?.close();
    throw error;
  }
  return { journal, report, sync };
}
