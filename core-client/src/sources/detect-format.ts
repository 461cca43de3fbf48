import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { isClerkCsvHeader } from './clerk/clerk-csv.js';
import { isSqliteFile } from './better-auth/sqlite-file.js';
import { isCognitoCsvHeader } from './cognito/cognito-csv.js';
import { firebaseCsvWidth } from './firebase/firebase-csv.js';
import { FirebaseShapeProbe, firebaseShapeOf, type ObjectFileShape } from './firebase/firebase-json.js';
import { type FieldMapping, defaultFieldMapping } from './generic/field-mapping.js';
import { JsonArrayScanner } from './json/json-array-scanner.js';
import { isFolder, keycloakFolderFiles } from './keycloak/keycloak-export.js';
import { systemOfRecord } from './record-systems.js';
import { SourceError } from './source-error.js';
import type { SourceFormat } from './source-format.js';
import { isSupabaseCsvHeader } from './supabase/supabase-files.js';
import { DEFAULT_MAX_LINE_BYTES, lineTooLong } from './text/lines.js';
import { openText, withoutGzipExtension } from './text/open-text.js';
import { optional, optionalFrom } from '../optional.js';

/** Enough to decide most files at once; a longer first line is read on to its end, up to the line limit. */
const HEAD_CHARS = 64 * 1024;
const jsonExtensions = new Set(['.json', '.ndjson', '.jsonl']);

interface Head {
  text: string;
  /** False when the first line with content did not end within the line limit. */
  firstLineComplete: boolean;
  /** True when the text is the whole file. */
  wholeFile: boolean;
  /** For a file that starts with `{`: its shape, when the text read settles it. */
  objectShape?: ObjectFileShape;
  /** The text of the first element of its `users` array, when read. */
  firstUser?: string;
}

