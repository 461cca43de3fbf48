import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The user this process runs as, when the system has one (not on Windows). */
function processUser(): { uid: number; gid: number } | undefined {
  if (process.getuid === undefined || process.getgid === undefined) return undefined;
  return { uid: process.getuid(), gid: process.getgid() };
}

function isDenied(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'EACCES' || error.code === 'EPERM');
}

/** `path` is owned by…, in words, when it can be looked at. */
function ownerOf(path: string, what: string): string {
  try {
    const info = statSync(path);
    return `${what} ${path} is owned by uid ${info.uid}, gid ${info.gid}, mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}`;
  } catch {
    return `${what} ${path} cannot even be looked at`;
  }
}

/**
 * Why this process may not use the SQLite store at `path`, as the end of a sentence, or undefined when nothing keeps
 * it from trying. SQLite needs to read and write the file, and to create its `-wal` and `-shm` files in its folder;
 * without these it answers only "unable to open database file". The usual cause is a store written by another user
 * (a push run as root on the host, the image running as its own user), so the sentence names the owner found, the
 * user this process runs as, and the `chown` that hands the store over.
 */
export function storeAccessProblem(path: string): string | undefined {
  const user = processUser();
  if (user === undefined) return undefined;
  const folder = dirname(path);
  const handOver = `give the store's folder and its files to this user (chown -R ${user.uid}:${user.gid} ${folder}), or run as their owner`;
  const runsAs = `this process runs as uid ${user.uid}, gid ${user.gid}`;
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    if (!isDenied(error)) return undefined;
    return `permission denied: ${ownerOf(folder, 'its folder')}, where SQLite must create its -wal and -shm files, and ${runsAs}; ${handOver}`;
  }
  // The journals a process left beside it (one that did not close the store) are SQLite's to write too.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      accessSync(file, constants.R_OK | constants.W_OK);
    } catch (error) {
      if (isDenied(error)) return `permission denied: ${ownerOf(file, 'the file')}, and ${runsAs}; ${handOver}`;
    }
  }
  return undefined;
}
