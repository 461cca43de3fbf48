import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { firebaseCsvWidth } from './firebase/firebase-csv.js';
import { SourceError } from './source-error.js';
import type { SourceFormat } from './source-format.js';
import { openText, withoutGzipExtension } from './text/open-text.js';

const HEAD_CHARS = 64 * 1024;
const jsonExtensions = new Set(['.json', '.ndjson', '.jsonl']);

async function readHead(path: string): Promise<string> {
  let head = '';
  for await (const chunk of openText(path)) {
    head += chunk;
    if (head.length >= HEAD_CHARS) break;
  }
  return head;
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, '');
}

function detectJsonFamily(path: string, head: string): SourceFormat | SourceError {
  const text = head.trimStart();
  if (text.startsWith('[')) return 'json-array';
  if (/^\{\s*"users"\s*:/.test(text)) return 'firebase-json';
  let firstObject: unknown;
  try {
    firstObject = JSON.parse(firstLine(text));
  } catch {
    return new SourceError(
      'unknown-format',
      { file: path, line: 1 },
      'a JSON object that is neither a Firebase export (no leading "users" key) nor one object per line; name the format with --format',
    );
  }
  if (typeof firstObject !== 'object' || firstObject === null) {
    return new SourceError('unknown-format', { file: path, line: 1 }, 'the first line is not a JSON object');
  }
  const isAuth0 = 'user_id' in firstObject || ('_id' in firstObject && 'passwordHash' in firstObject);
  return isAuth0 ? 'auth0' : 'ndjson';
}

function detectCsvFamily(path: string, head: string): SourceFormat | SourceError {
  try {
    const [fields] = parse(firstLine(head.trimStart()), { relax_column_count: true }) as string[][];
    return fields !== undefined && firebaseCsvWidth(fields) !== undefined ? 'firebase-csv' : 'csv';
  } catch {
    return new SourceError('unknown-format', { file: path, line: 1 }, 'the first line is neither JSON nor readable CSV; name the format with --format');
  }
}

/**
 * Guesses the format from the name (a `.gz` suffix aside) and the first bytes: `{"users":` is a Firebase
 * export, `[` a JSON array, an object per line NDJSON (Auth0 when it has Auth0's keys), and a CSV first row of
 * Firebase's width (28 or 52 columns and a trailing comma) a Firebase CSV, any other CSV a header row.
 */
export async function detectFormat(path: string): Promise<SourceFormat | SourceError> {
  let head: string;
  try {
    head = await readHead(path);
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  const extension = extname(withoutGzipExtension(path)).toLowerCase();
  const first = head.trimStart().charAt(0);
  const looksJson = first === '{' || first === '[';
  if (extension === '.csv') return detectCsvFamily(path, head);
  if (jsonExtensions.has(extension) && !looksJson) {
    return new SourceError('wrong-format', { file: path, line: 1, byteOffset: 0 }, `the name ends in ${extension} but the file does not start with "{" or "["`);
  }
  return looksJson ? detectJsonFamily(path, head) : detectCsvFamily(path, head);
}
