import { OutputPathError } from '../files/output-paths.js';
import { isCoreError } from '../http/errors.js';
import { createdRoles, rolesRecordPath, setUpRoles, type RoleSetup } from '../roles/role-setup.js';
import type { PushControl } from '../push/control.js';
import type { CredentialCheck } from '../push/credentials.js';
import type { PushEventListener } from '../push/events.js';
import { JournalError } from '../journal/journal.js';
import { SyncRefusedError } from '../sync/sync-guard.js';
import { runMigration } from '../push/migration.js';
import { openWaitingStore } from '../login-time/store/open-store.js';
import { isWaitingStoreError, type WaitingStore } from '../login-time/store/waiting-store.js';
import { plannedRejectionsOf, type PushSummary } from '../summary/push-summary.js';
import { isSourceError } from '../sources/source-error.js';
import { commandLineOf } from '../settings/command-line.js';
import type { PreparedMigration } from './prepare-migration.js';
import { runProblem, type SettingProblem } from '../settings/setting-problem.js';
import type { MigrationSettings } from '../settings/settings.js';
import { optional, optionalFrom } from '../optional.js';

export interface RunControls {
  /** Stop taking new operations; those in flight finish and are journalled (the first Ctrl-C, the app's q). */
  signal?: AbortSignal;
  /** Abandon the requests in flight too. */
  abandonSignal?: AbortSignal;
  control?: PushControl;
  onEvent?: PushEventListener;
  onCredentialChecks?: (checks: CredentialCheck[], stage: 'local' | 'signIn') => void;
}

/**
 * Pushes a prepared run: the known accounts checked locally, the plan streamed to the core, the accounts signed in.
 * A journal or output that fails, or an export that cannot be read as a whole, ends it with its problem. A database's
 * snapshot, which the run read, is closed at its end.
 */
export async function runPrepared(prepared: PreparedMigration, controls: RunControls = {}): Promise<PushSummary | SettingProblem> {
  try {
    return await pushPrepared(prepared, controls);
  } finally {
    await prepared.planOptions.database?.close();
  }
}

async function pushPrepared(prepared: PreparedMigration, controls: RunControls): Promise<PushSummary | SettingProblem> {
  let roles: RoleSetup | undefined;
  try {
    roles = await rolesBeforeFirstUser(prepared, controls.signal);
  } catch (error) {
    if (error instanceof OutputPathError) return runProblem('rolesRecordUnwritable', 'journal', error.message, 'journal');
    if (!isCoreError(error)) throw error;
    return runProblem('rolesNotCreated', 'core', `creating the roles failed, so no user was sent: ${error.message}`, 'core');
  }
  const withRoles = roles === undefined ? prepared.identity : { ...prepared.identity, refusedRoles: roles.refused };
  const identity = prepared.command === 'sync' && withRoles.roles ? { ...withRoles, managedRoles: await managedRoles(prepared) } : withRoles;
  // A dry run writes nothing: it does not create the store either.
  const storeLocation = prepared.settings.dryRun ? undefined : prepared.paths.loginTimeStore;
  let loginTimeStore: WaitingStore | undefined;
  try {
    loginTimeStore = storeLocation === undefined ? undefined : await openWaitingStore(storeLocation);
  } catch (error) {
    if (isWaitingStoreError(error)) return error;
    throw error;
  }
  try {
    const summary = await runMigration({
      sourcePath: prepared.paths.sourcePath,
      planOptions: prepared.planOptions,
      // A sync's count is the delta's, known only once the export is read.
      ...(prepared.command === 'sync'
        ? {
            mode: 'sync' as const,
            sync: {
              deleted: prepared.settings.deleted,
              minOverlapPercent: prepared.settings.minOverlap,
              ignoreOverlap: prepared.settings.ignoreOverlap,
              maxRemovals: prepared.settings.maxRemovals,
            },
          }
        : {}),
      ...(prepared.planned === undefined || prepared.command === 'sync'
        ? {}
        : { total: prepared.planned.summary.operations, plannedRejections: plannedRejectionsOf(prepared.planned.summary) }),
      client: prepared.client,
      journalPath: prepared.paths.journalPath,
      reportPath: prepared.paths.reportPath,
      concurrency: prepared.limits,
      ...optionalFrom('giveUpAfterMs', prepared.settings.giveUpAfter, (seconds) => seconds * 1000),
      dryRun: prepared.settings.dryRun,
      inputFiles: prepared.inputFiles,
      sourceSnapshot: prepared.snapshot,
      identity,
      ...optional('credentials', prepared.credentials),
      ...optional('loginTimeStore', loginTimeStore),
      ...controls,
    });
    if (roles === undefined) return summary;
    const steps = summary.steps === undefined || summary.dryRun ? summary.steps : { ...summary.steps, rolesCreated: roles.created.length };
    return { ...summary, roles, ...optional('steps', steps) };
  } catch (error) {
    if (error instanceof JournalError) return error;
    if (error instanceof SyncRefusedError) return error;
    if (error instanceof OutputPathError) return error;
    if (isSourceError(error)) return error;
    if (isWaitingStoreError(error)) return error;
    throw error;
  } finally {
    await loginTimeStore?.close();
  }
}

/**
 * Every role the plan gives, created once before the first user (issue 21), with the roles file's permissions; the
 * created ones are recorded beside the journal for the rollback. Undefined when the push gives no roles.
 */
async function rolesBeforeFirstUser(prepared: PreparedMigration, signal: AbortSignal | undefined): Promise<RoleSetup | undefined> {
  const rules = prepared.planOptions.roles;
  const wanted = Object.keys(prepared.planned?.summary.roles.wanted ?? {});
  if (!prepared.identity.roles || rules === undefined || wanted.length === 0) return undefined;
  const permissions = Object.fromEntries(wanted.map((role) => [role, rules.permissions?.[role] ?? []]));
  return setUpRoles(prepared.client, permissions, {
    update: prepared.settings.rolesUpdate,
    dryRun: prepared.settings.dryRun,
    recordPath: rolesRecordPath(prepared.paths.journalPath),
    fromFile: rules.permissions !== undefined,
    ...optionalFrom('call', signal, (present) => ({ signal: present })),
  });
}

/** The roles a sync may take from a user: every role of the newer export's plan, and those the migration created. */
async function managedRoles(prepared: PreparedMigration): Promise<string[]> {
  const planned = Object.keys(prepared.planned?.summary.roles.wanted ?? {});
  const created = await createdRoles(rolesRecordPath(prepared.paths.journalPath));
  return [...new Set([...planned, ...created])];
}

/**
 * The settings that run this push again from its journal: the same settings with the journal named, so the command
 * finds it from any folder. The resume command both faces print is `commandLineOf` of these.
 */
export function resumeSettings(prepared: Pick<PreparedMigration, 'settings' | 'paths' | 'command'>): MigrationSettings {
  return { ...prepared.settings, journal: prepared.settings.journal ?? prepared.paths.journalPath };
}

/** The command line that resumes (or repeats) a prepared run. */
export function resumeCommandLine(prepared: Pick<PreparedMigration, 'settings' | 'paths' | 'command'>): string[] {
  return commandLineOf(resumeSettings(prepared), prepared.command);
}

/** The sync that re-imports the hashes of users an earlier run of the journal created with other hash parameters. */
export function syncCommandLine(prepared: Pick<PreparedMigration, 'settings' | 'paths' | 'command'>): string[] {
  return commandLineOf(resumeSettings(prepared), 'sync');
}
