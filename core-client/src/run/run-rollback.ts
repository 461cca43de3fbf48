import { resolve } from 'node:path';
import { runPreflight } from '../connection/preflight.js';
import { OutputPathError } from '../files/output-paths.js';
import { IdentityProbeError, probeIdentityFeatures } from '../identity/features.js';
import { JournalReadError } from '../rollback/journal-users.js';
import { runRollback, type RollbackSummary } from '../rollback/rollback.js';
import { clientOf, connectionOf, connectionWarnings, type ConnectionContext } from './connection-of.js';
import { preflightProblem, runProblem, settingProblem, type SettingProblem } from '../settings/setting-problem.js';
import { Problem } from '../problem.js';
import type { MigrationSettings } from '../settings/settings.js';
import { optional } from '../optional.js';
import { openWaitingStore, resolveStoreLocation } from '../login-time/store/open-store.js';
import { isWaitingStoreError, type WaitingStore } from '../login-time/store/waiting-store.js';

export interface RollbackRun {
  /** The journal to undo; default: the settings' `journal`. */
  journalPath?: string;
  signal?: AbortSignal;
  /** A sentence about the run (a stale lock taken over). */
  onNote?: (message: string) => void;
  /** A file holding the api-key readable by others, the key sent in clear: said before anything is sent. */
  onWarning?: (message: string) => void;
}

/**
 * The rollback both faces run: the connection and its pre-flight, the core's removal (and mapping) features, then
 * every user the journal says this migration created removed by its id. Nothing is removed when it returns a
 * problem.
 */
export async function rollbackWithSettings(
  settings: MigrationSettings,
  context: ConnectionContext,
  run: RollbackRun = {},
): Promise<RollbackSummary | SettingProblem> {
  const journal = run.journalPath ?? (settings.journal === undefined ? undefined : resolve(context.cwd, settings.journal));
  if (journal === undefined) return settingProblem('journalNeeded', 'journal', '{setting} is needed: the journal of the push to undo');
  const connection = await connectionOf(settings, context);
  if (connection instanceof Problem) return connection;
  for (const warning of await connectionWarnings(settings, connection.coreUrls, context.cwd)) run.onWarning?.(warning);
  const client = clientOf(connection, { giveUpAfter: settings.giveUpAfter });
  if (client instanceof Problem) return client;
  try {
    const preflight = await runPreflight(client);
    if (!preflight.ok) {
      return preflightProblem(preflight.failure, 'nothing was removed');
    }
    const support = await probeIdentityFeatures(client);
    if (!support.removal) {
      return runProblem(
        'removalMissing',
        'setting',
        `the core at ${preflight.target} has no user removal (/user/remove answered 404), so nothing can be rolled back.`,
        'core',
      );
    }
    // The store is opened first: one that cannot be read stops the rollback before anything is removed.
    const store = settings.loginTime === undefined ? undefined : await openLoginTimeStore(settings.loginTime, context);
    if (store instanceof Problem) return store;
    try {
      return await runRollback({
        journalPath: journal,
        client,
        dryRun: settings.dryRun,
        mappingSupported: support.mapping,
        rolesSupported: support.roles,
        ...optional('loginTimeStore', store),
        ...optional('signal', run.signal),
        ...optional('onNote', run.onNote),
      });
    } finally {
      await store?.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return settingProblem('journalMissing', 'journal', `{setting} ${journal}: no such journal.`);
    if (error instanceof IdentityProbeError || error instanceof JournalReadError) return error;
    if (isWaitingStoreError(error)) return error;
    if (error instanceof OutputPathError) return runProblem('journalUnreadable', 'journal', error.message, 'journal');
    throw error;
  } finally {
    await client.close();
  }
}

async function openLoginTimeStore(location: string, context: ConnectionContext): Promise<WaitingStore | SettingProblem> {
  try {
    return await openWaitingStore(resolveStoreLocation(location, context.cwd), { create: false, env: context.env });
  } catch (error) {
    if (isWaitingStoreError(error)) return error.withConsequence('nothing was removed');
    throw error;
  }
}
