import { closeSync } from 'node:fs';
import { resolve } from 'node:path';
import { openOutputFile, writeFully } from '../files/output-paths.js';
import { openWaitingStore } from './store/open-store.js';
import type { StoreCounts, WaitingListEntry } from './store/waiting-user.js';

/** How a login-time migration stands: its store's counts, and where the list of users still waiting was written. */
export type LoginMigrationStatus = StoreCounts & {
  /** The store, safe to show (a PostgreSQL URL without its password). */
  store: string;
  waitingList?: { path: string; users: number };
};

/** Rows of the waiting list written at a time. */
const WRITE_BATCH = 1_000;

/**
 * Reads how many users wait, are being migrated, and arrived (per day); with `waitingListPath`, writes the users still
 * waiting (and those claimed by a sign-in now) as CSV (`email,old_id`), for the password reset that reaches them once
 * the operator ends the login-time window. The file is created owner-only, like every output; never a hash in it.
 */
export async function loginMigrationStatus(
  storeLocation: string,
  options: { waitingListPath?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<LoginMigrationStatus> {
  const store = await openWaitingStore(storeLocation, { create: false, ...(options.env === undefined ? {} : { env: options.env }) });
  try {
    const counts = await store.counts();
    if (options.waitingListPath === undefined) return { store: store.location, ...counts };
    const path = resolve(options.waitingListPath);
    const users = await writeWaitingList(path, store.waitingList());
    return { store: store.location, ...counts, waitingList: { path, users } };
  } finally {
    await store.close();
  }
}

async function writeWaitingList(path: string, entries: AsyncIterable<WaitingListEntry>): Promise<number> {
  const fd = openOutputFile({ role: 'waitingList', path }, { append: false });
  try {
    writeFully(fd, 'email,old_id\n');
    let users = 0;
    let batch: string[] = [];
    for await (const entry of entries) {
      batch.push(`${csvField(entry.email)},${csvField(entry.sourceId ?? '')}\n`);
      users += 1;
      if (batch.length >= WRITE_BATCH) {
        writeFully(fd, batch.join(''));
        batch = [];
      }
    }
    writeFully(fd, batch.join(''));
    return users;
  } finally {
    closeSync(fd);
  }
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; otherwise exactly as stored. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
