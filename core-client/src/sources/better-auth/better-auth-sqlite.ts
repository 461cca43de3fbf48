import { stat } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { ACCOUNT_COLUMNS, columnName, resolveColumns, selectList, TABLE_NAMES, USER_COLUMNS, type ResolvedColumns } from './better-auth-schema.js';
import { ACCOUNTS_FIELD, betterAuthUser } from './better-auth-user.js';
import { isSqliteFile } from './sqlite-file.js';

function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'an error';
}

function openDatabase(file: string): DatabaseSync {
  try {
    return new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new SourceError('unreadable', { file }, `cannot open the SQLite database (${codeOf(error)})`, { cause: error });
  }
}

function tablesOf(database: DatabaseSync): Set<string> {
  const rows = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  return new Set(rows.map((row) => String(row['name'])));
}

function columnsOf(database: DatabaseSync, table: string): Set<string> {
  const rows = database.prepare(`PRAGMA table_info("${table}")`).all();
  return new Set(rows.map((row) => String(row['name'])));
}

/** Whether a SQLite file holds Better Auth's tables (a user table, and an account table with its `providerId`). */
export function isBetterAuthSqlite(file: string): boolean {
  const database = openDatabase(file);
  try {
    const tables = tablesOf(database);
    const user = TABLE_NAMES.user.find((name) => tables.has(name));
    const account = TABLE_NAMES.account.find((name) => tables.has(name));
    if (user === undefined || account === undefined) return false;
    const columns = columnsOf(database, account);
    return ACCOUNT_COLUMNS.providerId.names.some((name) => columns.has(name));
  } finally {
    database.close();
  }
}

function resolvedTable<Field extends string>(
  file: string,
  database: DatabaseSync,
  tables: ReadonlySet<string>,
  names: readonly string[],
  spec: Parameters<typeof resolveColumns<Field>>[2],
): ResolvedColumns<Field> {
  const table = names.find((name) => tables.has(name));
  if (table === undefined) {
    throw new SourceError(
      'wrong-format',
      { file },
      `the SQLite database has no ${names.map((name) => `"${name}"`).join(' or ')} table, so it is not a Better Auth database`,
    );
  }
  const resolved = resolveColumns(table, columnsOf(database, table), spec);
  if (typeof resolved === 'string') throw new SourceError('missing-column', { file }, resolved);
  return resolved;
}

/**
 * A Better Auth database in a SQLite file (its common default), read with Node's own `node:sqlite`, opened read-only:
 * the user table with each user's accounts as one JSON list, row by row in the order of the users' ids, in one read
 * transaction (a consistent view while the app writes). The tables' columns are checked first.
 */
export async function* readBetterAuthSqlite(file: string): AsyncGenerator<SourceRecord> {
  // A ban is judged as of the file's time, so every read of one file says the same.
  const info = await stat(file).catch((error: unknown) => new SourceError('unreadable', { file }, `cannot read the file (${codeOf(error)})`, { cause: error }));
  if (info instanceof SourceError) throw info;
  const asOfMs = info.mtimeMs;
  if (!(await isSqliteFile(file))) {
    throw new SourceError(
      'wrong-format',
      { file },
      'not a SQLite database: Better Auth is read from its database, a postgresql:// URL or a SQLite file (an export of another system? name its format with --format)',
    );
  }
  const database = openDatabase(file);
  try {
    const tables = tablesOf(database);
    const users = resolvedTable(file, database, tables, TABLE_NAMES.user, USER_COLUMNS);
    const accounts = resolvedTable(file, database, tables, TABLE_NAMES.account, ACCOUNT_COLUMNS);
    const column = (field: keyof typeof ACCOUNT_COLUMNS): string => `"${accounts.columns[field] ?? field}"`;
    const id = `u."${users.columns.id ?? 'id'}"`;
    const gathered =
      `(SELECT json_group_array(json_object('providerId', ${column('providerId')}, 'accountId', ${column('accountId')}, 'password', ${column('password')})) ` +
      `FROM (SELECT * FROM "${accounts.table}" WHERE ${column('userId')} = ${id} ORDER BY ${column('providerId')}, ${column('accountId')})) AS "${ACCOUNTS_FIELD}"`;
    const statement = database.prepare(`SELECT ${[...selectList('u', users), gathered].join(', ')} FROM "${users.table}" u ORDER BY ${id}`);
    const columnOf = (field: string): string => columnName(field, users, accounts);
    database.exec('BEGIN');
    let index = 0;
    for (const row of statement.iterate()) {
      const rowId = row['id'];
      const location = { file, index, ...(typeof rowId === 'string' || typeof rowId === 'number' ? { id: String(rowId) } : {}) };
      yield betterAuthUser(row, { location, asOfMs, columnOf });
      index += 1;
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError('unreadable', { file }, `cannot read the SQLite database (${codeOf(error)})`, { cause: error });
  } finally {
    database.close();
  }
}
