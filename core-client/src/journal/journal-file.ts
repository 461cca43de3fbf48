import { closeSync, openSync, readSync, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { outputErrorSentence } from '../files/output-paths.js';
import { JournalLock } from './journal-lock.js';
import type { OpenJournalOptions } from './journal-types.js';

/**
 * Before a journal is read: it is a regular file (a FIFO would hang, /dev/null swallow) or none yet, not rolled back,
 * and locked unless read-only (a stale lock of a process that is gone is taken over, and said). A sentence refuses it.
 */
export async function openingOf(
  path: string,
  options: Pick<OpenJournalOptions, 'readOnly' | 'onNote'>,
): Promise<{ existing: Stats | undefined; lock: JournalLock | undefined } | string> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing !== undefined && !existing.isFile()) {
    return (
      `The journal ${path} is not a regular file (${existing.isSymbolicLink() ? 'a symbolic link' : 'a device, FIFO or folder'}): ` +
      'a journal must be a file to resume from. Pass a file path with --journal.'
    );
  }
  if (existing !== undefined && existing.size > 0) {
    const rolledBack = await rolledBackSentence(path);
    if (rolledBack !== undefined) return rolledBack;
  }
  if (options.readOnly === true) return { existing, lock: undefined };
  let locked: ReturnType<typeof JournalLock.acquire>;
  try {
    locked = JournalLock.acquire(path);
  } catch (error) {
    return outputErrorSentence(error as NodeJS.ErrnoException, { role: 'journalLock', path: `${path}.lock` });
  }
  if (!locked.ok) return locked.message;
  if (locked.tookOverFrom !== undefined) {
    options.onNote?.(
      `The journal's lock was left by process ${locked.tookOverFrom.pid} (started ${locked.tookOverFrom.startedAt}), which is gone; this push took it over.`,
    );
  }
  return { existing, lock: locked.lock };
}

/** Where `core-migrate rollback` records its removals; its presence marks the journal as rolled back. */
export function rollbackRecordPath(journalPath: string): string {
  return `${journalPath}.rollback`;
}

/**
 * A rolled-back journal no longer says what is on the core: the users it records as done were removed on purpose,
 * so a resume would stop at the first one it checks (or, unchecked, skip users that are gone). It is refused with
 * the way on instead; a rollback that was interrupted is finished by running it again.
 */
async function rolledBackSentence(path: string): Promise<string | undefined> {
  const record = rollbackRecordPath(path);
  const info = await lstat(record).catch(() => undefined);
  if (info === undefined) return undefined;
  return (
    `The journal ${path} was rolled back (${record} records the users removed on purpose), so it no longer says what is on the core. ` +
    'To migrate again, pass a new --journal file: every user is sent again and the removed ones are created anew. ' +
    'If the rollback was interrupted, run it again first to finish it.'
  );
}

/** Length of the file up to and including its last newline: whatever follows is a torn write. */
export async function lengthOfCompleteLines(path: string, size: number): Promise<number> {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline !== -1) return start + newline + 1;
      end = start;
    }
    return 0;
  } finally {
    await file.close();
  }
}

/** The line that starts at `offset`, without its newline (an account's state line, read back for its ids). */
export function readLineAt(path: string, offset: number): string {
  const fd = openSync(path, 'r');
  let text = '';
  try {
    const chunk = Buffer.alloc(4096);
    for (let at = offset; ; at += chunk.length) {
      const read = readSync(fd, chunk, 0, chunk.length, at);
      const part = chunk.subarray(0, read).toString('latin1');
      const newline = part.indexOf('\n');
      text += newline === -1 ? part : part.slice(0, newline);
      if (newline !== -1 || read < chunk.length) break;
    }
  } finally {
    closeSync(fd);
  }
  return Buffer.from(text, 'latin1').toString('utf8');
}
