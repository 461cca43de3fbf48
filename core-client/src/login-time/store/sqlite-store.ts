import { closeSync, existsSync, openSync, statSync, truncateSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { DEFAULT_CLAIM_LEASE_MS, WaitingStoreError, type WaitingStore } from './waiting-store.js';
import { z } from 'zod';
import { STORE_SCHEMA_VERSION, WAITING_TABLE, laterVersionReason, parkedColumns, parkedValues, schemaUpgrades, tableColumns, userOfRow } from './store-rows.js';
import type { ParkedUser, StoreCounts, StoredWaitingUser, WaitingListEntry } from './waiting-user.js';
import { arrivalOfRow, countsOfRows, entryOfRow } from './store-counts.js';
import { storeAccessProblem } from './store-file-access.js';

/** How long a write waits for another process's lock on the file before the store is "unavailable". */
const BUSY_TIMEOUT_MS = 5_000;

/** The table as version 1 made it; `upgradeSchema` adds the columns of later versions. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${WAITING_TABLE} (
  email TEXT PRIMARY KEY,
  source_id TEXT,
  map_source_id INTEGER NOT NULL,
  mapping_info TEXT,
  email_verified INTEGER NOT NULL,
  metadata TEXT,
  roles TEXT,
  family TEXT NOT NULL,
  legacy_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  lease_until INTEGER,
  parked_at INTEGER NOT NULL,
  core_user_id TEXT,
  migrated_at INTEGER,
  seen_at INTEGER
)`;

/**
 * Opens (creating when absent) a waiting store in a SQLite file, with Node's own `node:sqlite`. A new file is created
 * readable and writable by its owner only (0600) before SQLite opens it: it will hold legacy hashes. SQLite gives its
 * journal files the database file's mode.
 */
export function openSqliteStore(path: string, options: { create?: boolean } = {}): WaitingStore {
  // Before anything else: a folder this user cannot enter would otherwise read as a store that does not exist.
  const denied = storeAccessProblem(path);
  if (denied !== undefined) throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${path} cannot be opened: ${denied}`);
  if (options.create === false && !existsSync(path)) {
    throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${path} does not exist (a push with --login-time creates it)`);
  }
  try {
    // `wx` creates the file with mode 0600 only when it does not exist; an existing store keeps its mode.
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) {
      throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${path} cannot be created (${codeOf(error)})`, { cause: error });
    }
  }
  try {
    const database = new DatabaseSync(path);
    database.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    database.exec('PRAGMA journal_mode = WAL');
    // A legacy hash taken out (an arrival, a user leaving) is overwritten with zeros in its page, not left in free
    // space where the file's bytes would still hold it; the WAL's old frames are truncated after each arrival (below).
    database.exec('PRAGMA secure_delete = ON');
    database.exec(CREATE_TABLE);
    upgradeSchema(database, path);
    // WAL with NORMAL: a commit is safe from a crash of the process without a sync of the disk each (a push parks users
    // one at a time); only a power cut may lose the last ones, which a resume parks again.
    database.exec('PRAGMA synchronous = NORMAL');
    database.exec(`CREATE INDEX IF NOT EXISTS ${WAITING_TABLE}_state ON ${WAITING_TABLE} (state)`);
    // A park replaces the row of the same old id under another email: found by this index, not by a scan.
    database.exec(`CREATE INDEX IF NOT EXISTS ${WAITING_TABLE}_source_id ON ${WAITING_TABLE} (source_id)`);
    const { dev, ino } = statSync(path);
    return new SqliteStore(path, database, { dev, ino });
  } catch (error) {
    if (error instanceof WaitingStoreError) throw error;
    throw new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${path} cannot be opened as a SQLite database (${codeOf(error)})`, {
      cause: error,
    });
  }
}

const VersionRowSchema = z.object({ user_version: z.number() });
const ColumnRowSchema = z.object({ name: z.string() });

/**
 * Brings a store to the version this code reads (`PRAGMA user_version` records it), in one write transaction so that
 * two processes opening one store at once add each column once; a store of a later version is refused.
 */
