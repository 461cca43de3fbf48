import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { columnsOf, tableExists } from '../database/postgres-tables.js';
import { snapshotTime, type PostgresSnapshot } from '../database/postgres-snapshot.js';
import { ACCOUNT_COLUMNS, columnName, resolveColumns, selectList, TABLE_NAMES, USER_COLUMNS, type ResolvedColumns } from './better-auth-schema.js';
import { ACCOUNTS_FIELD, betterAuthUser } from './better-auth-user.js';

async function firstTable(snapshot: PostgresSnapshot, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) if (await tableExists(snapshot, `"${name}"`)) return name;
  return undefined;
}

/** Whether a database holds Better Auth's tables: a user table, and an account table with its `providerId`. */
export async function isBetterAuthPostgres(snapshot: PostgresSnapshot): Promise<boolean> {
  const user = await firstTable(snapshot, TABLE_NAMES.user);
  const account = await firstTable(snapshot, TABLE_NAMES.account);
  if (user === undefined || account === undefined) return false;
  const columns = await columnsOf(snapshot, `"${account}"`);
  return ACCOUNT_COLUMNS.providerId.names.some((name) => columns.has(name));
}

async function resolvedTable<Field extends string>(
  snapshot: PostgresSnapshot,
  names: readonly string[],
  spec: Parameters<typeof resolveColumns<Field>>[2],
): Promise<ResolvedColumns<Field>> {
  const table = await firstTable(snapshot, names);
  if (table === undefined) {
    throw new SourceError(
      'wrong-format',
      { file: snapshot.name },
      `the database has no ${names.map((name) => `"${name}"`).join(' or ')} table, so it is not a Better Auth database (a Supabase project's is read with --format supabase)`,
    );
  }
  const resolved = resolveColumns(table, await columnsOf(snapshot, `"${table}"`), spec);
  if (typeof resolved === 'string') throw new SourceError('missing-column', { file: snapshot.name }, resolved);
  return resolved;
}

/**
 * A Better Auth database on PostgreSQL: the user table with each user's accounts as one JSON list, in the snapshot's
 * read-only transaction, through a cursor in the order of the users' ids. The tables' columns are checked first.
 */
export async function* readBetterAuthPostgres(snapshot: PostgresSnapshot): AsyncGenerator<SourceRecord> {
  const users = await resolvedTable(snapshot, TABLE_NAMES.user, USER_COLUMNS);
  const accounts = await resolvedTable(snapshot, TABLE_NAMES.account, ACCOUNT_COLUMNS);
  const account = (field: keyof typeof ACCOUNT_COLUMNS): string => `a."${accounts.columns[field] ?? field}"`;
  const id = `u."${users.columns.id ?? 'id'}"`;
  // A join grouped by the user, not a subquery per user: that would scan the accounts once per user without an index.
  const gathered =
    `json_agg(json_build_object('providerId', ${account('providerId')}, 'accountId', ${account('accountId')}, 'password', ${account('password')}) ` +
    `ORDER BY ${account('providerId')}, ${account('accountId')}) FILTER (WHERE ${account('userId')} IS NOT NULL) AS "${ACCOUNTS_FIELD}"`;
  const sql =
    `SELECT ${[...selectList('u', users), gathered].join(', ')} FROM "${users.table}" u ` +
    `LEFT JOIN "${accounts.table}" a ON ${account('userId')} = ${id} GROUP BY ${id} ORDER BY ${id}`;
  const asOfMs = await snapshotTime(snapshot);
  const file = `${snapshot.name} ("${users.table}")`;
  const columnOf = (field: string): string => columnName(field, users, accounts);
  let index = 0;
  for await (const row of snapshot.rows(sql, `reading "${users.table}"`)) {
    const id = row['id'];
    const location = { file, index, ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}) };
    yield betterAuthUser(row, { location, asOfMs, columnOf });
    index += 1;
  }
}