/** `aws cognito-idp list-users` output: its `Users` key comes first. */
const COGNITO_JSON_START = /^\{\s*"Users"\s*:/;

/** `kc.sh export` writes a realm's `id` and `realm` first, and a users file's `realm` first. */
const KEYCLOAK_JSON_START = /^\{\s*(?:"id"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?"realm"\s*:/;

/** A JSON array or a Firebase export is told by its first characters: no need to read its (maybe endless) first line. */
function decidedByStart(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith('[') || /^\{\s*"users"\s*:/.test(start) || COGNITO_JSON_START.test(start) || KEYCLOAK_JSON_START.test(start);
}

/**
 * The file's first characters: at least HEAD_CHARS, and on to the end of the first line that has content (the
 * NDJSON and CSV checks parse it whole), but never more than the line limit; less when an object's first user shows
 * it is a Firebase export (a one-line export is not read whole). Each chunk is looked at once.
 */
async function readHead(path: string, maxLineBytes: number): Promise<Head> {
  const pieces: string[] = [];
  let length = 0;
  let contentStarted = false;
  let firstLineEnded = false;
  let checkedStart = false;
  let probe: FirebaseShapeProbe | undefined;
  for await (const chunk of openText(path)) {
    pieces.push(chunk);
    length += chunk.length;
    if (!firstLineEnded) {
      const from = contentStarted ? 0 : chunk.search(/\S/);
      if (from !== -1) {
        if (!contentStarted && chunk.charAt(from) === '{') probe = new FirebaseShapeProbe();
        contentStarted = true;
        firstLineEnded = chunk.indexOf('\n', from) !== -1;
      }
    }
    if (probe?.feed(chunk) === 'firebase') {
      return { text: pieces.join(''), firstLineComplete: firstLineEnded, wholeFile: false, objectShape: 'firebase', ...optional('firstUser', probe.firstUser) };
    }
    if (length < HEAD_CHARS) continue;
    if (firstLineEnded) return { text: pieces.join(''), firstLineComplete: true, wholeFile: false };
    if (!checkedStart) {
      checkedStart = true;
      if (decidedByStart(pieces.join(''))) return { text: pieces.join(''), firstLineComplete: true, wholeFile: false };
    }
    // Characters, not bytes: a bound of the same size, reached no later than the readers' own.
    if (length > maxLineBytes) return { text: pieces.join(''), firstLineComplete: false, wholeFile: false };
  }
  return {
    text: pieces.join(''),
    firstLineComplete: true,
    wholeFile: true,
    ...optionalFrom('objectShape', probe, (started) => started.end()),
    ...optional('firstUser', probe?.firstUser),
  };
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether an object alone in a file is one user of an NDJSON export: it has a key an NDJSON reader takes a user's
 * field from (a column of the field mapping, its top-level key for `a.b`; Auth0's `user_id` or `_id`). Any other
 * lone object is of a shape no reader knows (docs/exports.md).
 */
function isUserRecord(object: Record<string, unknown>, mapping: FieldMapping): boolean {
  const keys = new Set(['user_id', '_id', ...Object.values(mapping).map((column) => column.split('.')[0] ?? column)]);
  return Object.keys(object).some((key) => keys.has(key));
}

function unknownObject(path: string): SourceError {
  return new SourceError(
    'unknown-object',
    { file: path },
    'one JSON object of no shape core-migrate reads; it reads a Firebase export (an object whose "users" key holds the users), a JSON array of users, and one user object per line (NDJSON, Auth0): set {setting} if the file is one of these',
    { setting: 'format' },
  );
}

/** The text after the first line holds nothing but blanks: as far as the head shows, the first line is alone. */
function firstLineAlone(text: string): boolean {
  const end = text.indexOf('\n');
  return end === -1 || text.slice(end + 1).trim() === '';
}

/**
 * A file whose first line is not JSON by itself (an object over many lines, or one line longer than the limit) is
 * read on as one object until its `users` array shows.
 */
async function detectObjectFile(path: string, read: Head, maxLineBytes: number): Promise<SourceFormat | SourceError> {
  const shape = read.objectShape ?? (await firebaseShapeOf(path));
  if (shape === 'firebase') return usersArrayFormat(read);
  if (!read.firstLineComplete) return lineTooLong(path, 1, 0, maxLineBytes);
  if (shape === 'other-object') return unknownObject(path);
  return new SourceError(
    'unknown-format',
    { file: path, line: 1 },
    'a JSON object that is neither a Firebase export (no "users" array) nor one object per line; name the format with --format',
  );
}

/** The format of an object whose `users` array holds the users: a Keycloak realm's users are told by their own keys. */
function usersArrayFormat(read: Head): SourceFormat {
  const first = read.firstUser === undefined ? undefined : parsedJson(read.firstUser);
  return systemOfRecord(first?.value)?.format === 'keycloak' ? 'keycloak' : 'firebase-json';
}

/** The first element of a JSON array whose start the head holds, when the head holds it whole. */
function firstArrayElement(text: string): unknown {
  const scanner = new JsonArrayScanner();
  try {
    scanner.scan(text);
  } catch {
    // The elements before a broken place are still there to take.
  }
  const [first] = scanner.take();
  return first === undefined || !('text' in first) ? undefined : parsedJson(first.text)?.value;
}

/** Okta's Users API pages are arrays (or lines) of users whose shape is Okta's alone; any other is read through a mapping. */
const oktaOr = (value: unknown, otherwise: SourceFormat): SourceFormat => (systemOfRecord(value)?.format === 'okta' ? 'okta' : otherwise);

async function detectJsonFamily(path: string, read: Head, maxLineBytes: number, mapping: FieldMapping): Promise<SourceFormat | SourceError> {
  const text = read.text.trimStart();
  if (text.startsWith('[')) return looksLikeSupabaseRows(text) ? 'supabase' : oktaOr(firstArrayElement(text), 'json-array');
  if (KEYCLOAK_JSON_START.test(text)) return 'keycloak';
  if (/^\{\s*"users"\s*:/.test(text) || read.objectShape === 'firebase') return usersArrayFormat(read);
  if (COGNITO_JSON_START.test(text)) return 'cognito-json';
  const line = read.firstLineComplete ? parsedJson(firstLine(text)) : undefined;
  if (line === undefined) return detectObjectFile(path, read, maxLineBytes);
  if (isPlainObject(line.value)) {
    if (Array.isArray(line.value.users)) return systemOfRecord(line.value.users[0])?.format === 'keycloak' ? 'keycloak' : 'firebase-json';
    // A lone object that is no user: unless later text makes the file NDJSON, the whole file is this object.
    const alone = !isUserRecord(line.value, mapping) && firstLineAlone(text);
    if (alone && (read.wholeFile || (read.objectShape ?? (await firebaseShapeOf(path))) === 'other-object')) return unknownObject(path);
  }
  const object = firstJsonObject(text);
  const isAuth0 = object !== undefined && ('user_id' in object || ('_id' in object && 'passwordHash' in object));
  return isAuth0 ? 'auth0' : oktaOr(object, 'ndjson');
}

/** A JSON array whose first element is a row of Supabase's `auth.users` (the SQL editor's export of it). */
function looksLikeSupabaseRows(text: string): boolean {
  return /^\[\s*\{/.test(text) && /"encrypted_password"\s*:/.test(text) && /"raw_app_meta_data"\s*:/.test(text);
}

function detectCsvFamily(path: string, head: string): SourceFormat | SourceError {
  try {
    const [fields] = parse(firstLine(head.trimStart()), { relax_column_count: true }) as string[][];
    if (fields !== undefined && isCognitoCsvHeader(fields)) return 'cognito-csv';
    if (fields !== undefined && isClerkCsvHeader(fields)) return 'clerk';
    if (fields !== undefined && isSupabaseCsvHeader(fields)) return 'supabase';
    return fields !== undefined && firebaseCsvWidth(fields) !== undefined ? 'firebase-csv' : 'csv';
  } catch {
    return new SourceError('unknown-format', { file: path, line: 1 }, 'the first line is neither JSON nor readable CSV; name the format with --format');
  }
}

function notBetterAuthSqlite(path: string): SourceError {
  return new SourceError(
    'unknown-format',
    { file: path },
    "a SQLite database without Better Auth's user and account tables: core-migrate reads a SQLite file as Better Auth's database",
  );
}

/**
 * Guesses the format from the name (a `.gz` suffix aside) and the first bytes: an object whose `users` key holds an
 * array is a Firebase export (wherever the key stands, on one line or many), `[` a JSON array, an object per line
 * NDJSON (Auth0 when its first object has Auth0's keys; a line of `null` or a number before it is a record the
 * reader refuses, not the end of the file), and a CSV first row of Firebase's width (28 or 52 columns and a trailing
 * comma) a Firebase CSV, any other CSV a header row. A file that is one object of none of these shapes is refused.
 * Cognito: `{"Users":` is `list-users` output, a CSV header with `cognito:username` its user-import layout. Clerk: a
 * CSV header with `id`, `primary_email_address` and Clerk's other columns. Keycloak: an object that starts with its
 * `realm` (a realm or users file), or whose `users` array holds Keycloak users, or a folder of `kc.sh export` files.
 * Okta: an array (or lines) whose first user has Okta's `status` and `profile.login`. `mapping` names the keys a
 * generic user record has.
 */
export async function detectFormat(
  path: string,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
  mapping: FieldMapping = defaultFieldMapping,
): Promise<SourceFormat | SourceError> {
  try {
    if (await isFolder(path)) return await detectFolder(path);
    // A SQLite database is binary: told by its first bytes, and by its tables whose database it is.
    if (await isSqliteFile(path)) {
      // Node's SQLite is loaded only for a SQLite file.
      const { isBetterAuthSqlite } = await import('./better-auth/better-auth-sqlite.js');
      return isBetterAuthSqlite(path) ? 'better-auth' : notBetterAuthSqlite(path);
    }
    return await detectFromHead(path, await readHead(path, maxLineBytes), maxLineBytes, mapping);
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
}

/** A folder is read only as the files `kc.sh export --dir` writes. */
async function detectFolder(path: string): Promise<SourceFormat | SourceError> {
  if ((await keycloakFolderFiles(path)).length > 0) return 'keycloak';
  return new SourceError(
    'unknown-format',
    { file: path },
    'a folder, holding no Keycloak export (<realm>-realm.json, <realm>-users-<n>.json): core-migrate reads a folder only as the files kc.sh export writes; give an export file',
  );
}

async function detectFromHead(path: string, read: Head, maxLineBytes: number, mapping: FieldMapping): Promise<SourceFormat | SourceError> {
  const head = read.text;
  const extension = extname(withoutGzipExtension(path)).toLowerCase();
  const first = head.trimStart().charAt(0);
  // An object's first line may be longer than any NDJSON line: a Firebase export on one line.
  const mayBeOneObject = first === '{' && extension !== '.csv';
  if (!read.firstLineComplete && !decidedByStart(head) && !mayBeOneObject) return lineTooLong(path, 1, 0, maxLineBytes);
  const looksJson = first === '{' || first === '[' || isJsonNonObject(firstLine(head.trimStart()), jsonExtensions.has(extension));
  if (extension === '.csv') return detectCsvFamily(path, head);
  if (jsonExtensions.has(extension) && !looksJson) {
    return new SourceError(
      'wrong-format',
      { file: path, line: 1, byteOffset: 0 },
      `the name ends in ${extension} but the file does not start with "{" or "[" (nor with a line of JSON)`,
    );
  }
  return looksJson ? detectJsonFamily(path, read, maxLineBytes, mapping) : detectCsvFamily(path, head);
}
