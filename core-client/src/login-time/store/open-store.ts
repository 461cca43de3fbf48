import type { WaitingStore } from './waiting-store.js';

/** A `postgresql://` (or `postgres://`) URL names a PostgreSQL store; anything else is a SQLite file's path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the waiting store a setting names: a SQLite file path (created mode 0600 when absent) or a PostgreSQL URL.
 * Each driver is loaded only when its kind of store is opened, so a run without a login-time migration loads neither.
 */
export async function openWaitingStore(location: string): Promise<WaitingStore> {
  if (isPostgresUrl(location)) {
    const { openPostgresStore } = await import('./postgres-store.js');
    return openPostgresStore(location);
  }
  const { openSqliteStore } = await import('./sqlite-store.js');
  return openSqliteStore(location);
}
