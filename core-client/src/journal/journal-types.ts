import type { JournalledOutcome, JournalRunStart, JournalStep } from './journal-lines.js';

/** What a resume knows of an operation whose steps began but did not all end. */
export interface StepProgress {
  steps: Set<JournalStep>;
  /** The id later calls take: the old id once mapped, else the core's own. */
  userId?: string;
  createdHere: boolean;
}

export interface JournalledResult {
  outcome: JournalledOutcome;
  /** The core's sentence, for `rejectedByCore`. */
  reason?: string;
}

export interface OpenJournalOptions {
  sourceFingerprint: string;
  /** Where the operations go, as `CoreClient.describe()` says it (never a key); see `journalFitsTarget`. */
  target: string;
  /** The digest key for a salt: `CoreClient.digestKey`, derived from the api-key, so the journal alone tests nothing. */
  digestKey: (salt: string) => Buffer;
  /** Read what is there but never create, lock or write the file (dry runs). */
  readOnly?: boolean;
  /** Called with a sentence when a stale lock of a process that is gone was taken over. */
  onNote?: (message: string) => void;
  /**
   * A sync reads a newer export of the same system against the journal of an earlier run: any source is accepted,
   * and the accounts' state lines, not the operations' keys, say what is there.
   */
  anySource?: boolean;
  /** The run that opens it (never a dry run): its start line is written at once, its end line by `endRun`. */
  run?: { command: JournalRunStart['run']; source: string };
}
