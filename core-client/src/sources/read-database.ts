import { isBetterAuthPostgres, readBetterAuthPostgres } from './better-auth/better-auth-postgres.js';
import { PostgresSnapshot } from './database/postgres-snapshot.js';
import { SourceError } from './source-error.js';
import type { SourceFormat } from './source-format.js';
import type { SourceRecord } from './source-user.js';
import { isSupabaseDatabase, readSupabaseDatabase } from './supabase/supabase-database.js';

/** The formats a database is read as: the systems whose tables core-migrate reads. */
const databaseFormats = ['supabase', 'better-auth'] as const satisfies readonly SourceFormat[];
type DatabaseFormat = (typeof databaseFormats)[number];

/**
 * Which system's tables a database holds: Supabase Auth's `auth.users` and `auth.identities`, or Better Auth's user
 * and account tables. Both (Better Auth on a Supabase project's database) or neither is a sentence: name it with
 * `--format`.
 */
export async function detectDatabaseFormat(snapshot: PostgresSnapshot): Promise<DatabaseFormat> {
  const supabase = await isSupabaseDatabase(snapshot);
  const betterAuth = await isBetterAuthPostgres(snapshot);
  if (supabase && betterAuth) {
    throw new SourceError(
      'unknown-format',
      { file: snapshot.name },
      "the database holds both Supabase Auth's auth.users and Better Auth's user and account tables: name the users to read with --format supabase or --format better-auth",
      { setting: 'format' },
    );
  }
  if (supabase) return 'supabase';
  if (betterAuth) return 'better-auth';
  throw new SourceError(
    'unknown-format',
    { file: snapshot.name },
    "the database holds neither Supabase Auth's auth.users and auth.identities nor Better Auth's user and account tables: core-migrate reads the users of these two systems from a database",
  );
}

function isDatabaseFormat(format: SourceFormat): format is DatabaseFormat {
  return (databaseFormats as readonly SourceFormat[]).includes(format);
}

/**
 * The users of a database given by its URL, in `snapshot` (the run's one read-only transaction) or, without one, in a
 * transaction of this read alone. The format is detected from the tables unless given.
 */
export async function* readDatabase(url: string, format: SourceFormat | undefined, snapshot: PostgresSnapshot | undefined): AsyncGenerator<SourceRecord> {
  const own = snapshot === undefined ? await PostgresSnapshot.open(url) : undefined;
  const reading = snapshot ?? own;
  if (reading === undefined) return;
  try {
    const system = format ?? (await detectDatabaseFormat(reading));
    if (!isDatabaseFormat(system)) {
      throw new SourceError(
        'wrong-format',
        { file: reading.name },
        `a database URL is read as ${databaseFormats.join(' or ')}, not as ${system} (an export file's format)`,
        { setting: 'format' },
      );
    }
    yield* system === 'supabase' ? readSupabaseDatabase(reading) : readBetterAuthPostgres(reading);
  } finally {
    await own?.close();
  }
}
