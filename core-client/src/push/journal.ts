import { hash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { ImportOperation } from '../plan/operation.js';
import { SeenKeys } from '../plan/seen-keys.js';

/**
 * The journal: an append-only NDJSON file holding each operation's FINAL outcome, so a re-run skips what is done.
 *
 * Line 1 is a header naming the source file (its fingerprint) and the core it was pushed to; then one line per
 * answered operation: `{"k":operationKey,"d":digest,"o":outcome}` (and `r`, the core's sentence, for a refusal).
 * Lines are gathered for one event-loop turn (or 256 lines) and written with one synchronous write: an operation is
 * journalled once its line is written. A process killed before that loses the lines of its last turn; those
 * operations were answered but not journalled, so a resume sends them again, which is safe because both operations
 * are idempotent at the core (an import replaces the hash, sign-in-up updates the user). A torn last line (killed
 * mid-write) is cut off on the next open.
 *
 * The digest is a truncated SHA-256 of a random per-journal nonce and the operation's body. It lets a resume
 * tell a record that was fixed since (same location, other body: sent again) from the one that was done (skipped),
 * which the location-based key alone cannot. 64 bits of a keyed digest of a body that holds a salted hash reveal
 * nothing usable; the journal holds no hash, password, salt, email or key.
 */

export const journalledOutcomes = ['imported', 'alreadyExisted', 'created', 'existing', 'rejectedByCore', 'untouched'] as const;
export const JournalledOutcomeSchema = z.enum(journalledOutcomes);
export type JournalledOutcome = z.infer<typeof JournalledOutcomeSchema>;

const JOURNAL_MARK = 'core-migrate push journal';
const JOURNAL_VERSION = 1;

export const JournalHeaderSchema = z.object({
  journal: z.literal(JOURNAL_MARK),
  version: z.literal(JOURNAL_VERSION),
  source: z.string(),
  target: z.string(),
  digestNonce: z.string().min(16),
  createdAt: z.string(),
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

export const JournalEntrySchema = z.object({
  k: z.string(),
  d: z.string(),
  o: JournalledOutcomeSchema,
  r: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/**
 * The steps of one user, journalled as each completes (issue 13): `intent` is written ahead, synchronously, before
 * the user is created, so a resume knows that a user it finds was created by this migration; `created` keeps the
 * core's id (`u`) of a user this migration created (what a rollback removes), `found` the id of one that existed;
 * `mapped` keeps the old id it now carries (`x`). An operation's final line (`o`) comes after its last step.
 * Additive: a journal without step lines reads as before.
 */
export const journalSteps = ['intent', 'created', 'found', 'mapped', 'verified', 'metadata'] as const;
export type JournalStep = (typeof journalSteps)[number];

export const JournalStepEntrySchema = z.object({
  k: z.string(),
  d: z.string(),
  s: z.enum(journalSteps),
  /** The core's id of the user (created, found). An id, never an email or a secret. */
  u: z.string().optional(),
  /** The old id the user was mapped to (mapped). */
  x: z.string().optional(),
});
export type JournalStepEntry = z.infer<typeof JournalStepEntrySchema>;

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
  /** Where the operations go, as `CoreClient.describe()` says it (never a key). */
  target: string;
  /** Read what is there but never create or write the file (dry runs). */
  readOnly?: boolean;
}

/** Lines gathered at most before a write, whatever the event loop does. */
const MAX_PENDING_LINES = 256;

/** The outcome's place in `journalledOutcomes` is what the compact index keeps per operation. */
const outcomeIndex = new Map(journalledOutcomes.map((outcome, index) => [outcome, index]));

export class Journal {
  readonly path: string;
  readonly #nonce: string;
  #fd: number | undefined;
  /**
   * Done operations as 64-bit digests of (operationKey, body digest) in an open-addressing table, never as strings:
   * about 26 bytes each (a Map of strings measured 149 bytes per entry, 143 MiB per million operations).
   */
  readonly #done = new SeenKeys();
  /** Core refusals are rare; their sentences are kept apart, keyed like `#done`. */
  readonly #refusals = new Map<string, string>();
  /** Operations with steps journalled but no final line: only those in flight when a run ended, so few. */
  readonly #progress = new Map<string, StepProgress>();
  #appended = 0;
  #tornLineDropped = false;
  #pending: string[] = [];
  #writeScheduled = false;
  #writeError: unknown;

  private constructor(path: string, nonce: string, fd: number | undefined) {
    this.path = path;
    this.#nonce = nonce;
    this.#fd = fd;
  }

  /** Opens (or creates) a journal; refuses one written for another source file or another core. */
  static async open(path: string, options: OpenJournalOptions): Promise<Journal | JournalError> {
    const existingSize = await stat(path).then(
      (info) => info.size,
      () => undefined,
    );
    if (existingSize === undefined || existingSize === 0) return Journal.#create(path, options);
    try {
      return await Journal.#load(path, existingSize, options);
    } catch (error) {
      if (error instanceof JournalError) return error;
      return new JournalError(`The journal ${path} could not be read: ${(error as Error).message}.`);
    }
  }

  static #create(path: string, options: OpenJournalOptions): Journal {
    const nonce = randomBytes(24).toString('base64');
    if (options.readOnly === true) return new Journal(path, nonce, undefined);
    const header: JournalHeader = {
      journal: JOURNAL_MARK,
      version: JOURNAL_VERSION,
      source: options.sourceFingerprint,
      target: options.target,
      digestNonce: nonce,
      createdAt: new Date().toISOString(),
    };
    const fd = openSync(path, 'a');
    writeSync(fd, `${JSON.stringify(header)}\n`);
    return new Journal(path, nonce, fd);
  }

  static async #load(path: string, size: number, options: OpenJournalOptions): Promise<Journal> {
    const completeLength = await lengthOfCompleteLines(path, size);
    let journal: Journal | undefined;
    let lineNumber = 0;
    const lines: AsyncIterable<string> | Iterable<string> =
      completeLength === 0 ? [] : createInterface({ input: createReadStream(path, { end: completeLength - 1 }), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNumber += 1;
      if (journal === undefined) {
        journal = Journal.#fromHeader(path, line, options);
        continue;
      }
      if (line.trim() === '') continue;
      const step = parseStep(line);
      if (step !== undefined) {
        journal.#rememberStep(step);
        continue;
      }
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
      if (options.readOnly !== true) ftruncateFile(path, 0);
      return Journal.#create(path, options);
    }
    if (completeLength < size) {
      journal.#tornLineDropped = true;
      if (options.readOnly !== true) ftruncateFile(path, completeLength);
    }
    if (options.readOnly !== true) journal.#fd = openSync(path, 'a');
    return journal;
  }

  static #fromHeader(path: string, line: string, options: OpenJournalOptions): Journal {
    const parsed = JournalHeaderSchema.safeParse(safeJson(line));
    if (!parsed.success) {
      throw new JournalError(`The file ${path} is not a core-migrate push journal (its first line is not a journal header); choose another --journal file.`);
    }
    const header = parsed.data;
    if (header.source !== options.sourceFingerprint) {
      throw new JournalError(
        `The journal ${path} was written for a different source file (the export changed or is another one). ` +
          'Resuming from it could skip records that were never sent: pass a new --journal file (re-sending operations that ' +
          'were already done is safe, imports are idempotent), or push the original file.',
      );
    }
    if (header.target !== options.target) {
      throw new JournalError(
        `The journal ${path} records a push to ${header.target}, not to ${options.target}. ` +
          'Pass a new --journal file for this core, or connect to the core the journal was written for.',
      );
    }
    return new Journal(path, header.digestNonce, undefined);
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
    this.#done.recordLatest(doneKey, { position: outcomeIndex.get(entry.o) ?? 0, source: 0 });
    if (entry.o === 'rejectedByCore') this.#refusals.set(doneKey, entry.r ?? 'refused by the core');
    else this.#refusals.delete(doneKey);
  }

  /** The keyed digest of an operation's body: a changed record gets another digest and is sent again. */
  digest(operation: ImportOperation): string {
    // A nonce-prefixed one-shot SHA-256 rather than an HMAC: the same property here (the nonce is fixed-length and
    // the digest only compared, never extended), at a fraction of the cost per operation.
    return hash('sha256', `${this.#nonce}\n${operation.operationKey}\n${JSON.stringify(operation.body)}`, 'base64url').slice(0, 11);
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

  /**
   * Journals a completed step. `writeAhead` writes it (with everything pending) before returning, for the line that
   * must be in the file before the request it announces is sent.
   */
  recordStep(operation: ImportOperation, step: JournalStep, ids: { u?: string; x?: string } = {}, writeAhead = false): void {
    const entry: JournalStepEntry = { k: operation.operationKey, d: this.digest(operation), s: step, ...ids };
    this.#append(`${JSON.stringify(entry)}\n`);
    if (writeAhead) this.#writePending();
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
    this.#append(`${JSON.stringify(entry)}\n`);
  }

  #append(line: string): void {
    if (this.#writeError !== undefined) throw this.#writeError;
    if (this.#fd === undefined) return;
    this.#pending.push(line);
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
    if (this.#fd === undefined || this.#pending.length === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    writeSync(this.#fd, text);
  }

  /** Operations (distinct key and body) this journal holds as done or refused. */
  get entries(): number {
    return this.#done.size;
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

  close(): void {
    if (this.#fd === undefined) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const stepNames: ReadonlySet<string> = new Set(journalSteps);

/**
 * A step line, or undefined. Checked by hand rather than with the schema: a journal holds up to five step lines per
 * user, and this keeps a resume's load about as fast as before them (JournalStepEntrySchema says the same).
 */
function parseStep(line: string): JournalStepEntry | undefined {
  if (!line.includes('"s":')) return undefined;
  const value = safeJson(line);
  if (typeof value !== 'object' || value === null) return undefined;
  const { k, d, s, u, x } = value as Record<string, unknown>;
  if (typeof k !== 'string' || typeof d !== 'string' || typeof s !== 'string' || !stepNames.has(s)) return undefined;
  if ((u !== undefined && typeof u !== 'string') || (x !== undefined && typeof x !== 'string')) return undefined;
  return { k, d, s: s as JournalStep, ...(u === undefined ? {} : { u }), ...(x === undefined ? {} : { x }) };
}

function parseEntry(line: string): JournalEntry | undefined {
  const parsed = JournalEntrySchema.safeParse(safeJson(line));
  return parsed.success ? parsed.data : undefined;
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

function ftruncateFile(path: string, length: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, length);
  } finally {
    closeSync(fd);
  }
}
