import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { databaseFingerprint, isPostgresUrl } from '../sources/database/postgres-url.js';

const SAMPLE_BYTES = 1024 * 1024;

/**
 * Names a source file's content for the journal, so a journal is never applied to another export.
 *
 * Path-independent (the export may be moved or renamed between runs) and cheap on multi-gigabyte files: SHA-256 over
 * the size and the first and last MiB. That catches another export, a re-export and a truncated copy. It does not
 * catch a same-size edit in the middle of a big file; the journal's per-operation digest does (see journal.ts).
 *
 * A database (a `postgresql://` URL) is named by which database it is, not by what it holds: it changes between runs,
 * and a resume reads it as it is then (its rows are keyed by their ids, so what is done is still known).
 */
export async function sourceFingerprint(path: string, companions: readonly string[] = []): Promise<string> {
  if (isPostgresUrl(path)) return databaseFingerprint(path);
  const main = await fileFingerprint(path);
  if (companions.length === 0) return main;
  // An Auth0 export is two files: a rewritten password-hash file is another source as much as another user export.
  const hash = createHash('sha256').update(main);
  for (const companion of companions) hash.update(`\n${await fileFingerprint(companion)}`);
  return `sha256:${hash.digest('hex')}`;
}

async function fileFingerprint(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const hash = createHash('sha256').update(`core-migrate-source-v1\n${size}\n`);
    const head = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    await file.read(head, 0, head.length, 0);
    hash.update(head);
    const tailStart = Math.max(head.length, size - SAMPLE_BYTES);
    const tail = Buffer.alloc(size - tailStart);
    await file.read(tail, 0, tail.length, tailStart);
    hash.update(tail);
    return `sha256:${hash.digest('hex')}`;
  } finally {
    await file.close();
  }
}
