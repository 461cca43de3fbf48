import { optional } from '../optional.js';
import { randomBytes } from 'node:crypto';
import { createReadStream, ftruncateSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openOutputFile, OutputPathError, writeFully } from '../files/output-paths.js';
import type { FieldGroup } from '../plan/field-groups.js';
import type { ImportOperation, LoginTimeWait } from '../plan/operation.js';
import { Problem } from '../problem.js';
import { SeenKeys } from '../seen-keys.js';
import { PushCountsSchema, type PushSummary } from '../summary/push-summary.js';
import { JournalDigests } from './journal-digests.js';
import { lengthOfCompleteLines, openingOf, readLineAt } from './journal-file.js';
import { headerRefusal, JOURNAL_MARK, JOURNAL_VERSION, readJournalHeader, type JournalHeader } from './journal-header.js';
import {
  accountStateOf,
  type AccountState,
  digestsOf,
  flagsOf,
  journalledOutcomes,
  parseEntry,
  parseRun,
  parseState,
  parseStep,
  stateEntryOf,
  type JournalEntry,
  type JournalledOutcome,
  type JournalRunEnd,
  type JournalRunStart,
  type JournalStateEntry,
  type JournalStep,
  type JournalStepEntry,
} from './journal-lines.js';
import type { JournalLock } from './journal-lock.js';
import { JournalWriter } from './journal-writer.js';
import type { JournalledResult, OpenJournalOptions, StepProgress } from './journal-types.js';
import { StateFlag, UserStates } from './user-states.js';

/**
 * The journal: an append-only NDJSON file holding each operation's FINAL outcome, so a re-run skips what is done.
 *
 * Line 1 is a versioned header naming the source file (its fingerprint) and the core it was pushed to; then one line
 * per answered operation: `{"k":operationKey,"d":digest,"o":outcome}` (and `r`, the core's sentence, for a refusal),
 * and the step lines of each user (`"s"`, see `journalSteps`). The `intent` step is written before a creation request
 * leaves, so a later run knows that a user the core "already had" may be one this migration created (its answer
 * lost). Version 3 (issue 13) added the step lines and `untouched`; a reader of version 2 would take them for damage,
 * so the version says which reader a file needs, and another version is refused with one sentence.
 * Lines are gathered for one event-loop turn (or 256 lines) and written with one synchronous write: an operation is
 * journalled once its line is written. A process killed before that loses the lines of its last turn; those
 * operations were answered but not journalled, so a resume sends them again, which is safe because both operations
 * are idempotent at the core (an import replaces the hash, sign-in-up updates the user). A torn last line (killed
 * mid-write) is cut off on the next open.
 *
 * The digest is a truncated SHA-256 of the operation's body under a key derived (HKDF) from the api-key and a
 * random per-journal salt. It lets a resume tell a record that was fixed since (same location, other body: sent
 * again) from the one that was done (skipped), which the location-based key alone cannot. The key is not in the
 * journal, so a copy of the journal alone cannot confirm a guessed email (a third-party body holds no secret, so an
 * unkeyed digest would); only someone holding the api-key can. The journal holds no hash, password, salt, email or key.
 */

/** The journal cannot be used for this run (another source, core or key, damaged, locked): the run refuses it. */
export class JournalError extends Problem<'journal', 'journalRefused'> {
  override readonly name = 'JournalError';
  constructor(words: string) {
    super('journalRefused', 'journal', 'journal', words);
  }
}

function createdHere(outcome: JournalledOutcome | undefined): boolean {
  return outcome === 'imported' || outcome === 'created';
}

/** The outcome's place in `journalledOutcomes` is what the compact index keeps per operation. */
const outcomeIndex = new Map(journalledOutcomes.map((outcome, index) => [outcome, index]));

