import type { WaitingStore } from './waiting-store.js';

/** A `postgresql://` (or `postgres://`) URL names a PostgreSQL store; anything else is a SQLite file's path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the waiting store a setting names: a SQLite file path (created mode 0600 when absent) or a PostgreSQL URL.
 * Each driver is loaded only when its kind of store is opened, so a run without a login-time migration loads neither.
 */
export interface OpenStoreOptions {
  /** A SQLite file that does not exist is created (default), or refused (a command that only reads). */
  create?: boolean;
  /** Where a PostgreSQL store's password is read (`PGPASSWORD`); default the process's environment. */
  env?: NodeJS.ProcessEnv;
}

export async function openWaitingStore(location: string, options: OpenStoreOptions = {}): Promise<WaitingStore> {
  if (isPostgresUrl(location)) {
    const { openPostgresStore } = await import('./postgres-store.js');
    return openPostgresStore(location, options.env);
  }
  const { openSqliteStore } = await import('./sqlite-store.js');
  return openSqliteStore(location, options);
}
