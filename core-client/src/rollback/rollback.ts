import { closeSync, createReadStream, existsSync } from 'node:fs';
import { z } from 'zod';
import { rollbackArrivals, type LoginTimeRollback } from '../login-time/rollback-arrivals.js';
import type { WaitingStore } from '../login-time/store/waiting-store.js';
import { createInterface } from 'node:readline';
import { checkOutputPaths, openOutputFile, OutputPathError, outputErrorSentence, writeFully, type NamedFile } from '../files/output-paths.js';
import type { CoreClient } from '../http/core-client.js';
import { AuthRejected, isCoreError, TenantNotFound, TlsFailed } from '../http/errors.js';
import { rollbackRecordPath } from '../journal/journal-file.js';
import { JournalLock } from '../journal/journal-lock.js';
import { journalFitsTarget } from '../journal/journal-target.js';
import { createdUsers, journalTarget, JournalReadError, type CreatedUser } from './journal-users.js';
import { removeCreatedRoles, rolesRecordPath, type RoleRemoval } from '../roles/role-setup.js';
import { rollbackRunEnd, rollbackRunStart, type RollbackCounts } from './rollback-record.js';
import { optional, optionalFrom } from '../optional.js';

export { RollbackCountsSchema, type RollbackCounts } from './rollback-record.js';

export type RollbackClient = Pick<CoreClient, 'removeUser' | 'userIdMapping' | 'describe' | 'roleUsers' | 'removeRole'>;

export interface RollbackOptions {
  journalPath: string;
  client: RollbackClient;
  dryRun?: boolean;
  /** Removals in flight at once. Default 8. */
  concurrency?: number;
  /**
   * Where removals are recorded, so a second run goes on where the first stopped. Default `<journal>.rollback`, which
   * also marks the journal as rolled back: a push refuses to resume from it (its users were removed on purpose).
   */
  recordPath?: string;
  /** Called with a sentence when a stale lock of a process that is gone was taken over. */
  onNote?: (message: string) => void;
  signal?: AbortSignal;
  /** Whether the core has id mapping (the pre-flight's probe); without it no user can be mapped. Default true. */
  mappingSupported?: boolean;
  /** Whether the core has user roles (the probe); without them the push created none. Default true. */
  rolesSupported?: boolean;
  /**
   * With `--login-time`: the waiting store. Its users created at their first sign-in are removed after the journal's
   * users and before the roles, so a role only they held goes in the same run; the users still waiting leave it.
   */
  loginTimeStore?: WaitingStore;
}

export interface RollbackSummary extends RollbackCounts {
  dryRun: boolean;
  recordPath: string;
  stoppedEarly?: { reason: 'authRejected' | 'tenantNotFound' | 'tlsFailed' | 'interrupted' | 'outputFailed'; message: string };
  /** One sentence each for what failed or was left alone (ids only). */
  problems: string[];
  /** The roles the push created, removed once no user has them (after the users); absent when it created none. */
  roles?: RoleRemoval;
  /** With `--login-time`: the users created at their first sign-in, removed, and the waiting store emptied. */
  loginTime?: LoginTimeRollback;
}

const MAX_LISTED_PROBLEMS = 100;

/**
 * Removes exactly the users a push created, by the ids its journal recorded, never a user that was there before.
 * A mapped user is removed by its old id (every call names it so), after checking that the old id still names the
 * user this migration created. Each removal is recorded; a re-run skips what is recorded.
 */
