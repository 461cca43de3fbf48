import { hash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { openOutputFile, OutputPathError, outputErrorSentence, writeFully } from '../files/output-paths.js';
import { fieldGroups, fieldGroupTexts, type FieldGroup } from '../plan/field-groups.js';
import type { ImportOperation } from '../plan/operation.js';
import { SeenKeys } from '../seen-keys.js';
import {
  digestsOf,
  flagsOf,
  hexOf,
  journalledOutcomes,
  parseEntry,
  parseRun,
  parseState,
  parseStep,
  safeJson,
  type JournalEntry,
  type JournalledOutcome,
  type JournalRunEnd,
  type JournalRunStart,
  type JournalStateEntry,
  type JournalStep,
  type JournalStepEntry,
} from './journal-lines.js';
import { JournalLock } from './journal-lock.js';
import { journalFitsTarget } from './journal-target.js';
import { PushCountsSchema, type PushSummary } from './summary.js';
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

export {
  journalledOutcomes,
  JournalledOutcomeSchema,
  JournalEntrySchema,
  journalSteps,
  JournalStepEntrySchema,
  JournalStateEntrySchema,
  type JournalledOutcome,
  type JournalEntry,
  type JournalStep,
  type JournalStepEntry,
  type JournalStateEntry,
} from './journal-lines.js';
import { optional } from '../optional.js';

const JOURNAL_MARK = 'core-migrate push journal';
/**
 * Version 4 (issue 19) added the account state lines a sync compares, version 5 (issue 25) the run lines; version 3
 * journals still resume and roll back, version 4 ones also sync (their runs are not recorded).
 */
export const JOURNAL_VERSION = 5;
const READABLE_VERSIONS: readonly number[] = [3, 4, 5];

/** What every version's header has, to tell an older journal from a foreign file. */
const JournalMarkSchema = z.object({ journal: z.literal(JOURNAL_MARK), version: z.number().int() });

export const JournalHeaderSchema = z.object({
  journal: z.literal(JOURNAL_MARK),
  version: z.union([z.literal(3), z.literal(4), z.literal(JOURNAL_VERSION)]),
  source: z.string(),
  target: z.string(),
  /** The HKDF salt of the digest key (the key itself comes from the api-key and is never written). */
  digestSalt: z.string().min(16),
  /** A digest of a fixed text under the digest key: tells "another api-key" from "every record changed". */
  digestCheck: z.string(),
  createdAt: z.string(),
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

/** What a run knows of an account it changes or removes, read back from its state line. */
export interface AccountState {
  sourceId: string;
  role: string;
  coreId: string;
  /** The id every call takes: the old id once mapped, else the core's own. */
  callId: string;
  createdHere: boolean;
  untouched: boolean;
  removed: boolean;
  digests: number[];
  /** `Journal.wholeDigest` of the account as the export had it, when every group was brought over. */
  whole?: number;
  /** `Journal.exportedDigest` of the password account's credential when its hash was brought over; absent when unknown. */
  exported?: number;
}

/** What a resume knows of an operation whose steps began but did not all end. */
export interface StepProgress {
  steps: Set<JournalStep>;
  /** The id later calls take: the old id once mapped, else the core's own. */
  userId?: string;
  createdHere: boolean;
}

export class JournalError extends Error {
  readonly kind = 'journalError';
  constructor(message: string) {
    super(message);
    this.name = 'JournalError';
  }
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

const DIGEST_CHECK_TEXT = 'core-migrate journal digest check';

/** Lines gathered at most before a write, whatever the event loop does. */
const MAX_PENDING_LINES = 256;

function createdHere(outcome: JournalledOutcome | undefined): boolean {
  return outcome === 'imported' || outcome === 'created';
}

/** The outcome's place in `journalledOutcomes` is what the compact index keeps per operation. */
const outcomeIndex = new Map(journalledOutcomes.map((outcome, index) => [outcome, index]));

export class Journal {
  readonly path: string;
  readonly #key: string;
  #fd: number | undefined;
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
  #appended = 0;
  #tornLineDropped = false;
  #pending: string[] = [];
  #writeScheduled = false;
  #writeError: unknown;
  #intentWritten: Promise<void> | undefined;
  readonly #digests = new WeakMap<ImportOperation, string>();
  /** What the migration last brought over, per account (state lines). */
  readonly states = new UserStates();
  /** Accounts this migration created and later removed again (disabled or gone in the old system). */
  #removedUsers = 0;
  /** The version the file was started with: a version 3 journal has no state lines, so nothing for a sync to compare. */
  #version: number = JOURNAL_VERSION;
  /** Bytes in the file once every pending line is written: where the next line starts. */
  #end = 0;
  /** This run, for its end line; its start line goes out before its first other line (`#startRun`). */
  #run: JournalRunStart | undefined;
  #runStartWritten = false;

  private constructor(path: string, key: string, fd: number | undefined) {
    this.path = path;
    this.#key = key;
    this.#fd = fd;
  }

  get version(): number {
    return this.#version;
  }

  /**
   * Opens (or creates) a journal and locks it; refuses one written for another source file, another core or another
   * api-key, one another push holds, and anything that is not a regular file (a FIFO would hang, /dev/null swallow).
   */
  static async open(path: string, options: OpenJournalOptions): Promise<Journal | JournalError> {
    const existing = await lstat(path).catch(() => undefined);
    if (existing !== undefined && !existing.isFile()) {
      return new JournalError(
        `The journal ${path} is not a regular file (${existing.isSymbolicLink() ? 'a symbolic link' : 'a device, FIFO or folder'}): ` +
          'a journal must be a file to resume from. Pass a file path with --journal.',
      );
    }
    if (existing !== undefined && existing.size > 0) {
      const rolledBack = await rolledBackSentence(path);
      if (rolledBack !== undefined) return new JournalError(rolledBack);
    }
    let lock: JournalLock | undefined;
    if (options.readOnly !== true) {
      let locked: ReturnType<typeof JournalLock.acquire>;
      try {
        locked = JournalLock.acquire(path);
      } catch (error) {
        return new JournalError(outputErrorSentence(error as NodeJS.ErrnoException, { role: 'journalLock', path: `${path}.lock` }));
      }
      if (!locked.ok) return new JournalError(locked.message);
      lock = locked.lock;
      if (locked.tookOverFrom !== undefined) {
        options.onNote?.(
          `The journal's lock was left by process ${locked.tookOverFrom.pid} (started ${locked.tookOverFrom.startedAt}), which is gone; this push took it over.`,
        );
      }
    }
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
    const key = digestKeyText(options, salt);
    if (options.readOnly === true) return new Journal(path, key, undefined);
    const header: JournalHeader = {
      journal: JOURNAL_MARK,
      version: JOURNAL_VERSION,
      source: options.sourceFingerprint,
      target: options.target,
      digestSalt: salt,
      digestCheck: keyedDigest(key, DIGEST_CHECK_TEXT),
      createdAt: new Date().toISOString(),
    };
    const fd = openOutputFile({ role: 'journal', path }, { append: false });
    const line = `${JSON.stringify(header)}\n`;
    writeFully(fd, line);
    const journal = new Journal(path, key, fd);
    journal.#end = Buffer.byteLength(line);
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
    journal.#end = completeLength;
    if (options.readOnly === true) {
      journal.#tornLineDropped = completeLength < size;
      return journal;
    }
    const fd = openOutputFile({ role: 'journal', path }, { append: true });
    if (completeLength < size) {
      journal.#tornLineDropped = true;
      ftruncateSync(fd, completeLength);
    }
    journal.#fd = fd;
    return journal;
  }

  static #fromHeader(path: string, line: string, options: OpenJournalOptions): Journal {
    const header = parseJournalHeader(path, line);
    if (header.source !== options.sourceFingerprint && options.anySource !== true) {
      throw new JournalError(
        `The journal ${path} was written for a different source file (the export changed or is another one). ` +
          'Resuming from it could skip records that were never sent: pass a new --journal file (re-sending operations that ' +
          'were already done is safe, imports are idempotent), or push the original file.',
      );
    }
    if (!journalFitsTarget(header.target, options.target)) {
      throw new JournalError(
        `The journal ${path} records a push to ${header.target}, not to ${options.target}. ` +
          'Pass a new --journal file for this core, or connect to the core the journal was written for ' +
          "(with several cores, any set that includes one of the journal's goes on with it).",
      );
    }
    const key = digestKeyText(options, header.digestSalt);
    if (keyedDigest(key, DIGEST_CHECK_TEXT) !== header.digestCheck) {
      throw new JournalError(
        `The journal ${path} was written with another api-key, so it cannot tell which operations are done. ` +
          'Use the api-key it was written with, or pass a new --journal file (re-sending is safe, imports are idempotent).',
      );
    }
    const journal = new Journal(path, key, undefined);
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
    this.#done.recordLatest(doneKey, { position: outcomeIndex.get(entry.o) ?? 0, source: 0 });
    if (entry.o === 'rejectedByCore') this.#refusals.set(doneKey, entry.r ?? 'refused by the core');
    else this.#refusals.delete(doneKey);
  }

  /** Starts the run (version 5 on; an older journal's lines stay what its version's reader knows). */
  #beginRun(run: { command: JournalRunStart['run']; source: string }): void {
    if (this.#version < 5 || this.#fd === undefined) return;
    this.#run = { run: run.command, started: new Date().toISOString(), source: run.source };
  }

  /**
   * The run's start line, before its first other line: a run that is killed after writing anything shows as begun
   * with no end, and one refused before it wrote anything (a sync's checks) leaves no line at all.
   */
  #startRun(): void {
    if (this.#run === undefined || this.#runStartWritten) return;
    this.#runStartWritten = true;
    this.#append(`${JSON.stringify(this.#run)}\n`);
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
    };
    this.#append(`${JSON.stringify(entry)}\n`);
    this.#run = undefined;
  }

  /** The keyed 32-bit digest of each field group of an operation, in `fieldGroups` order (see JournalStateEntrySchema). */
  groupDigests(operation: ImportOperation): number[] {
    const texts = fieldGroupTexts(operation);
    return fieldGroups.map((group) => this.#groupDigest(group, texts[group]));
  }

  /** The digest of one field group, as `groupDigests` has it (a sync's first pass compares the email alone). */
  groupDigest(operation: ImportOperation, group: FieldGroup): number {
    return this.#groupDigest(group, fieldGroupTexts(operation)[group]);
  }

  #groupDigest(group: FieldGroup, text: string): number {
    return Number.parseInt(hash('sha256', `${this.#key}\n${group}\n${text}`, 'hex').slice(0, 8), 16);
  }

  /**
   * One keyed 32-bit digest of all the groups of an operation: equal to the journalled one, the account is unchanged
   * without the six group digests (a sync's delta reads mostly unchanged users).
   */
  wholeDigest(operation: ImportOperation): number {
    const texts = fieldGroupTexts(operation);
    const all = fieldGroups.map((group) => `${group}\n${texts[group]}`).join('\n');
    return Number.parseInt(hash('sha256', `${this.#key}\nwhole\n${all}`, 'hex').slice(0, 8), 16);
  }

  /**
   * A keyed 32-bit digest of a password account's credential as the export holds it (before hash parameters and
   * wrappers); 0 for a third-party account, which has none.
   */
  exportedDigest(operation: ImportOperation): number {
    if (operation.kind !== 'passwordImport') return 0;
    return Number.parseInt(hash('sha256', `${this.#key}\nexported\n${operation.exportedCredential}`, 'hex').slice(0, 8), 16);
  }

  /**
   * Journals an account's state after the migration brought it over or changed it; `digests` are what the core now
   * holds from the export (a group a step could not finish keeps its earlier digest, so the next sync sends it again).
   */
  recordState(state: Omit<AccountState, 'digests'> & { digests: readonly number[] }): void {
    if (this.#version < 4) return;
    const entry: JournalStateEntry = {
      x: state.sourceId,
      w: state.role,
      c: state.coreId,
      ...(state.callId === state.coreId ? {} : { i: state.callId }),
      f: `${state.createdHere ? 'm' : ''}${state.untouched ? 't' : ''}${state.removed ? 'r' : ''}`,
      g: state.digests.map(hexOf).join(''),
      ...(state.whole === undefined ? {} : { a: hexOf(state.whole) }),
      ...(state.exported === undefined ? {} : { e: hexOf(state.exported) }),
    };
    this.#startRun();
    const offset = this.#end;
    this.#append(`${JSON.stringify(entry)}\n`);
    if (this.#fd === undefined) return;
    this.#rememberState(entry, offset);
    // Written in this run, so the export this run reads has it: never "gone from the export".
    const index = this.states.find(entry.x, entry.w);
    if (index !== undefined) this.states.markSeen(index);
  }

  /** The account's latest state line, read back from the file for its ids. */
  stateOf(index: number): AccountState {
    this.#writePending();
    const offset = this.states.offset(index);
    const fd = openSync(this.path, 'r');
    let text = '';
    try {
      const chunk = Buffer.alloc(4096);
      for (let at = offset; ; at += chunk.length) {
        const read = readSync(fd, chunk, 0, chunk.length, at);
        const part = chunk.subarray(0, read).toString('latin1');
        const newline = part.indexOf('\n');
        text += newline === -1 ? part : part.slice(0, newline);
        if (newline !== -1 || read < chunk.length) break;
      }
    } finally {
      closeSync(fd);
    }
    const entry = parseState(Buffer.from(text, 'latin1').toString('utf8'));
    if (entry === undefined) throw new JournalError(`The journal ${this.path} is damaged at byte ${offset} (an account's state line cannot be read back).`);
    const flags = flagsOf(entry.f);
    return {
      sourceId: entry.x,
      role: entry.w,
      coreId: entry.c,
      callId: entry.i ?? entry.c,
      createdHere: (flags & StateFlag.createdHere) !== 0,
      untouched: (flags & StateFlag.untouched) !== 0,
      removed: (flags & StateFlag.removed) !== 0,
      digests: digestsOf(entry.g),
      ...(entry.a === undefined ? {} : { whole: Number.parseInt(entry.a, 16) }),
      ...(entry.e === undefined ? {} : { exported: Number.parseInt(entry.e, 16) }),
    };
  }

  /** The keyed digest of an operation's body: a changed record gets another digest and is sent again. */
  digest(operation: ImportOperation): string {
    // Asked several times per operation (lookup, step lines, outcome line): computed once.
    let digest = this.#digests.get(operation);
    if (digest === undefined) {
      digest = keyedDigest(this.#key, `${operation.operationKey}\n${JSON.stringify(operation.body)}`);
      this.#digests.set(operation, digest);
    }
    return digest;
  }

  /**
   * Writes the operation's `intent` line: its creation request is about to leave. The line is written (one write for
   * every operation announced in the same turn) before the promise resolves, so before the request: a kill after the
   * send cannot lose the fact that it was sent.
   */
  announce(operation: ImportOperation): Promise<void> | undefined {
    if (this.#writeError !== undefined) return Promise.reject(this.#writeError);
    if (this.#fd === undefined) return undefined;
    this.#startRun();
    const entry: JournalStepEntry = { k: operation.operationKey, d: this.digest(operation), s: 'intent' };
    this.#queue(`${JSON.stringify(entry)}\n`);
    this.#intentWritten ??= new Promise<void>((resolve, reject) => {
      queueMicrotask(() => {
        this.#intentWritten = undefined;
        try {
          this.#writePending();
          resolve();
        } catch (error) {
          this.#writeError = error;
          reject(error);
        }
      });
    });
    return this.#intentWritten;
  }

  /** The journalled result of this very operation (same key, same body), if any. */
  lookup(operation: ImportOperation): JournalledResult | undefined {
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
    this.#append(`${JSON.stringify(entry)}\n`);
  }

  /**
   * Appends the final outcome; it reaches the file within this event-loop turn. Throws when an earlier write failed
   * (disk full, file gone): nothing more may be sent if it cannot be journalled.
   */
  record(operation: ImportOperation, result: JournalledResult): void {
    if (this.#writeError !== undefined) throw this.#writeError;
    const entry: JournalEntry = { k: operation.operationKey, d: this.digest(operation), o: result.outcome };
    if (result.outcome === 'rejectedByCore' && result.reason !== undefined) entry.r = result.reason;
    // Not added to the resume index: a run meets each operation once, and the index serves the next run.
    if (this.#fd !== undefined) this.#appended += 1;
    this.#startRun();
    this.#append(`${JSON.stringify(entry)}\n`);
  }

  #queue(line: string): void {
    this.#pending.push(line);
    this.#end += Buffer.byteLength(line);
  }

  #append(line: string): void {
    if (this.#writeError !== undefined) throw this.#writeError;
    if (this.#fd === undefined) return;
    this.#queue(line);
    if (this.#pending.length >= MAX_PENDING_LINES) this.#writePending();
    else if (!this.#writeScheduled) {
      this.#writeScheduled = true;
      setImmediate(() => {
        this.#writeScheduled = false;
        try {
          this.#writePending();
        } catch (error) {
          this.#writeError = error;
        }
      });
    }
  }

  #writePending(): void {
    if (this.#fd !== undefined) this.#writePendingTo(this.#fd);
  }

  #writePendingTo(fd: number): void {
    if (this.#pending.length === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    writeFully(fd, text);
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
    this.#writePending();
    if (this.#fd !== undefined) fsyncSync(this.#fd);
  }

  /** Flushes, closes and unlocks; throws (after unlocking) when the last lines could not be written. */
  close(): void {
    try {
      if (this.#fd === undefined) return;
      const fd = this.#fd;
      this.#fd = undefined;
      try {
        this.#writePendingTo(fd);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
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
  const json = safeJson(line);
  const mark = JournalMarkSchema.safeParse(json);
  if (!mark.success) {
    throw new JournalError(`The file ${path} is not a core-migrate push journal (its first line is not a journal header); choose another --journal file.`);
  }
  if (!READABLE_VERSIONS.includes(mark.data.version)) {
    throw new JournalError(
      `The journal ${path} was written by another version of core-migrate (journal version ${mark.data.version}, this one reads ${JOURNAL_VERSION}). ` +
        'Pass a new --journal file: operations already done are sent again, which is safe (imports are idempotent).',
    );
  }
  const parsed = JournalHeaderSchema.safeParse(json);
  if (!parsed.success) {
    throw new JournalError(`The journal ${path} has a damaged header; move it aside and pass a new --journal file (re-sending is safe).`);
  }
  return parsed.data;
}

/** Where `core-migrate rollback` records its removals; its presence marks the journal as rolled back. */
export function rollbackRecordPath(journalPath: string): string {
  return `${journalPath}.rollback`;
}

/**
 * A rolled-back journal no longer says what is on the core: the users it records as done were removed on purpose,
 * so a resume would stop at the first one it checks (or, unchecked, skip users that are gone). It is refused with
 * the way on instead; a rollback that was interrupted is finished by running it again.
 */
async function rolledBackSentence(path: string): Promise<string | undefined> {
  const record = rollbackRecordPath(path);
  const info = await lstat(record).catch(() => undefined);
  if (info === undefined) return undefined;
  return (
    `The journal ${path} was rolled back (${record} records the users removed on purpose), so it no longer says what is on the core. ` +
    'To migrate again, pass a new --journal file: every user is sent again and the removed ones are created anew. ' +
    'If the rollback was interrupted, run it again first to finish it.'
  );
}

/** The digest key as text: derived from the api-key (HKDF inside `digestKey`) and the journal's salt. */
function digestKeyText(options: OpenJournalOptions, salt: string): string {
  return options.digestKey(salt).toString('base64');
}

/**
 * A key-prefixed one-shot SHA-256 rather than an HMAC: the same property here (the key is fixed-length and the
 * digest only compared, never extended), at a fraction of the cost per operation. 64 bits are kept.
 */
function keyedDigest(key: string, text: string): string {
  return hash('sha256', `${key}\n${text}`, 'base64url').slice(0, 11);
}

/** Length of the file up to and including its last newline: whatever follows is a torn write. */
async function lengthOfCompleteLines(path: string, size: number): Promise<number> {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline !== -1) return start + newline + 1;
      end = start;
    }
    return 0;
  } finally {
    await file.close();
  }
}
