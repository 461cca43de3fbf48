import { type CsvError, parse } from 'csv-parse/sync';
import type { TextLine } from '../text/lines.js';

export interface CsvRow {
  readonly kind: 'row';
  /** Line where the record starts (a quoted field may span lines). */
  readonly line: number;
  readonly fields: string[];
}

export interface CsvRowError {
  readonly kind: 'row-error';
  readonly line: number;
  readonly reason: string;
}

export interface CsvRowLimits {
  /** Longest record (in characters) a quoted field may stretch to before its opening quote is judged stray. */
  readonly maxRecordChars: number;
  /** Records parsed together in one csv-parse call: the per-call set-up cost is what dominates otherwise. */
  readonly batchRecords: number;
}

const defaultLimits: CsvRowLimits = { maxRecordChars: 1 << 20, batchRecords: 256 };

interface LogicalRecord {
  readonly line: number;
  readonly lines: TextLine[];
}

function quoteCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count += 1;
  return count;
}

function recordText(records: readonly LogicalRecord[]): string {
  return records.map((record) => record.lines.map((line) => line.text).join('\n')).join('\n');
}

function parseFields(text: string): string[][] {
  return parse(text, { relax_column_count: true, skip_empty_lines: false });
}

/** A reason that names the problem without repeating the field's value (it could be a password hash). */
function describeCsvError(error: unknown): string {
  const csvError = error as Partial<CsvError> & { column?: number | string };
  const column = typeof csvError.column === 'number' ? ` in column ${csvError.column + 1}` : '';
  switch (csvError.code) {
    case 'INVALID_OPENING_QUOTE':
      return `stray quote${column}: a quote may only open a field, or be doubled ("") inside a quoted field`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `stray quote${column}: a closing quote must be followed by a comma or the end of the line`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    default:
      return `the row cannot be read as CSV (${csvError.code ?? 'unknown error'})`;
  }
}

/**
 * Streams CSV records with their line numbers, such that one broken row costs that row only.
 *
 * csv-parse, after a stray closing quote, keeps reading the rest of the file as one quoted field. So lines are
 * first grouped into records by quote parity (a line break ends a record only outside quotes), records are
 * parsed in batches, and a batch that fails is read again one record at a time; a record that fails alone
 * gives up its first line only, and the lines after it are grouped anew. An opening quote not closed within
 * `maxRecordChars` (or by the end of the file) gives up its first line the same way, so memory stays bounded.
 */
export async function* readCsvRows(source: AsyncIterable<TextLine>, limits: CsvRowLimits = defaultLimits): AsyncGenerator<CsvRow | CsvRowError> {
  const iterator = source[Symbol.asyncIterator]();
  let requeued: TextLine[] = [];
  let requeuedAt = 0;
  /** Records that start on or before this line are parsed one at a time (they were in a batch that failed). */
  let slowThroughLine = 0;
  let pending: TextLine[] = [];
  let pendingChars = 0;
  let insideQuotes = false;
  let batch: LogicalRecord[] = [];

  const nextLine = async (): Promise<TextLine | undefined> => {
    if (requeuedAt < requeued.length) return requeued[requeuedAt++];
    const next = await iterator.next();
    return next.done ? undefined : next.value;
  };
  const readAgain = (lines: readonly TextLine[]): void => {
    requeued = [...lines, ...requeued.slice(requeuedAt)];
    requeuedAt = 0;
  };
  const clearPending = (): void => {
    pending = [];
    pendingChars = 0;
    insideQuotes = false;
  };

  /** Parses the batch; on failure puts its lines (and the pending ones) back to be read one record at a time. */
  const flushBatch = (): CsvRow[] => {
    if (batch.length === 0) return [];
    const records = batch;
    batch = [];
    try {
      const rows = parseFields(recordText(records));
      if (rows.length === records.length) {
        return rows.map((fields, index) => ({ kind: 'row', line: (records[index] as LogicalRecord).line, fields }));
      }
    } catch {
      // read again below, one record at a time
    }
    const lines = records.flatMap((record) => record.lines);
    slowThroughLine = Math.max(slowThroughLine, (lines[lines.length - 1] as TextLine).number);
    readAgain([...lines, ...pending]);
    clearPending();
    return [];
  };

  const parseAlone = (record: LogicalRecord): CsvRow | CsvRowError => {
    try {
      const rows = parseFields(recordText([record]));
      if (rows.length === 1) return { kind: 'row', line: record.line, fields: rows[0] as string[] };
      throw new Error('more than one record');
    } catch (error) {
      readAgain(record.lines.slice(1));
      return { kind: 'row-error', line: record.line, reason: describeCsvError(error) };
    }
  };

  const giveUpFirstPendingLine = (reason: string): CsvRowError => {
    const [first, ...rest] = pending as [TextLine, ...TextLine[]];
    clearPending();
    readAgain(rest);
    return { kind: 'row-error', line: first.number, reason };
  };

  for (;;) {
    const line = await nextLine();
    if (line === undefined) {
      // A batch that fails puts its lines back, so the end of input is only final once nothing is left over.
      if (batch.length > 0) {
        yield* flushBatch();
        continue;
      }
      if (pending.length > 0) {
        yield giveUpFirstPendingLine('a quoted field is never closed (stray quote?)');
        continue;
      }
      return;
    }
    if (pending.length === 0 && line.text.length === 0) continue;
    pending.push(line);
    pendingChars += line.text.length + 1;
    if (quoteCount(line.text) % 2 === 1) insideQuotes = !insideQuotes;
    if (insideQuotes) {
      if (pendingChars > limits.maxRecordChars) {
        yield* flushBatch();
        if (pending.length > 0) {
          yield giveUpFirstPendingLine(`a quoted field is not closed within ${limits.maxRecordChars} characters (stray quote?)`);
        }
      }
      continue;
    }
    const record: LogicalRecord = { line: (pending[0] as TextLine).number, lines: pending };
    if (record.line <= slowThroughLine) {
      // Still pending while the batch is flushed, so a failing batch puts this record back after its own lines.
      yield* flushBatch();
      if (pending.length === 0) continue;
      clearPending();
      yield parseAlone(record);
      continue;
    }
    clearPending();
    batch.push(record);
    if (batch.length >= limits.batchRecords) yield* flushBatch();
  }
}
