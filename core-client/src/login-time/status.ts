import { closeSync, constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { checkOutputPaths, openOutputFile, OutputPathError, writeFully, type NamedFile } from '../files/output-paths.js';
import { isPostgresUrl, openWaitingStore } from './store/open-store.js';
import type { StoreCounts, WaitingListEntry } from './store/waiting-user.js';
import { optional } from '../optional.js';

/** How a login-time migration stands: its store's counts, and where the list of users still waiting was written. */
export type LoginMigrationStatus = StoreCounts & {
  /** The store, safe to show (a PostgreSQL URL without its password). */
  store: string;
  waitingList?: { path: string; users: number };
};

/** Rows of the waiting list written at a time. */
const WRITE_BATCH = 1_000;

const WAITING_LIST_HEADER = 'email,old_id\n';

/**
 * A SQLite store's files: the database and the journals SQLite keeps beside it, none of which an output may be, even
 * when absent: SQLite makes and removes its `-wal` and `-shm` as it opens and closes the store (a list written there
 * would be removed as this very command closes it).
 */
function storeFiles(storeLocation: string): NamedFile[] {
  if (isPostgresUrl(storeLocation)) return [];
  return ['', '-wal', '-shm', '-journal'].map((suffix) => ({ role: 'waitingStore', path: `${storeLocation}${suffix}` }));
}

/** The first bytes of an existing file (never through a link); undefined when there is none. */
async function firstBytes(path: string, length: number): Promise<string | undefined> {
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new OutputPathError(`The waiting list ${path} cannot be read to see what it is (${error.code ?? 'an error'}): choose another path.`, 'waitingList');
  });
  if (file === undefined) return undefined;
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * The waiting list's path, checked as every output is before anything is opened (never the store or a file beside it,
 * never a link, a device or a folder), and never over a file that is not an earlier waiting list (an export, a
 * journal): the list is written anew over one only, or over an empty file.
 */
async function waitingListRefusal(storeLocation: string, path: string): Promise<OutputPathError | undefined> {
  const refused = await checkOutputPaths(storeFiles(storeLocation), [{ role: 'waitingList', path }]);
  if (refused !== undefined) return refused;
  const head = await firstBytes(path, WAITING_LIST_HEADER.length);
  if (head === undefined || head === '' || head === WAITING_LIST_HEADER) return undefined;
  return new OutputPathError(
    `The waiting list ${path} exists and is not a waiting list (its first line is not email,old_id): nothing was written. ` +
      'Choose a new path, or remove that file first.',
    'waitingList',
  );
}

/**
 * Reads how many users wait, are being migrated, and arrived (per day); with `waitingListPath`, writes the users still
 * waiting (and those claimed by a sign-in now) as CSV (`email,old_id`), for the password reset that reaches them once
 * the operator ends the login-time window. The file is created owner-only, like every output; never a hash in it.
 */
export async function loginMigrationStatus(
  storeLocation: string,
  options: { waitingListPath?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<LoginMigrationStatus> {
  const path = options.waitingListPath === undefined ? undefined : resolve(options.waitingListPath);
  const refused = path === undefined ? undefined : await waitingListRefusal(storeLocation, path);
  if (refused !== undefined) throw refused;
  const store = await openWaitingStore(storeLocation, { create: false, ...optional('env', options.env) });
  try {
    const counts = await store.counts();
    if (path === undefined) return { store: store.location, ...counts };
    const users = await writeWaitingList(path, store.waitingList());
    return { store: store.location, ...counts, waitingList: { path, users } };
  } finally {
    await store.close();
  }
}

async function writeWaitingList(path: string, entries: AsyncIterable<WaitingListEntry>): Promise<number> {
  const fd = openOutputFile({ role: 'waitingList', path }, { append: false });
  try {
    writeFully(fd, WAITING_LIST_HEADER);
    let users = 0;
    let batch: string[][] = [];
    for await (const entry of entries) {
      batch.push([entry.email, entry.sourceId ?? '']);
      users += 1;
      if (batch.length >= WRITE_BATCH) {
        writeFully(fd, csvRows(batch));
        batch = [];
      }
    }
    writeFully(fd, csvRows(batch));
    return users;
  } finally {
    closeSync(fd);
  }
}

/**
 * The cells a spreadsheet would read as a formula (`=cmd|' /C calc'!A0@x.example`, a `+`, `-`, `@`, tab or CR first,
 * or their full-width forms): csv-stringify's `escape_formulas` writes them with a leading `'`, and they are quoted
 * too, so the cell is text wherever the list is opened. A program reading the list takes the `'` off such a cell.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Rows as CSV (RFC 4180: a cell with a comma, a quote or a line break quoted), every one ending in `\n`. */
function csvRows(rows: string[][]): string {
  return rows.length === 0 ? '' : stringify(rows, { escape_formulas: true, quoted_match: FORMULA_START, record_delimiter: 'unix' });
}
