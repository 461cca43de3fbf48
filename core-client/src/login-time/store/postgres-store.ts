import pg from 'pg';
import { describePostgresUrl, postgresConnectionString } from '../../sources/database/postgres-url.js';
import { DEFAULT_CLAIM_LEASE_MS, WaitingStoreError, type WaitingStore } from './waiting-store.js';
import { z } from 'zod';
import {
  STORE_SCHEMA_VERSION,
  STORE_VERSION_TABLE,
  WAITING_TABLE,
  laterVersionReason,
  parkedColumns,
  parkedValues,
  schemaUpgrades,
  tableColumns,
  userOfRow,
} from './store-rows.js';
import { arrivalOfRow, countsOfRows, entryOfRow } from './store-counts.js';
import type { ParkedUser, StoreCounts, StoredWaitingUser, WaitingListEntry } from './waiting-user.js';

/** Connections one process keeps to the store: a sign-in holds one for a statement at a time. */
const POOL_SIZE = 4;
const CONNECT_TIMEOUT_MS = 5_000;
/** A statement that takes longer is given up (the store is then "unavailable" and a sign-in answers "try later"). */
const STATEMENT_TIMEOUT_MS = 10_000;
/** Rows of the waiting list read at a time. */
const PAGE_SIZE = 1_000;
/** Taken while the table is created, so that two processes opening a new store at once do not collide. */
const SCHEMA_LOCK_KEY = 0x636d6c74;

/** The table as version 1 made it; `upgradeSchema` adds the columns of later versions. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${WAITING_TABLE} (
  email TEXT PRIMARY KEY,
  source_id TEXT,
  map_source_id BOOLEAN NOT NULL,
  mapping_info TEXT,
  email_verified BOOLEAN NOT NULL,
  metadata TEXT,
  roles TEXT,
  family TEXT NOT NULL,
  legacy_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  lease_until BIGINT,
  parked_at BIGINT NOT NULL,
  core_user_id TEXT,
  migrated_at BIGINT,
  seen_at BIGINT
)`;

/** A PostgreSQL URL as it can be shown: without its password (the one rule for every PostgreSQL URL of core-migrate). */
export { describePostgresUrl };

/** A driver error's SQLSTATE or system code, never its message (which may quote values). */
function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'an error';
}

/**
 * Opens a waiting store in a PostgreSQL database (several backend servers share it), creating its table when absent
 * (or, with `create: false`, refusing a database without it).
 * Access to the database is the operator's to restrict: it holds legacy hashes.
 */
export async function openPostgresStore(url: string, env: NodeJS.ProcessEnv = process.env, options: { create?: boolean } = {}): Promise<WaitingStore> {
  const location = describePostgresUrl(url);
  const pool = new pg.Pool({
    connectionString: postgresConnectionString(url, env),
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle connection the server drops must not crash the process: the next query reports it.
  pool.on('error', () => undefined);
  let missing = false;
  try {
    const client = await pool.connect();
    try {
      if (options.create === false) missing = !(await hasWaitingTable(client));
      if (!missing) await openWaitingTable(client, location);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof WaitingStoreError) throw error;
    throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${location} cannot be opened (${codeOf(error)})`, { cause: error });
  }
  if (missing) {
    await pool.end().catch(() => undefined);
    throw new WaitingStoreError(
      'waitingStoreUnavailable',
      `the waiting store ${location} does not exist: its database has no waiting users' table (a push with --login-time creates it)`,
    );
  }
  return new PostgresStore(location, pool);
}

async function hasWaitingTable(client: pg.PoolClient): Promise<boolean> {
  const found = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [WAITING_TABLE]);
  return found.rows[0]?.present === true;
}

