import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { WaitingStore } from './waiting-store.js';

/** A `postgresql://` (or `postgres://`) URL names a PostgreSQL store; anything else is a SQLite file's path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Opens the waiting store a setting names: a SQLite file path (created mode 0600 when absent) or a PostgreSQL URL. */
export async function openWaitingStore(location: string): Promise<WaitingStore> {
  return isPostgresUrl(location) ? openPostgresStore(location) : openSqliteStore(location);
}