export class Journal {
  readonly path: string;
  readonly #digests: JournalDigests;
  /** Read-only (nothing written) until the file is opened for writing. */
  #writer = new JournalWriter(undefined, 0);
  #lock: JournalLock | undefined;
  /**
   * Done operations as 64-bit digests of (operationKey, body digest) in an open-addressing table, never as strings:
   * 14 to 18 bytes each (a Map of strings measured 149 bytes per entry, 143 MiB per million operations).
   */
  readonly #done = new SeenKeys();
  /** Core refusals are rare; their sentences are kept apart, keyed like `#done`. */
  readonly #refusals = new Map<string, string>();
  /** Operations with steps journalled but no final line: only those in flight when a run ended, so few. */
  readonly #progress = new Map<string, StepProgress>();
  /** Users the loaded lines record as created by this migration (imported, or third-party created): distinct operations. */
  #createdUsers = 0;
  /** Users (by operation and digest) the journal as loaded parked for a login-time migration: a sync compares with them. */
  parkedUsers = 0;
  #appended = 0;
  #tornLineDropped = false;
  /** What the migration last brought over, per account (state lines). */
  readonly states = new UserStates();
  /** Accounts this migration created and later removed again (disabled or gone in the old system). */
  #removedUsers = 0;
  /** The version the file was started with: a version 3 journal has no state lines, so nothing for a sync to compare. */
  #version: number = JOURNAL_VERSION;
  /** This run, for its end line; its start line goes out before its first other line (`#startRun`). */
  #run: JournalRunStart | undefined;
  #runStartWritten = false;

  private constructor(path: string, digests: JournalDigests) {
    this.path = path;
    this.#digests = digests;
  }

  get version(): number {
    return this.#version;
  }

  /**
   * Opens (or creates) a journal and locks it; refuses one written for another source file, another core or another
   * api-key, one another push holds, and anything that is not a regular file (a FIFO would hang, /dev/null swallow).
   */
  static async open(path: string, options: OpenJournalOptions): Promise<Journal | JournalError> {
    const opening = await openingOf(path, options);
    if (typeof opening === 'string') return new JournalError(opening);
    const { existing, lock } = opening;
    try {
      const journal = existing === undefined || existing.size === 0 ? Journal.#create(path, options) : await Journal.#load(path, existing.size, options);
      journal.#lock = lock;
      if (options.run !== undefined) journal.#beginRun(options.run);
      return journal;
    } catch (error) {
      lock?.release();
      if (error instanceof JournalError) return error;
      if (error instanceof OutputPathError) return new JournalError(error.message);
      return new JournalError(`The journal ${path} could not be read: ${(error as Error).message}.`);
    }
  }

