import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceRecord } from '../../../core-client/src/sources/source-user.js';

export const exportsDir = fileURLToPath(new URL('../../fixtures/exports/', import.meta.url));

export function fixture(relative: string): string {
  return join(exportsDir, relative);
}

export interface ReadOutcome<T> {
  records: T[];
  error: unknown;
}

/** Reads a whole stream, keeping what came before a thrown error as well as the error. */
export async function readAll<T = SourceRecord>(source: AsyncIterable<T>): Promise<ReadOutcome<T>> {
  const records: T[] = [];
  try {
    for await (const record of source) records.push(record);
    return { records, error: undefined };
  } catch (error) {
    return { records, error };
  }
}

export async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'core-migrate-sources-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
