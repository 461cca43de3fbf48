import { stat } from 'node:fs/promises';
import { readCsvRows } from '../csv/csv-rows.js';
import { readJsonArrayItems } from '../json/json-array-items.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText, withoutGzipExtension } from '../text/open-text.js';
import { IDENTITIES_COLUMN, SUPABASE_REQUIRED_COLUMNS, supabaseUser } from './supabase-user.js';

/**
 * A file of `auth.users` rows judges a ban as of when the file was written: every read of the file then says the
 * same, and a ban that ended since holds until a newer export (a sync) says otherwise.
 */
async function asOfFile(file: string): Promise<number> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (error) {
    throw new SourceError('unreadable', { file }, `cannot read the file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, { cause: error });
  }
}

/** Whether a CSV header row is one of `auth.users` (its password and metadata columns tell it from other CSV). */
export function isSupabaseCsvHeader(header: readonly string[]): boolean {
  const names = new Set(header.map((column) => column.trim()));
  return names.has('encrypted_password') && names.has('raw_app_meta_data');
}

/**
 * `auth.users` as `COPY (SELECT …) TO … CSV HEADER` (or `\copy`) writes it: `t`/`f` booleans, timestamps as
 * PostgreSQL writes them, JSON as text, NULL as an empty field. With an `identities` column (a JSON list, docs/exports.md
 * gives the query) the users' third-party accounts come along.
 */
export async function* readSupabaseCsv(file: string): AsyncGenerator<SourceRecord> {
  const asOfMs = await asOfFile(file);
  let header: string[] | undefined;
  for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
    if (header === undefined) {
      if (row.kind === 'row-error') throw new SourceError('wrong-format', { file, line: row.line }, `the header row cannot be read: ${row.reason}`);
      header = row.fields.map((column) => column.trim());
      const missing = SUPABASE_REQUIRED_COLUMNS.filter((column) => !header?.includes(column));
      if (missing.length > 0) {
        throw new SourceError(
          'wrong-format',
          { file, line: row.line },
          `the header row has no ${missing.map((column) => `"${column}"`).join(', ')}: not a CSV of Supabase's auth.users (COPY … CSV HEADER)`,
        );
      }
      continue;
    }
    const location = { file, line: row.line };
    if (row.kind === 'row-error') {
      yield { kind: 'malformed', location, reason: row.reason };
      continue;
    }
    if (row.fields.length !== header.length) {
      yield { kind: 'malformed', location, reason: `the row has ${row.fields.length} fields, the header has ${header.length} (cut short?)` };
      continue;
    }
    const values: Record<string, unknown> = {};
    header.forEach((column, position) => {
      if (!Object.hasOwn(values, column)) values[column] = row.fields[position];
    });
    yield supabaseUser(values, { location, asOfMs, withIdentities: header.includes(IDENTITIES_COLUMN) });
  }
}

/** `auth.users` rows as a JSON array (the SQL editor's export): JSON columns as objects or as their text. */
export async function* readSupabaseJson(file: string): AsyncGenerator<SourceRecord> {
  const asOfMs = await asOfFile(file);
  for await (const item of readJsonArrayItems(file, openText(file), {})) {
    const location = { file, index: item.index };
    if ('problem' in item) {
      yield { kind: 'malformed', location, reason: item.problem };
    } else if (typeof item.value !== 'object' || item.value === null || Array.isArray(item.value)) {
      yield { kind: 'malformed', location, reason: 'the array element is not a JSON object (a row of auth.users)' };
    } else {
      const row = item.value as Record<string, unknown>;
      yield supabaseUser(row, { location, asOfMs, withIdentities: Object.hasOwn(row, IDENTITIES_COLUMN) });
    }
  }
}

/** The file's first character with content (`[` is the JSON export, `{` no export of these rows). */
async function firstCharacter(file: string): Promise<string> {
  for await (const chunk of openText(file)) {
    const at = chunk.search(/\S/);
    if (at !== -1) return chunk.charAt(at);
  }
  return '';
}

/** A file of Supabase's users: the CSV (`.csv`, or any file starting otherwise) or the JSON array (`[`). */
export async function* readSupabaseFile(file: string): AsyncGenerator<SourceRecord> {
  const first = withoutGzipExtension(file).toLowerCase().endsWith('.csv') ? '' : await firstCharacter(file);
  if (first === '{') {
    throw new SourceError(
      'wrong-format',
      { file, line: 1 },
      "a JSON object, not Supabase's auth.users rows (a JSON array of them, or their CSV): an export of another system? name its format with --format",
    );
  }
  yield* first === '[' ? readSupabaseJson(file) : readSupabaseCsv(file);
}
