import { open } from 'node:fs/promises';

/** Every SQLite database file begins with these 16 bytes. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Whether a file is a SQLite database, by its first bytes (whatever its name). */
export async function isSqliteFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SQLITE_MAGIC.length), 0, SQLITE_MAGIC.length, 0);
    return bytesRead === SQLITE_MAGIC.length && buffer.equals(SQLITE_MAGIC);
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}