export async function runRollback(options: RollbackOptions): Promise<RollbackSummary> {
  const { client, journalPath } = options;
  const target = await journalTarget(journalPath);
  if (!journalFitsTarget(target, client.describe())) {
    throw new JournalReadError(
      `The journal ${journalPath} records a push to ${target}, not to ${client.describe()}: connect to the core the journal was written for.`,
    );
  }
  const recordPath = options.recordPath ?? rollbackRecordPath(journalPath);
  if (options.dryRun === true) return removeCreated(options, recordPath, undefined);
  // Like a push, a rollback holds the journal's lock: a push completing users while they are removed would undo it.
  let locked: ReturnType<typeof JournalLock.acquire>;
  try {
    locked = JournalLock.acquire(journalPath, 'rollback');
  } catch (error) {
    throw new JournalReadError(outputErrorSentence(error as NodeJS.ErrnoException, { role: 'journalLock', path: `${journalPath}.lock` }));
  }
  if (!locked.ok) throw new JournalReadError(locked.message);
  if (locked.tookOverFrom !== undefined) {
    options.onNote?.(
      `The journal's lock was left by process ${locked.tookOverFrom.pid} (started ${locked.tookOverFrom.startedAt}), which is gone; this rollback took it over.`,
    );
  }
  const record: NamedFile = { role: 'rollbackRecord', path: recordPath };
  let fd: number | undefined;
  try {
    const refused = await checkOutputPaths([{ role: 'journal', path: journalPath }], [record]);
    if (refused !== undefined) throw refused;
    // Opened (so created) before the first removal: the journal is marked rolled back before any user is gone.
    fd = openOutputFile(record, { append: true });
    const start = rollbackRunStart();
    try {
      writeFully(fd, `${JSON.stringify(start)}\n`);
    } catch (error) {
      throw new OutputPathError(`${outputErrorSentence(error as NodeJS.ErrnoException, record)} Nothing was removed.`, record.role);
    }
    const summary = await removeCreated(options, recordPath, fd);
    try {
      writeFully(fd, `${JSON.stringify(rollbackRunEnd(start, summary.stoppedEarly?.reason ?? 'complete', summary))}\n`);
    } catch (error) {
      // Every removal is recorded; only the run's end is not (`journal show` says "no end recorded").
      options.onNote?.(
        `${outputErrorSentence(error as NodeJS.ErrnoException, { role: 'rollbackRecord', path: recordPath })} The rollback's end was not recorded.`,
      );
    }
    return summary;
  } finally {
    if (fd !== undefined) closeSync(fd);
    locked.lock.release();
  }
}