  static #create(path: string, options: OpenJournalOptions): Journal {
    const salt = randomBytes(24).toString('base64');
    const digests = new JournalDigests(options, salt);
    if (options.readOnly === true) return new Journal(path, digests);
    const header: JournalHeader = {
      journal: JOURNAL_MARK,
      version: JOURNAL_VERSION,
      source: options.sourceFingerprint,
      target: options.target,
      digestSalt: salt,
      digestCheck: digests.check,
      createdAt: new Date().toISOString(),
    };
    const fd = openOutputFile({ role: 'journal', path }, { append: false });
    const line = `${JSON.stringify(header)}\n`;
    writeFully(fd, line);
    const journal = new Journal(path, digests);
    journal.#writer = new JournalWriter(fd, Buffer.byteLength(line));
    return journal;
  }

  static async #load(path: string, size: number, options: OpenJournalOptions): Promise<Journal> {
    const completeLength = await lengthOfCompleteLines(path, size);
    let journal: Journal | undefined;
    let lineNumber = 0;
    let offset = 0;
    const lines: AsyncIterable<string> | Iterable<string> =
      completeLength === 0 ? [] : createInterface({ input: createReadStream(path, { end: completeLength - 1 }), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNumber += 1;
      const at = offset;
      // Written by this program with '\n' alone, so a line takes its bytes and one more.
      offset += Buffer.byteLength(line) + 1;
      if (journal === undefined) {
        journal = Journal.#fromHeader(path, line, options);
        continue;
      }
      if (line.trim() === '') continue;
      const state = parseState(line);
      if (state !== undefined) {
        journal.#rememberState(state, at);
        continue;
      }
      const step = parseStep(line);
      if (step !== undefined) {
        journal.#rememberStep(step);
        continue;
      }
      if (parseRun(line) !== undefined) continue;
      const entry = parseEntry(line);
      if (entry === undefined) {
        throw new JournalError(
          `The journal ${path} is damaged at line ${lineNumber} (not a journal entry). Only a torn last line is ` +
            'repaired automatically; move the file aside to start a new journal (re-sending is safe, imports are idempotent).',
        );
      }
      journal.#remember(entry);
    }
    if (journal === undefined) {
      // Killed while writing the header: nothing was journalled, so starting afresh loses nothing.
      return Journal.#create(path, options);
    }
    journal.#writer = new JournalWriter(undefined, completeLength);
    if (options.readOnly === true) {
      journal.#tornLineDropped = completeLength < size;
      return journal;
    }
    const fd = openOutputFile({ role: 'journal', path }, { append: true });
    if (completeLength < size) {
      journal.#tornLineDropped = true;
      ftruncateSync(fd, completeLength);
    }
    journal.#writer = new JournalWriter(fd, completeLength);
    return journal;
  }

  static #fromHeader(path: string, line: string, options: OpenJournalOptions): Journal {
    const header = parseJournalHeader(path, line);
    const refusal = headerRefusal(path, header, options);
    if (refusal !== undefined) throw new JournalError(refusal);
    const digests = new JournalDigests(options, header.digestSalt);
    if (digests.check !== header.digestCheck) {
      throw new JournalError(
        `The journal ${path} was written with another api-key, so it cannot tell which operations are done. ` +
          'Use the api-key it was written with, or pass a new --journal file (re-sending is safe, imports are idempotent).',
      );
    }
    const journal = new Journal(path, digests);
    journal.#version = header.version;
    return journal;
  }

  #rememberState(entry: JournalStateEntry, offset: number): void {
    const flags = flagsOf(entry.f);
    const index = this.states.find(entry.x, entry.w);
    const wasRemoved = index !== undefined && this.states.has(index, StateFlag.removed);
    const isRemoved = (flags & StateFlag.removed) !== 0 && (flags & StateFlag.createdHere) !== 0;
    if (isRemoved && !wasRemoved) this.#removedUsers += 1;
    if (!isRemoved && wasRemoved) this.#removedUsers -= 1;
    const exported = entry.e === undefined ? 0 : Number.parseInt(entry.e, 16);
    this.states.remember(entry.x, entry.w, digestsOf(entry.g), entry.a === undefined ? 0 : Number.parseInt(entry.a, 16), flags, offset, exported);
  }

  #rememberStep(entry: JournalStepEntry): void {
    const doneKey = `${entry.k}\n${entry.d}`;
    const progress = this.#progress.get(doneKey) ?? { steps: new Set<JournalStep>(), createdHere: false };
    progress.steps.add(entry.s);
    if (entry.s === 'created') progress.createdHere = true;
    if (entry.u !== undefined) progress.userId = entry.u;
    if (entry.x !== undefined) progress.userId = entry.x;
    this.#progress.set(doneKey, progress);
  }

  #remember(entry: JournalEntry): void {
    const doneKey = `${entry.k}\n${entry.d}`;
    this.#progress.delete(doneKey);
    if (entry.o === 'imported' || entry.o === 'created') {
      const before = this.#done.positionOf(doneKey);
      if (before === undefined || !createdHere(journalledOutcomes[before.position])) this.#createdUsers += 1;
    }
    if (entry.o === 'parked' && this.#done.positionOf(doneKey) === undefined) this.parkedUsers += 1;
    this.#done.recordLatest(doneKey, { position: outcomeIndex.get(entry.o) ?? 0, source: 0 });
    if (entry.o === 'rejectedByCore') this.#refusals.set(doneKey, entry.r ?? 'refused by the core');
    else this.#refusals.delete(doneKey);
  }

  /** Starts the run (version 5 on; an older journal's lines stay what its version's reader knows). */
  #beginRun(run: { command: JournalRunStart['run']; source: string }): void {
    if (this.#version < 5 || !this.#writer.writes) return;
    this.#run = { run: run.command, started: new Date().toISOString(), source: run.source };
  }

  /**
   * The run's start line, before its first other line: a run that is killed after writing anything shows as begun
   * with no end, and one refused before it wrote anything (a sync's checks) leaves no line at all.
   */
  #startRun(): void {
    if (this.#run === undefined || this.#runStartWritten) return;
    this.#runStartWritten = true;
    this.#writer.append(`${JSON.stringify(this.#run)}\n`);
  }

  /** Writes the run's end line: how it ended and its summary's counts, as the summary has them (see `journal show`). */
  endRun(summary: PushSummary): void {
    if (this.#run === undefined) return;
    const entry: JournalRunEnd = {
      ...this.#run,
      ended: new Date().toISOString(),
      end: summary.stoppedEarly?.reason ?? 'complete',
      // The counts alone, not the summary's paths and figures.
      counts: PushCountsSchema.parse(summary),
      ...optional('sync', summary.sync),
      ...optional('syncGuard', summary.syncGuard),
    };
    this.#writer.append(`${JSON.stringify(entry)}\n`);
    this.#run = undefined;
  }

  /** The keyed digests of an operation's field groups, whole account and exported credential (see `JournalDigests`). */
  groupDigests(operation: ImportOperation): number[] {
    return this.#digests.groups(operation);
  }

  groupDigest(operation: ImportOperation, group: FieldGroup): number {
    return this.#digests.group(operation, group);
  }

  wholeDigest(operation: ImportOperation): number {
    return this.#digests.whole(operation);
  }

  exportedDigest(operation: ImportOperation): number {
    return this.#digests.exported(operation);
  }

  /**
   * Journals an account's state after the migration brought it over or changed it; `digests` are what the core now
   * holds from the export (a group a step could not finish keeps its earlier digest, so the next sync sends it again).
   */
  recordState(state: Omit<AccountState, 'digests'> & { digests: readonly number[] }): void {
    if (this.#version < 4) return;
    const entry = stateEntryOf(state);
    this.#startRun();
    const offset = this.#writer.end;
    this.#writer.append(`${JSON.stringify(entry)}\n`);
    if (!this.#writer.writes) return;
    this.#rememberState(entry, offset);
    // Written in this run, so the export this run reads has it: never "gone from the export".
    const index = this.states.find(entry.x, entry.w);
    if (index !== undefined) this.states.markSeen(index);
  }

  /** The account's latest state line, read back from the file for its ids. */
  stateOf(index: number): AccountState {
    this.#writer.writePending();
    const offset = this.states.offset(index);
    const entry = parseState(readLineAt(this.path, offset));
    if (entry === undefined) throw new JournalError(`The journal ${this.path} is damaged at byte ${offset} (an account's state line cannot be read back).`);
    return accountStateOf(entry);
  }

  /** The keyed digest of an operation's body: a changed record gets another digest and is sent again. */
  digest(operation: ImportOperation | LoginTimeWait): string {
    return this.#digests.body(operation);
  }

  /**
   * Writes the operation's `intent` line: its creation request is about to leave. The line is written (one write for
   * every operation announced in the same turn) before the promise resolves, so before the request: a kill after the
   * send cannot lose the fact that it was sent.
   */
  announce(operation: ImportOperation): Promise<void> | undefined {
    return this.#writer.appendBefore(() => {
      this.#startRun();
      const entry: JournalStepEntry = { k: operation.operationKey, d: this.digest(operation), s: 'intent' };
      return `${JSON.stringify(entry)}\n`;
    });
  }

  /** The journalled result of this very operation (same key, same body), if any. */
  lookup(operation: ImportOperation | LoginTimeWait): JournalledResult | undefined {
    if (this.#done.size === 0) return undefined;
    const doneKey = `${operation.operationKey}\n${this.digest(operation)}`;
    const stored = this.#done.positionOf(doneKey);
    const outcome = stored === undefined ? undefined : journalledOutcomes[stored.position];
    if (outcome === undefined) return undefined;
    const reason = this.#refusals.get(doneKey);
    return reason === undefined ? { outcome } : { outcome, reason };
  }

  /** The steps an earlier run journalled for this very operation without reaching its final line. */
  progressOf(operation: ImportOperation): StepProgress | undefined {
    if (this.#progress.size === 0) return undefined;
    return this.#progress.get(`${operation.operationKey}\n${this.digest(operation)}`);
  }

  /** Journals a completed step (the write-ahead `intent` goes through `announce`). */
  recordStep(operation: ImportOperation, step: Exclude<JournalStep, 'intent'>, ids: { u?: string; x?: string } = {}): void {
    this.#startRun();
    const entry: JournalStepEntry = { k: operation.operationKey, d: this.digest(operation), s: step, ...ids };
    this.#writer.append(`${JSON.stringify(entry)}\n`);
  }

  /**
   * Appends the final outcome; it reaches the file within this event-loop turn. Throws when an earlier write failed
   * (disk full, file gone): nothing more may be sent if it cannot be journalled.
   */
  record(operation: ImportOperation | LoginTimeWait, result: JournalledResult): void {
    this.#writer.throwIfFailed();
    const entry: JournalEntry = { k: operation.operationKey, d: this.digest(operation), o: result.outcome };
    if (result.outcome === 'rejectedByCore' && result.reason !== undefined) entry.r = result.reason;
    // Not added to the resume index: a run meets each operation once, and the index serves the next run.
    if (this.#writer.writes) this.#appended += 1;
    this.#startRun();
    this.#writer.append(`${JSON.stringify(entry)}\n`);
  }

  /** Operations (distinct key and body) this journal holds as done or refused. */
  get entries(): number {
    return this.#done.size;
  }

  /**
   * Users the journal (as loaded) records as created by this migration: each is a distinct user, so a core that holds
   * fewer users than this is not the core the journal was written against (see JournalCoreCheck).
   */
  get createdUsers(): number {
    return this.#createdUsers;
  }

  /** Users this migration created and later removed again (a sync: disabled, or gone from the old system). */
  get removedUsers(): number {
    return this.#removedUsers;
  }

  /** Memory the resume index takes, for the notes on memory. */
  get indexBytes(): number {
    return this.#done.bytesUsed;
  }

  get appended(): number {
    return this.#appended;
  }

  /** Whether opening it cut off a torn last line (the process was killed mid-write). */
  get tornLineDropped(): boolean {
    return this.#tornLineDropped;
  }

  /** Pushes written lines to the disk itself, not just the page cache (which already survives a killed process). */
  flush(): void {
    this.#writer.flush();
  }

  /** Flushes, closes and unlocks; throws (after unlocking) when the last lines could not be written. */
  close(): void {
    try {
      this.#writer.close();
    } finally {
      this.#lock?.release();
      this.#lock = undefined;
    }
  }
}

/**
 * The header of a journal of this version, from its first line; a sentence (thrown `JournalError`) for a foreign
 * file, another version or a damaged header. The push and the rollback read headers through here alike.
 */
export function parseJournalHeader(path: string, line: string): JournalHeader {
  const header = readJournalHeader(path, line);
  if (typeof header === 'string') throw new JournalError(header);
  return header;
}
