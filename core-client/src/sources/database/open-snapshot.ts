import type { PostgresSnapshot } from './postgres-snapshot.js';

/**
 * Opens a run's snapshot of a database (`PostgresSnapshot.open`), loading the PostgreSQL driver only then: a run of a
 * file never loads it. Rejects with the SourceError that says why the database cannot be read.
 */
export async function openPostgresSnapshot(url: string, env: NodeJS.ProcessEnv): Promise<PostgresSnapshot> {
  const { PostgresSnapshot: Snapshot } = await import('./postgres-snapshot.js');
  return Snapshot.open(url, env);
}
