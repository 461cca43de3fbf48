import pg from 'pg';
import { SourceError } from '../source-error.js';
import { describePostgresUrl, postgresConnectionString } from './postgres-url.js';

const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Every value as PostgreSQL's own text (`t`/`f`, timestamps, JSON): the readers parse what they use, once, and a row
 * is a few strings, not Date and JSON objects made for every column (which, at thousands of rows a second, is what
 * made the process grow its heap).
 */
const AS_TEXT: pg.CustomTypesConfig = { getTypeParser: () => (text: string) => text };
/** Rows fetched from the cursor at a time: a round trip per batch, and never more than a batch in memory. */
export const FETCH_ROWS = 500;

export type DatabaseRow = Record<string, unknown>;

/** When the snapshot was taken (the transaction's `now()`, the same for each of its reads), in milliseconds. */
export async function snapshotTime(snapshot: PostgresSnapshot): Promise<number> {
  const [clock] = await snapshot.query('SELECT to_char(now() AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\') AS as_of');
  const asOf = Date.parse(String(clock?.['as_of']));
  return Number.isNaN(asOf) ? Date.now() : asOf;
}

/** A driver error's SQLSTATE or system code, never its message (which may quote values). */
function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** What an operator is told for the failures a database source meets, by their code. */
function describeDatabaseFailure(error: unknown): string {
  const code = codeOf(error);
  switch (code) {
    case '28P01':
    case '28000':
      return 'the database refused the login: check the user in the URL and the password in PGPASSWORD';
    case '3D000':
      return 'the database named in the URL does not exist';
    case '42501':
      return 'the user in the URL may not read it (permission denied): connect as a user who can read the tables';
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `the database cannot be reached (${code})`;
    case '25P03':
    case '57P01':
      return `the database ended the connection (${code}): a run paused longer than the database lets a transaction wait ends so; run it again, the journal skips what is done`;
    default:
      return `the database answered with an error (${code ?? (error instanceof Error ? error.message : 'unknown')})`;
  }
}

/**
 * One read-only REPEATABLE READ transaction on one connection: every read in it sees the database as it was at its
 * first statement, whatever is written meanwhile. A run opens one for all its reads (the count, the push, a sync's two
 * passes), so they read the same users; each read streams its rows through a server-side cursor, a batch at a time.
 * The password comes from `PGPASSWORD`, never from the URL, which is the name shown.
 */
export class PostgresSnapshot {
  /** The URL as it can be shown (no password): the `file` of every location and message. */
  readonly name: string;
  readonly #client: pg.Client;
  #cursors = 0;
  #closed = false;
  /** The connection failed or was ended by the server: every later read says so. */
  #lost: unknown;

  private constructor(name: string, client: pg.Client) {
    this.name = name;
    this.#client = client;
  }

  static async open(url: string, env: NodeJS.ProcessEnv = process.env): Promise<PostgresSnapshot> {
    const name = describePostgresUrl(url);
    const client = new pg.Client({ connectionString: postgresConnectionString(url, env), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types: AS_TEXT });
    const snapshot = new PostgresSnapshot(name, client);
    // A connection the server drops while nothing is asked must not end the process: the next read reports it.
    client.on('error', (error) => {
      snapshot.#lost = error;
    });
    try {
      await client.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw snapshot.#failure(error);
    }
    return snapshot;
  }

  #failure(error: unknown, what?: string): SourceError {
    return new SourceError('unreadable', { file: this.name }, `${what === undefined ? '' : `${what}: `}${describeDatabaseFailure(error)}`, { cause: error });
  }

  /** A small query answered whole (the tables and columns there are), every value as its text. */
  async query(sql: string, values: readonly unknown[] = []): Promise<DatabaseRow[]> {
    this.#throwIfUnusable();
    try {
      return (await this.#client.query<DatabaseRow>(sql, [...values])).rows;
    } catch (error) {
      throw this.#failure(error);
    }
  }

  /**
   * The rows of `sql`, read through a cursor of their own, `FETCH_ROWS` at a time. Several reads may be open at once
   * on the one connection (each is its own cursor); one abandoned half-way closes its cursor.
   */
  async *rows(sql: string, what: string): AsyncGenerator<DatabaseRow> {
    this.#throwIfUnusable();
    this.#cursors += 1;
    const cursor = `core_migrate_read_${this.#cursors}`;
    try {
      await this.#client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`);
    } catch (error) {
      throw this.#failure(error, what);
    }
    let open = true;
    try {
      for (;;) {
        let batch: DatabaseRow[];
        try {
          batch = (await this.#client.query<DatabaseRow>(`FETCH ${FETCH_ROWS} FROM ${cursor}`)).rows;
        } catch (error) {
          open = false;
          throw this.#failure(this.#lost ?? error, what);
        }
        yield* batch;
        if (batch.length < FETCH_ROWS) return;
      }
    } finally {
      if (open && !this.#closed && this.#lost === undefined) await this.#client.query(`CLOSE ${cursor}`).catch(() => undefined);
    }
  }

  #throwIfUnusable(): void {
    if (this.#closed) throw new SourceError('unreadable', { file: this.name }, 'the database reading was already closed');
    if (this.#lost !== undefined) throw this.#failure(this.#lost);
  }

  /** Ends the transaction (it wrote nothing) and the connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#client.query('ROLLBACK').catch(() => undefined);
    await this.#client.end().catch(() => undefined);
  }
}