function upgradeSchema(database: DatabaseSync, location: string): void {
  database.exec('BEGIN IMMEDIATE');
  try {
    const version = VersionRowSchema.parse(database.prepare('PRAGMA user_version').get()).user_version;
    if (version > STORE_SCHEMA_VERSION) throw new WaitingStoreError('waitingStoreRefused', laterVersionReason(location, version));
    const columns = new Set(
      database
        .prepare(`PRAGMA table_info(${WAITING_TABLE})`)
        .all()
        .map((row) => ColumnRowSchema.parse(row).name),
    );
    for (const step of schemaUpgrades) {
      if (!columns.has(step.column)) database.exec(`ALTER TABLE ${WAITING_TABLE} ADD COLUMN ${step.column} ${step.definition}`);
    }
    if (version !== STORE_SCHEMA_VERSION) database.exec(`PRAGMA user_version = ${STORE_SCHEMA_VERSION}`);
    database.exec('COMMIT');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

/** A driver error's code (`ERR_SQLITE_ERROR`, `EACCES`), never its message: that may quote a statement's values. */
function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'an error';
}

/** A file as the store found it: the same path must go on naming it (device and inode). */
interface FileSeen {
  dev: number;
  ino: number;
}

class SqliteStore implements WaitingStore {
  /** Why the store stopped for good (its files changed under it), once they did. */
  #lost: string | undefined;
  /** The shared-memory file SQLite maps beside a WAL database (`-shm`), once seen, and its length then. */
  #sharedMemory: (FileSeen & { size: number }) | undefined;

  constructor(
    readonly location: string,
    readonly database: DatabaseSync,
    readonly file: FileSeen,
  ) {
    this.#lost = this.#changedUnderneath();
  }

  /**
   * Whether the path still names the file SQLite opened, and the `-shm` file it maps is still whole. Another file at
   * the path (the store removed or replaced) would let sign-ins create users in the core that the store named by the
   * path never records, so no rollback finds them. A `-shm` cut short under SQLite's memory map ends the process with
   * SIGBUS at its next access, which no code can catch: it is looked at before each statement instead, and the store
   * stops. (Between that look and the statement a change can still slip in; only a process of its own would close
   * that gap.) While this connection is open SQLite itself never shrinks or removes the `-shm`.
   */
  #changedUnderneath(): string | undefined {
    let file;
    try {
      file = statSync(this.location, { throwIfNoEntry: false });
    } catch (error) {
      return `its file cannot be looked at (${codeOf(error)})`;
    }
    if (file === undefined) return 'its file was removed';
    if (file.dev !== this.file.dev || file.ino !== this.file.ino) return 'its file was replaced by another';
    const seen = this.#sharedMemory;
    const sharedMemory = statSync(`${this.location}-shm`, { throwIfNoEntry: false });
    if (seen !== undefined) {
      if (sharedMemory === undefined || sharedMemory.dev !== seen.dev || sharedMemory.ino !== seen.ino)
        return 'the -shm file SQLite keeps beside it was removed or replaced';
      if (sharedMemory.size < seen.size) {
        // Given back its length (zeros: SQLite rebuilds that index from the WAL), so that closing the database, which
        // Node also does as the process exits, reads no page the map lost.
        try {
          truncateSync(`${this.location}-shm`, seen.size);
        } catch {
          // Left as it is: the store stops all the same.
        }
        return 'the -shm file SQLite keeps beside it was cut short';
      }
    }
    if (sharedMemory !== undefined) this.#sharedMemory = { dev: sharedMemory.dev, ino: sharedMemory.ino, size: sharedMemory.size };
    return undefined;
  }

  #run<T>(what: string, work: () => T): Promise<T> {
    this.#lost ??= this.#changedUnderneath();
    if (this.#lost !== undefined) {
      return Promise.reject(
        new WaitingStoreError(
          'waitingStoreUnavailable',
          `the waiting store ${this.location} stopped, as ${this.#lost} while it was open: nothing more is read or written in it`,
        ),
      );
    }
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(
        new WaitingStoreError('waitingStoreUnavailable', `the waiting store ${this.location} could not ${what} (${codeOf(error)})`, { cause: error }),
      );
    }
  }

  park(user: ParkedUser, now = Date.now()): Promise<boolean> {
    return this.#run('park a user', () => {
      if (user.sourceId !== undefined) {
        this.database.prepare(`DELETE FROM ${WAITING_TABLE} WHERE source_id = ? AND email <> ? AND state = 'waiting'`).run(user.sourceId, user.email);
      }
      const columns = ['email', ...parkedColumns, 'state', 'parked_at', 'seen_at'];
      const updates = [...parkedColumns, 'seen_at'].map((column) => `${column} = excluded.${column}`).join(', ');
      const statement = this.database.prepare(
        `INSERT INTO ${WAITING_TABLE} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
         ON CONFLICT (email) DO UPDATE SET ${updates} WHERE ${WAITING_TABLE}.state = 'waiting'`,
      );
      const values: SQLInputValue[] = [user.email, ...parkedValues(user, (value) => (value ? 1 : 0)), 'waiting', now, now];
      return Number(statement.run(...values).changes) === 1;
    });
  }

  find(email: string): Promise<StoredWaitingUser | undefined> {
    return this.#run('read a user', () => {
      const row = this.database.prepare(`SELECT ${tableColumns.join(', ')} FROM ${WAITING_TABLE} WHERE email = ?`).get(email);
      return row === undefined ? undefined : userOfRow(row);
    });
  }

  claim(email: string, leaseMs = DEFAULT_CLAIM_LEASE_MS, now = Date.now()): Promise<StoredWaitingUser | undefined> {
    return this.#run('claim a user', () => {
      const row = this.database
        .prepare(
          `UPDATE ${WAITING_TABLE} SET state = 'migrating', lease_until = ?
           WHERE email = ? AND (state = 'waiting' OR (state = 'migrating' AND lease_until < ?))
           RETURNING ${tableColumns.join(', ')}`,
        )
        .get(now + leaseMs, email, now);
      return row === undefined ? undefined : userOfRow(row);
    });
  }

  release(email: string): Promise<void> {
    return this.#run('release a user', () => {
      this.database.prepare(`UPDATE ${WAITING_TABLE} SET state = 'waiting', lease_until = NULL WHERE email = ? AND state = 'migrating'`).run(email);
    });
  }

  markMigrated(email: string, coreUserId: string, now = Date.now()): Promise<void> {
    return this.#run('mark a user migrated', () => {
      this.database
        .prepare(
          `UPDATE ${WAITING_TABLE} SET state = 'migrated', core_user_id = ?, migrated_at = ?, lease_until = NULL, legacy_hash = ''
           WHERE email = ? AND state = 'migrating'`,
        )
        .run(coreUserId, now, email);
      this.#truncateWal();
    });
  }

  /**
   * Copies the WAL into the database and empties it, so that its older frames (earlier versions of the pages, which
   * held the hash just taken out) do not stay in the `-wal` file until it is next reused. Never waits for a reader of
   * another process (the statement would hold the event loop for the busy timeout): it is then left for the next
   * arrival, or for the close, which checkpoints too. Nothing of it can fail the write it follows.
   */
  #truncateWal(): void {
    try {
      this.database.exec('PRAGMA busy_timeout = 0');
      this.database.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    } catch {
      // Busy or failed: the hash is gone from the table all the same, and the next checkpoint writes over the frames.
    } finally {
      try {
        this.database.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      } catch {
        // The connection is gone: the next statement says so.
      }
    }
  }

  counts(): Promise<StoreCounts> {
    return this.#run('count its users', () => {
      const states = this.database.prepare(`SELECT state, COUNT(*) AS users FROM ${WAITING_TABLE} GROUP BY state`).all();
      const days = this.database
        .prepare(
          `SELECT strftime('%Y-%m-%d', migrated_at / 1000, 'unixepoch') AS day, COUNT(*) AS users FROM ${WAITING_TABLE}
           WHERE state = 'migrated' GROUP BY day ORDER BY day`,
        )
        .all();
      return countsOfRows(states, days);
    });
  }

  async *waitingList(): AsyncIterable<WaitingListEntry> {
    const rows = await this.#run('list the waiting users', () =>
      this.database.prepare(`SELECT email, source_id FROM ${WAITING_TABLE} WHERE state <> 'migrated' ORDER BY email`).iterate(),
    );
    for (const row of rows) yield entryOfRow(row);
  }

  async *arrivals(): AsyncIterable<{ email: string; coreUserId: string }> {
    const rows = await this.#run('list the arrived users', () =>
      this.database.prepare(`SELECT email, core_user_id FROM ${WAITING_TABLE} WHERE state = 'migrated' ORDER BY email`).all(),
    );
    for (const row of rows) yield arrivalOfRow(row);
  }

  touch(email: string, now = Date.now()): Promise<void> {
    return this.#run('mark a user seen', () => {
      this.database.prepare(`UPDATE ${WAITING_TABLE} SET seen_at = ? WHERE email = ? AND state = 'waiting'`).run(now, email);
    });
  }

  leave(email: string): Promise<boolean> {
    return this.#run(
      'take a user out',
      () => Number(this.database.prepare(`DELETE FROM ${WAITING_TABLE} WHERE email = ? AND state = 'waiting'`).run(email).changes) === 1,
    );
  }

  forgetUnseen(since: number): Promise<number> {
    return this.#run('take out the users a sync no longer met', () =>
      Number(this.database.prepare(`DELETE FROM ${WAITING_TABLE} WHERE state = 'waiting' AND (seen_at IS NULL OR seen_at < ?)`).run(since).changes),
    );
  }

  forget(email: string): Promise<void> {
    return this.#run('forget a user', () => {
      this.database.prepare(`DELETE FROM ${WAITING_TABLE} WHERE email = ?`).run(email);
    });
  }

  forgetWaiting(): Promise<number> {
    return this.#run('forget the waiting users', () => Number(this.database.prepare(`DELETE FROM ${WAITING_TABLE} WHERE state <> 'migrated'`).run().changes));
  }

  checkAvailable(): Promise<void> {
    return this.#run('answer', () => {
      this.database.prepare(`SELECT 1 FROM ${WAITING_TABLE} LIMIT 1`).get();
    });
  }

  close(): Promise<void> {
    // Closing checkpoints the WAL through the -shm map: a store whose files changed under it is left as it is.
    this.#lost ??= this.#changedUnderneath();
    if (this.#lost !== undefined) return Promise.resolve();
    return this.#run('close', () => {
      if (this.database.isOpen) this.database.close();
    });
  }
}
