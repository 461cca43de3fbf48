import { optional } from '../../optional.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { columnsOf, missingColumnsSentence, tableExists } from '../database/postgres-tables.js';
import { snapshotTime, type PostgresSnapshot } from '../database/postgres-snapshot.js';
import { IDENTITIES_COLUMN, SUPABASE_OPTIONAL_COLUMNS, SUPABASE_REQUIRED_COLUMNS, supabaseUser } from './supabase-user.js';

const USERS = 'auth.users';
const IDENTITIES = 'auth.identities';

/** Whether a database is Supabase's: it has Supabase Auth's `auth.users` and `auth.identities`. */
export async function isSupabaseDatabase(snapshot: PostgresSnapshot): Promise<boolean> {
  return (await tableExists(snapshot, USERS)) && (await tableExists(snapshot, IDENTITIES));
}

/** Each column read: its own when the table has it, NULL under its name when an older Supabase Auth did not add it yet. */
function selected(columns: ReadonlySet<string>): string {
  const optional = SUPABASE_OPTIONAL_COLUMNS.map((column) => (columns.has(column) ? `u.${column}` : `NULL AS ${column}`));
  return ['u.id::text AS id', ...SUPABASE_REQUIRED_COLUMNS.filter((column) => column !== 'id').map((column) => `u.${column}`), ...optional].join(', ');
}

/**
 * Each user's identities as one JSON list: the provider and the provider's id for the user (`provider_id`, which
 * Supabase Auth added in 2023; before it, the identity's own `id` was that id). Gathered by a join grouped by the
 * user, not a subquery per user: that would scan the identities once per user wherever `user_id` has no index.
 */
function identitiesList(identityColumns: ReadonlySet<string>): string {
  const providerId = identityColumns.has('provider_id') ? 'i.provider_id' : 'i.id::text';
  return (
    `json_agg(json_build_object('provider', i.provider, 'provider_id', ${providerId}, 'identity_data', i.identity_data) ` +
    `ORDER BY i.provider, ${providerId}) FILTER (WHERE i.user_id IS NOT NULL) AS ${IDENTITIES_COLUMN}`
  );
}

/**
 * Supabase's users read where they live: `auth.users` with each user's `auth.identities`, in the snapshot's one
 * read-only transaction, through a cursor in the order of their ids (never the table in memory). The tables and
 * columns are checked first: a missing table or column is named in a sentence before any row is read.
 */
export async function* readSupabaseDatabase(snapshot: PostgresSnapshot): AsyncGenerator<SourceRecord> {
  const file = `${snapshot.name} (${USERS})`;
  if (!(await tableExists(snapshot, USERS))) {
    throw new SourceError(
      'wrong-format',
      { file: snapshot.name },
      `the database has no ${USERS} table, so it is not a Supabase project's database (a Better Auth database is read with --format better-auth)`,
    );
  }
  const columns = await columnsOf(snapshot, USERS);
  const missing = SUPABASE_REQUIRED_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) throw new SourceError('missing-column', { file: snapshot.name }, missingColumnsSentence(USERS, missing));
  if (!(await tableExists(snapshot, IDENTITIES))) {
    throw new SourceError('wrong-format', { file: snapshot.name }, `the database has ${USERS} but no ${IDENTITIES} table, which every Supabase project has`);
  }
  const identityColumns = await columnsOf(snapshot, IDENTITIES);
  const missingIdentity = ['provider', 'user_id', 'identity_data'].filter((column) => !identityColumns.has(column));
  if (missingIdentity.length > 0) throw new SourceError('missing-column', { file: snapshot.name }, missingColumnsSentence(IDENTITIES, missingIdentity));

  const asOfMs = await snapshotTime(snapshot);
  let index = 0;
  const sql = `SELECT ${selected(columns)}, ${identitiesList(identityColumns)} FROM ${USERS} u LEFT JOIN ${IDENTITIES} i ON i.user_id = u.id GROUP BY u.id ORDER BY u.id`;
  for await (const row of snapshot.rows(sql, `reading ${USERS}`)) {
    const id = typeof row['id'] === 'string' ? row['id'] : undefined;
    yield supabaseUser(row, { location: { file, index, ...optional('id', id) }, asOfMs, withIdentities: true });
    index += 1;
  }
}