async function removeCreated(options: RollbackOptions, recordPath: string, recordFd: number | undefined): Promise<RollbackSummary> {
  const { client, journalPath } = options;
  const done = await removedBefore(recordPath);
  const summary: RollbackSummary = {
    created: 0,
    removed: 0,
    alreadyRemoved: 0,
    removedBySync: 0,
    leftAlone: 0,
    failed: 0,
    notAttempted: 0,
    uncertain: 0,
    dryRun: options.dryRun === true,
    recordPath,
    problems: [],
  };
  const problem = (sentence: string): void => {
    if (summary.problems.length < MAX_LISTED_PROBLEMS) summary.problems.push(sentence);
  };
  const inFlight = new Set<Promise<void>>();
  const limit = options.concurrency ?? 8;

  const removeOne = async (user: CreatedUser): Promise<void> => {
    try {
      const call = optional('signal', options.signal);
      let removeId = user.coreId;
      if (options.mappingSupported !== false && user.externalId !== undefined) {
        const mapping = await client.userIdMapping(user.externalId, call);
        // A resume that found the user already mapped recorded the old id as its id: then the old id is the user's own.
        const ours = mapping === undefined || mapping.coreId === user.coreId || user.coreId === user.externalId;
        if (!ours) {
          summary.leftAlone += 1;
          problem(`the old id ${user.externalId} now names another core user (${mapping?.coreId ?? '?'}), not the one this migration created: left alone`);
          return;
        }
        if (mapping !== undefined) removeId = user.externalId;
      } else if (options.mappingSupported !== false) {
        // Mapped at the core after its mapping step was journalled? (A push killed between the two.) Then the core
        // names the user by the old id only, and a removal by its own id would do nothing.
        const mapping = await client.userIdMapping(user.coreId, call);
        if (mapping !== undefined && mapping.coreId === user.coreId) removeId = mapping.externalId;
      }
      await client.removeUser(removeId, call);
      summary.removed += 1;
      try {
        if (recordFd !== undefined) writeFully(recordFd, `${JSON.stringify({ k: user.key, u: removeId })}\n`);
      } catch (error) {
        // Removed but not recorded: a re-run removes it again, which is harmless; nothing more is removed now.
        summary.stoppedEarly ??= {
          reason: 'outputFailed',
          message: `${outputErrorSentence(error as NodeJS.ErrnoException, { role: 'rollbackRecord', path: recordPath })} Nothing more was removed.`,
        };
      }
    } catch (error) {
      if (error instanceof AuthRejected || error instanceof TenantNotFound || error instanceof TlsFailed) {
        summary.stoppedEarly ??= { reason: error.code, message: error.message };
        summary.notAttempted += 1;
        return;
      }
      if (options.signal?.aborted === true) {
        summary.notAttempted += 1;
        return;
      }
      summary.failed += 1;
      problem(`user ${user.externalId ?? user.coreId}: ${isCoreError(error) ? error.message : String(error)}`);
    }
  };

  const stats = { uncertain: 0 };
  for await (const user of createdUsers(journalPath, stats)) {
    summary.created += 1;
    if (done.has(user.key)) {
      summary.alreadyRemoved += 1;
      continue;
    }
    if (user.removedBySync === true) {
      summary.removedBySync += 1;
      continue;
    }
    if (summary.dryRun || summary.stoppedEarly !== undefined || options.signal?.aborted === true) {
      summary.notAttempted += 1;
      continue;
    }
    const pending = removeOne(user).finally(() => inFlight.delete(pending));
    inFlight.add(pending);
    if (inFlight.size >= limit) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  summary.uncertain = stats.uncertain;
  if (options.loginTimeStore !== undefined && summary.stoppedEarly === undefined && options.signal?.aborted !== true) {
    summary.loginTime = await rollbackArrivals(options.loginTimeStore, client, { dryRun: summary.dryRun, ...optional('signal', options.signal) });
  }
  if (options.rolesSupported !== false && summary.stoppedEarly === undefined && options.signal?.aborted !== true) {
    try {
      const roles = await removeCreatedRoles(client, rolesRecordPath(journalPath), {
        dryRun: summary.dryRun,
        ...optionalFrom('call', options.signal, (signal) => ({ signal })),
      });
      if (roles.created > 0) summary.roles = roles;
      for (const kept of roles.kept) problem(`the role "${kept.role}" this migration created is still held by ${kept.users} user(s): kept`);
    } catch (error) {
      problem(`the roles this migration created could not be removed: ${isCoreError(error) ? error.message : String(error)}; run the rollback again`);
    }
  }
  if (summary.stoppedEarly === undefined && options.signal?.aborted === true) {
    summary.stoppedEarly = {
      reason: 'interrupted',
      message: 'Interrupted: removals in flight finished and were recorded; run the same command again to go on.',
    };
  }
  return summary;
}

/**
 * How many users a rollback of this journal removes now: those the journal says the migration created (by its push
 * and its syncs), less those an earlier rollback or a sync removed. Read from the journal and its record alone, so a
 * face can ask before anything is sent.
 */
export async function usersToRemove(journalPath: string, recordPath = rollbackRecordPath(journalPath)): Promise<number> {
  const done = await removedBefore(recordPath);
  let count = 0;
  for await (const user of createdUsers(journalPath)) if (!done.has(user.key) && user.removedBySync !== true) count += 1;
  return count;
}

/** A line of the rollback record that names a user removed (its journal key). */
const RemovedKeySchema = z.looseObject({ k: z.string() });

async function removedBefore(recordPath: string): Promise<Set<string>> {
  const keys = new Set<string>();
  if (!existsSync(recordPath)) return keys;
  for await (const line of createInterface({ input: createReadStream(recordPath), crlfDelay: Infinity })) {
    try {
      const entry = RemovedKeySchema.safeParse(JSON.parse(line));
      if (entry.success) keys.add(entry.data.k);
    } catch {
      // A torn last line: that removal is done again (removing twice is harmless).
    }
  }
  return keys;
}
