import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { isCognitoCsvHeader } from './cognito/cognito-csv.js';
import { firebaseCsvWidth } from './firebase/firebase-csv.js';
import { SourceError } from './source-error.js';
import type { SourceFormat } from './source-format.js';
import { DEFAULT_MAX_LINE_BYTES, lineTooLong } from './text/lines.js';
import { openText, withoutGzipExtension } from './text/open-text.js';

/** Enough to decide most files at once; a longer first line is read on to its end, up to the line limit. */
const HEAD_CHARS = 64 * 1024;
const jsonExtensions = new Set(['.json', '.ndjson', '.jsonl']);

interface Head {
  text: string;
  /** False when the first line with content did not end within the line limit. */
  firstLineComplete: boolean;
}

/** `aws cognito-idp list-users` output: its `Users` key comes first. */
const COGNITO_JSON_START = /^\{\s*"Users"\s*:/;

/** A JSON array or a Firebase export is told by its first characters: no need to read its (maybe endless) first line. */
function decidedByStart(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith('[') || /^\{\s*"users"\s*:/.test(start) || COGNITO_JSON_START.test(start);
}

/**
 * The file's first characters: at least HEAD_CHARS, and on to the end of the first line that has content (the
 * NDJSON and CSV checks parse it whole), but never more than the line limit. Each chunk is looked at once.
 */
async function readHead(path: string, maxLineBytes: number): Promise<Head> {
  const pieces: string[] = [];
  let length = 0;
  let contentStarted = false;
  let firstLineEnded = false;
  let checkedStart = false;
  for await (const chunk of openText(path)) {
    pieces.push(chunk);
    length += chunk.length;
    if (!firstLineEnded) {
      const from = contentStarted ? 0 : chunk.search(/\S/);
      if (from !== -1) {
        contentStarted = true;
        firstLineEnded = chunk.indexOf('\n', from) !== -1;
      }
    }
    if (length < HEAD_CHARS) continue;
    if (firstLineEnded) break;
    if (!checkedStart) {
      checkedStart = true;
      if (decidedByStart(pieces.join(''))) break;
    }
    // Characters, not bytes: a bound of the same size, reached no later than the readers' own.
    if (length > maxLineBytes) return { text: pieces.join(''), firstLineComplete: false };
  }
  return { text: pieces.join(''), firstLineComplete: true };
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, '');
}

function parsedJson(line: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(line) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A line holding JSON but no object (`null`, a number, `true`; text too when the name says JSON, since a CSV's one
 * quoted header reads as JSON text): an NDJSON record the reader refuses, as any later one.
 */
function isJsonNonObject(line: string, textToo: boolean): boolean {
  const parsed = parsedJson(line.trim());
  if (parsed === undefined) return false;
  return parsed.value === null || ['number', 'boolean'].includes(typeof parsed.value) || (textToo && typeof parsed.value === 'string');
}

/**
 * The first object among the head's lines. A line of another JSON value is skipped: it is one record that the reader
 * refuses, wherever it stands (the first line as any other). Stops at a line that is not JSON (the head's last line
 * may be cut short).
 */
function firstJsonObject(text: string): object | undefined {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parsedJson(line);
    if (parsed === undefined) return undefined;
    if (typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)) return parsed.value;
  }
  return undefined;
}

function detectJsonFamily(path: string, head: string): SourceFormat | SourceError {
  const text = head.trimStart();
  if (text.startsWith('[')) return 'json-array';
  if (/^\{\s*"users"\s*:/.test(text)) return 'firebase-json';
  if (COGNITO_JSON_START.test(text)) return 'cognito-json';
  if (parsedJson(firstLine(text)) === undefined) {
    return new SourceError(
      'unknown-format',
      { file: path, line: 1 },
      'a JSON object that is neither a Firebase export (no leading "users" key) nor one object per line; name the format with --format',
    );
  }
  const object = firstJsonObject(text);
  const isAuth0 = object !== undefined && ('user_id' in object || ('_id' in object && 'passwordHash' in object));
  return isAuth0 ? 'auth0' : 'ndjson';
}

function detectCsvFamily(path: string, head: string): SourceFormat | SourceError {
  try {
    const [fields] = parse(firstLine(head.trimStart()), { relax_column_count: true }) as string[][];
    if (fields !== undefined && isCognitoCsvHeader(fields)) return 'cognito-csv';
    return fields !== undefined && firebaseCsvWidth(fields) !== undefined ? 'firebase-csv' : 'csv';
  } catch {
    return new SourceError('unknown-format', { file: path, line: 1 }, 'the first line is neither JSON nor readable CSV; name the format with --format');
  }
}

/**
 * Guesses the format from the name (a `.gz` suffix aside) and the first bytes: `{"users":` is a Firebase
 * export, `[` a JSON array, an object per line NDJSON (Auth0 when its first object has Auth0's keys; a line of
 * `null` or a number before it is a record the reader refuses, not the end of the file), and a CSV first row of
 * Firebase's width (28 or 52 columns and a trailing comma) a Firebase CSV, any other CSV a header row. Cognito:
 * `{"Users":` is `list-users` output, a CSV header with `cognito:username` its user-import layout.
 */
export async function detectFormat(path: string, maxLineBytes: number = DEFAULT_MAX_LINE_BYTES): Promise<SourceFormat | SourceError> {
  let read: Head;
  try {
    read = await readHead(path, maxLineBytes);
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  const head = read.text;
  if (!read.firstLineComplete && !decidedByStart(head)) return lineTooLong(path, 1, 0, maxLineBytes);
  const extension = extname(withoutGzipExtension(path)).toLowerCase();
  const first = head.trimStart().charAt(0);
  const looksJson = first === '{' || first === '[' || isJsonNonObject(firstLine(head.trimStart()), jsonExtensions.has(extension));
  if (extension === '.csv') return detectCsvFamily(path, head);
  if (jsonExtensions.has(extension) && !looksJson) {
    return new SourceError(
      'wrong-format',
      { file: path, line: 1, byteOffset: 0 },
      `the name ends in ${extension} but the file does not start with "{" or "[" (nor with a line of JSON)`,
    );
  }
  return looksJson ? detectJsonFamily(path, head) : detectCsvFamily(path, head);
}
