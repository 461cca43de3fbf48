import type { PostgresSnapshot } from './postgres-snapshot.js';

/**
 * What a database holds, asked of PostgreSQL's catalogue (which answers whatever the user may read, unlike
 * `information_schema`): a table named `schema.table` or, unqualified, as the search path finds it.
 */
export async function tableExists(snapshot: PostgresSnapshot, table: string): Promise<boolean> {
  const [row] = await snapshot.query('SELECT to_regclass($1) IS NOT NULL AS present', [table]);
  return row?.['present'] === 't';
}

/** The table's columns by name (none for a table that is not there). */
export async function columnsOf(snapshot: PostgresSnapshot, table: string): Promise<Set<string>> {
  const rows = await snapshot.query('SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped', [table]);
  return new Set(rows.map((row) => String(row['attname'])));
}

/** Every required column a table lacks, in one sentence. */
export function missingColumnsSentence(table: string, missing: readonly string[]): string {
  const named = missing.map((column) => `"${column}"`);
  const list = named.length === 1 ? `column ${named[0] ?? ''}` : `columns ${named.slice(0, -1).join(', ')} and ${named[named.length - 1] ?? ''}`;
  return `the table ${table} has no ${list}, which core-migrate needs to read its users: is it the table of another version or system?`;
}
