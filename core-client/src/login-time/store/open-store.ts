import { resolve } from 'node:path';
import { isPostgresUrl } from '../../sources/database/postgres-url.js';
import type { WaitingStore } from './waiting-store.js';

/** A `postgresql://` (or `postgres://`) URL names a PostgreSQL store; anything else is a SQLite file's path. */
export { isPostgresUrl };

/** Where a setting's store is: a PostgreSQL URL as given, a SQLite file's path from the folder the command runs in. */
export function resolveStoreLocation(location: string, cwd: string): string {
  return isPostgresUrl(location) ? location : resolve(cwd, location);
}

/**
 * Opens the waiting store a setting names: a SQLite file path (created mode 0600 when absent and `create` allows) or a
 * PostgreSQL URL.
 * Each driver is loaded only when its kind of store is opened, so a run without a login-time migration loads neither.
 */
export interface OpenStoreOptions {
  /**
   * A store that does not exist (a SQLite file, a PostgreSQL database's table) is created (default: the push), or
   * refused (every other command: a mistyped path would otherwise be a new, empty store).
   */
  create?: boolean;
  /** Where a PostgreSQL store's password is read (`PGPASSWORD`); default the process's environment. */
  env?: NodeJS.ProcessEnv;
}

export async function openWaitingStore(location: string, options: OpenStoreOptions = {}): Promise<WaitingStore> {
  if (isPostgresUrl(location)) {
    const { openPostgresStore } = await import('./postgres-store.js');
    return openPostgresStore(location, options.env, options);
  }
  const { openSqliteStore } = await import('./sqlite-store.js');
  return openSqliteStore(location, options);
}
