import { SourceError } from '../source-error.js';
import type { TextLine } from '../text/lines.js';
import { MAX_RECORD_DEPTH, TOO_DEEP_REASON, nestsDeeperThan } from './json-depth.js';

export type NdjsonEntry =
  | { readonly kind: 'object'; readonly line: number; readonly value: Record<string, unknown> }
  | { readonly kind: 'bad-line'; readonly line: number; readonly reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One JSON object per line (blank lines skipped). A bad line later on is a bad record; a first line that is not
 * JSON at all means the file is not NDJSON (a pretty-printed JSON file, a CSV...). A first line of JSON that is no
 * object (`null`, a number) is one bad record, as the same line later is.
 */
export async function* readNdjsonObjects(file: string, lines: AsyncIterable<TextLine>): AsyncGenerator<NdjsonEntry> {
  let first = true;
  for await (const { number, text } of lines) {
    if (text.trim().length === 0) continue;
    let value: unknown;
    let problem: string | undefined;
    let notJson = false;
    try {
      value = JSON.parse(text);
      if (!isObject(value)) problem = 'the line is not a JSON object';
    } catch (error) {
      notJson = true;
      problem = `the line is not valid JSON (${(error as Error).message})`;
    }
    // A first `[` is a JSON array's start (or a pretty-printed file's), not one record.
    if (first && (notJson || Array.isArray(value))) {
      throw new SourceError('wrong-format', { file, line: number }, `expected one JSON object per line (NDJSON): ${problem}`);
    }
    first = false;
    // A line too deep is still NDJSON: one bad record, not the wrong format.
    if (problem === undefined && nestsDeeperThan(text, MAX_RECORD_DEPTH)) problem = TOO_DEEP_REASON;
    yield problem === undefined
      ? { kind: 'object', line: number, value: value as Record<string, unknown> }
      : { kind: 'bad-line', line: number, reason: problem };
  }
}