/** Creates the table when absent and brings it to this code's version, under the schema lock, in one transaction. */
async function openWaitingTable(client: pg.PoolClient, location: string): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await client.query(CREATE_TABLE);
    await upgradeSchema(client, location);
    await client.query(`CREATE INDEX IF NOT EXISTS ${WAITING_TABLE}_state ON ${WAITING_TABLE} (state)`);
    await client.query(`CREATE INDEX IF NOT EXISTS ${WAITING_TABLE}_source_id ON ${WAITING_TABLE} (source_id)`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const VersionRowSchema = z.object({ version: z.number().nullable() });

/**
 * Brings the store to the version this code reads (recorded in its own table), under the schema lock of the opening
 * transaction; a store of a later version is refused.
 */
async function upgradeSchema(client: pg.PoolClient, location: string): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS ${STORE_VERSION_TABLE} (version INTEGER NOT NULL)`);
  const result = await client.query(`SELECT MAX(version) AS version FROM ${STORE_VERSION_TABLE}`);
  const version = VersionRowSchema.parse(result.rows[0]).version ?? 1;
  if (version > STORE_SCHEMA_VERSION) throw new WaitingStoreError('waitingStoreRefused', laterVersionReason(location, version));
  for (const step of schemaUpgrades) await client.query(`ALTER TABLE ${WAITING_TABLE} ADD COLUMN IF NOT EXISTS ${step.column} ${step.definition}`);
  if (version !== STORE_SCHEMA_VERSION) {
    await client.query(`DELETE FROM ${STORE_VERSION_TABLE}`);
    await client.query(`INSERT INTO ${STORE_VERSION_TABLE} (version) VALUES ($1)`, [STORE_SCHEMA_VERSION]);
  }
}

class PostgresStore implements WaitingStore {
  constructor(
    readonly location: string,
    readonly pool: pg.Pool,
  ) {}

  async #query(what: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${this.location} could not ${what} (${codeOf(error)})`, { cause: error });
    }
  }

  async park(user: ParkedUser, now = Date.now()): Promise<boolean> {
    if (user.sourceId !== undefined) {
      await this.#query('park a user', `DELETE FROM ${WAITING_TABLE} WHERE source_id = $1 AND email <> $2 AND state = 'waiting'`, [user.sourceId, user.email]);
    }
    const columns = ['email', ...parkedColumns, 'state', 'parked_at', 'seen_at'];
    const updates = [...parkedColumns, 'seen_at'].map((column) => `${column} = excluded.${column}`).join(', ');
    const result = await this.#query(
      'park a user',
      `INSERT INTO ${WAITING_TABLE} (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})
       ON CONFLICT (email) DO UPDATE SET ${updates} WHERE ${WAITING_TABLE}.state = 'waiting'`,
      [user.email, ...parkedValues(user, (value) => value), 'waiting', now, now],
    );
    return result.rowCount === 1;
  }

  async find(email: string): Promise<StoredWaitingUser | undefined> {
    const result = await this.#query('read a user', `SELECT ${tableColumns.join(', ')} FROM ${WAITING_TABLE} WHERE email = $1`, [email]);
    const row: unknown = result.rows[0];
    return row === undefined ? undefined : userOfRow(row);
  }

  async claim(email: string, leaseMs = DEFAULT_CLAIM_LEASE_MS, now = Date.now()): Promise<StoredWaitingUser | undefined> {
    // One UPDATE: of two at the same moment, the second waits for the first's row lock, then finds the row no longer
    // waiting and changes nothing (READ COMMITTED re-checks the WHERE on the new row).
    const result = await this.#query(
      'claim a user',
      `UPDATE ${WAITING_TABLE} SET state = 'migrating', lease_until = $1
       WHERE email = $2 AND (state = 'waiting' OR (state = 'migrating' AND lease_until < $3))
       RETURNING ${tableColumns.join(', ')}`,
      [now + leaseMs, email, now],
    );
    const row: unknown = result.rows[0];
    return row === undefined ? undefined : userOfRow(row);
  }

  async release(email: string): Promise<void> {
    await this.#query('release a user', `UPDATE ${WAITING_TABLE} SET state = 'waiting', lease_until = NULL WHERE email = $1 AND state = 'migrating'`, [email]);
  }

  async markMigrated(email: string, coreUserId: string, now = Date.now()): Promise<void> {
    await this.#query(
      'mark a user migrated',
      `UPDATE ${WAITING_TABLE} SET state = 'migrated', core_user_id = $1, migrated_at = $2, lease_until = NULL, legacy_hash = ''
       WHERE email = $3 AND state = 'migrating'`,
      [coreUserId, now, email],
    );
  }

  async counts(): Promise<StoreCounts> {
    const states = await this.#query('count its users', `SELECT state, COUNT(*) AS users FROM ${WAITING_TABLE} GROUP BY state`, []);
    const days = await this.#query(
      'count its users',
      `SELECT to_char(to_timestamp(migrated_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(*) AS users FROM ${WAITING_TABLE}
       WHERE state = 'migrated' GROUP BY day ORDER BY day`,
      [],
    );
    return countsOfRows(states.rows, days.rows);
  }

  async *waitingList(): AsyncIterable<WaitingListEntry> {
    // Page by email (keyset), so a large store is never held in memory.
    let after = '';
    for (;;) {
      const page = await this.#query(
        'list the waiting users',
        `SELECT email, source_id FROM ${WAITING_TABLE} WHERE state <> 'migrated' AND email > $1 ORDER BY email LIMIT ${PAGE_SIZE}`,
        [after],
      );
      const entries = page.rows.map((row: unknown) => entryOfRow(row));
      yield* entries;
      const last = entries.at(-1);
      if (last === undefined || entries.length < PAGE_SIZE) return;
      after = last.email;
    }
  }

  async *arrivals(): AsyncIterable<{ email: string; coreUserId: string }> {
    let after = '';
    for (;;) {
      const page = await this.#query(
        'list the arrived users',
        `SELECT email, core_user_id FROM ${WAITING_TABLE} WHERE state = 'migrated' AND email > $1 ORDER BY email LIMIT ${PAGE_SIZE}`,
        [after],
      );
      const arrivals = page.rows.map((row: unknown) => arrivalOfRow(row));
      yield* arrivals;
      const last = arrivals.at(-1);
      if (last === undefined || arrivals.length < PAGE_SIZE) return;
      after = last.email;
    }
  }

  async touch(email: string, now = Date.now()): Promise<void> {
    await this.#query('mark a user seen', `UPDATE ${WAITING_TABLE} SET seen_at = $1 WHERE email = $2 AND state = 'waiting'`, [now, email]);
  }

  async leave(email: string): Promise<boolean> {
    const result = await this.#query('take a user out', `DELETE FROM ${WAITING_TABLE} WHERE email = $1 AND state = 'waiting'`, [email]);
    return result.rowCount === 1;
  }

  async forgetUnseen(since: number): Promise<number> {
    const result = await this.#query(
      'take out the users a sync no longer met',
      `DELETE FROM ${WAITING_TABLE} WHERE state = 'waiting' AND (seen_at IS NULL OR seen_at < $1)`,
      [since],
    );
    return result.rowCount ?? 0;
  }

  async forget(email: string): Promise<void> {
    await this.#query('forget a user', `DELETE FROM ${WAITING_TABLE} WHERE email = $1`, [email]);
  }

  async forgetWaiting(): Promise<number> {
    const result = await this.#query('forget the waiting users', `DELETE FROM ${WAITING_TABLE} WHERE state <> 'migrated'`, []);
    return result.rowCount ?? 0;
  }

  async checkAvailable(): Promise<void> {
    await this.#query('answer', `SELECT 1 FROM ${WAITING_TABLE} LIMIT 1`, []);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
