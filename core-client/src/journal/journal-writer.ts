import { closeSync, fsyncSync } from 'node:fs';
import { writeFully } from '../files/output-paths.js';

/** Lines gathered at most before a write, whatever the event loop does. */
const MAX_PENDING_LINES = 256;

/**
 * The journal's lines on their way to the file: gathered for one event-loop turn (or 256 lines) and written with one
 * synchronous write. Without a file (a dry run's read-only journal) nothing is written. Once a write failed, every
 * later line throws that failure: nothing more may be sent if it cannot be journalled.
 */
export class JournalWriter {
  #fd: number | undefined;
  #pending: string[] = [];
  #writeScheduled = false;
  #writeError: unknown;
  #intentWritten: Promise<void> | undefined;
  /** Bytes in the file once every pending line is written: where the next line starts. */
  #end: number;

  constructor(fd: number | undefined, end: number) {
    this.#fd = fd;
    this.#end = end;
  }

  /** Whether lines reach a file (not a read-only journal, not closed). */
  get writes(): boolean {
    return this.#fd !== undefined;
  }

  get end(): number {
    return this.#end;
  }

  /** Throws when an earlier write failed (disk full, file gone). */
  throwIfFailed(): void {
    if (this.#writeError !== undefined) throw this.#writeError;
  }

  append(line: string): void {
    this.throwIfFailed();
    if (this.#fd === undefined) return;
    this.#queue(line);
    if (this.#pending.length >= MAX_PENDING_LINES) this.writePending();
    else if (!this.#writeScheduled) {
      this.#writeScheduled = true;
      setImmediate(() => {
        this.#writeScheduled = false;
        try {
          this.writePending();
        } catch (error) {
          this.#writeError = error;
        }
      });
    }
  }

  /**
   * Queues a line (made only when it is written) that must be in the file before the promise resolves (an `intent` line: before its request leaves),
   * with one write for every such line of the same turn.
   */
  appendBefore(lineOf: () => string): Promise<void> | undefined {
    if (this.#writeError !== undefined) return Promise.reject(this.#writeError);
    if (this.#fd === undefined) return undefined;
    this.#queue(lineOf());
    this.#intentWritten ??= new Promise<void>((resolve, reject) => {
      queueMicrotask(() => {
        this.#intentWritten = undefined;
        try {
          this.writePending();
          resolve();
        } catch (error) {
          this.#writeError = error;
          reject(error);
        }
      });
    });
    return this.#intentWritten;
  }

  #queue(line: string): void {
    this.#pending.push(line);
    this.#end += Buffer.byteLength(line);
  }

  writePending(): void {
    if (this.#fd !== undefined) this.#writePendingTo(this.#fd);
  }

  #writePendingTo(fd: number): void {
    if (this.#pending.length === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    writeFully(fd, text);
  }

  /** Pushes written lines to the disk itself, not just the page cache (which already survives a killed process). */
  flush(): void {
    this.writePending();
    if (this.#fd !== undefined) fsyncSync(this.#fd);
  }

  /** Writes what is pending, syncs and closes; throws when the last lines could not be written. */
  close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      this.#writePendingTo(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
