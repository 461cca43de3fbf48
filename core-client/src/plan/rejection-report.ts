import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { openOutputFile, OutputPathError, outputErrorSentence, type NamedFile } from '../files/output-paths.js';
import { formatLocation } from '../location.js';
import type { PlanRejection } from './operation.js';

/** One line of a report: where, who, what, and why — never a hash, a salt or a secret. */
export interface ReportLine {
  stage: 'plan' | 'core';
  location: string;
  email?: string;
  /** The user's id in the old system. */
  sourceId?: string;
  operation?: string;
  code: string;
  reason: string;
  /**
   * Said of a record that was not refused: its user is in the core (created, found, or left as it was) or a sync's
   * change of it was done, and the line says something more (a separate account, a hash replaced). Absent on a
   * record not imported (refused by the plan, or failed at the core).
   */
  note?: true;
}

/**
 * The first line each run appends: the report keeps every run's lines (a resume or a dry run must not erase the
 * list of users whose hash an earlier run replaced), and this says where one run's lines begin.
 */
export interface ReportRunHeader {
  stage: 'run';
  command: 'plan' | 'push' | 'sync';
  startedAt: string;
  dryRun?: boolean;
  source: string;
}

export function reportLineOfRejection(rejection: PlanRejection): ReportLine {
  return {
    stage: 'plan',
    location: formatLocation(rejection.location),
    ...(rejection.email !== undefined && { email: rejection.email }),
    ...(rejection.sourceId !== undefined && { sourceId: rejection.sourceId }),
    ...(rejection.operation !== undefined && { operation: rejection.operation }),
    code: rejection.code,
    reason: rejection.reason,
  };
}

/**
 * An NDJSON report, appended to (never truncated), opened without following a link and created owner-only.
 * Writers share one wait for 'drain': hundreds of operations reporting at once must not stack a listener each.
 */
export class ReportWriter {
  readonly #stream: WriteStream;
  readonly #file: NamedFile;
  #lines = 0;
  #drained: Promise<void> | undefined;
  #error: OutputPathError | undefined;

  constructor(file: NamedFile, header: Omit<ReportRunHeader, 'stage' | 'startedAt'>) {
    this.#file = file;
    const fd = openOutputFile(file, { append: true });
    this.#stream = createWriteStream('', { fd, encoding: 'utf8' });
    this.#stream.on('error', (error: NodeJS.ErrnoException) => {
      this.#error ??= new OutputPathError(outputErrorSentence(error, this.#file), this.#file.role);
    });
    const runHeader: ReportRunHeader = { stage: 'run', startedAt: new Date().toISOString(), ...header };
    this.#stream.write(`${JSON.stringify(runHeader)}\n`);
  }

  get path(): string {
    return this.#file.path;
  }

  /** Report lines of this run (the run header not counted). */
  get lines(): number {
    return this.#lines;
  }

  /** Resolves once the line is buffered; rejects with a sentence once the file cannot be written. */
  async write(line: ReportLine): Promise<void> {
    if (this.#error !== undefined) throw this.#error;
    this.#lines += 1;
    if (this.#stream.write(`${JSON.stringify(line)}\n`)) return;
    this.#drained ??= this.#waitForDrain();
    await this.#drained;
    if (this.#error !== undefined) throw this.#error;
  }

  async #waitForDrain(): Promise<void> {
    try {
      await once(this.#stream, 'drain');
    } catch {
      // The stream's 'error' listener keeps the sentence; write() throws it.
    } finally {
      this.#drained = undefined;
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#stream.end(() => resolve()));
    if (this.#error !== undefined) throw this.#error;
  }
}
