import { stat } from 'node:fs/promises';

/** What a file looked like when the plan read it: a push reads it again, and must notice if it is not the same. */
export interface FileSnapshot {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export async function snapshotFiles(paths: readonly string[]): Promise<FileSnapshot[]> {
  return Promise.all(
    paths.map(async (path) => {
      const info = await stat(path);
      return { path, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, dev: info.dev };
    }),
  );
}

/**
 * A sentence when a file changed since its snapshot (size, modification time, or another file put in its place),
 * else undefined. The push then reads other records than the plan counted: it must stop and say so.
 */
export async function describeFileChange(snapshots: readonly FileSnapshot[]): Promise<string | undefined> {
  for (const before of snapshots) {
    const now = await stat(before.path).catch((error: NodeJS.ErrnoException) => error);
    if (now instanceof Error) return `${before.path} was removed or became unreadable (${now.code ?? now.message}) during the push.`;
    const changes: string[] = [];
    if (now.size !== before.size) changes.push(`its size went from ${before.size} to ${now.size} bytes`);
    if (now.mtimeMs !== before.mtimeMs) changes.push('it was modified');
    if (now.ino !== before.ino || now.dev !== before.dev) changes.push('another file was put in its place');
    if (changes.length > 0) return `${before.path} changed during the push (${changes.join(', ')}).`;
  }
  return undefined;
}
