import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { accountRoleOf, fieldGroups } from '../plan/field-groups.js';
import type { ImportOperation } from '../plan/operation.js';
import type { PlannedRecord } from '../plan/plan-source.js';
import type { Journal } from '../journal/journal.js';
import { Problem } from '../problem.js';
import type { SyncForecast } from '../summary/push-summary.js';
import { StateFlag, type UserStates } from '../journal/user-states.js';

/**
 * A sync refuses an export in which fewer than this share of the journal's users are still there: a newer export
 * of the same system keeps most of its users (a source with 30 % churn keeps 70 %), an unrelated one keeps none.
 */
export const DEFAULT_MIN_OVERLAP_PERCENT = 50;

/**
 * A sync removes at most this many users unless told otherwise: a real week of an old system deletes and disables
 * far fewer, while the accidents (a truncated or filtered export, everyone disabled at once) remove far more. A share
 * scales with the migration; rounded up, it always lets a small journal lose one user.
 */
export const DEFAULT_MAX_REMOVALS = '5%';

/** How many users a sync may remove: a count (`20`) or a share of the journal's users (`5%`). */
export const RemovalLimitSchema = z
  .string()
  .trim()
  .regex(/^\d{1,9}%?$/, "must be a count of users (e.g. 20) or a share of the journal's users (e.g. 5%)")
  .refine((text) => !text.endsWith('%') || Number.parseInt(text, 10) <= 100, 'must be a share from 0% to 100%');

/** The users a limit allows to remove out of a journal of `journalUsers`. */
export function removalLimitOf(text: string | undefined, journalUsers: number): number {
  const limit = RemovalLimitSchema.parse(text ?? DEFAULT_MAX_REMOVALS);
  const value = Number.parseInt(limit, 10);
  return limit.endsWith('%') ? Math.ceil((value * journalUsers) / 100) : value;
}

export interface SyncGuardOptions {
  /** Whether users gone from the newer export are removed (`--deleted remove`). */
  removesGone: boolean;
  /** The least share, in percent, of the journal's users the newer export must still have. */
  minOverlapPercent?: number | undefined;
  /** Go on whatever the overlap (the operator says the export is the right one). */
  ignoreOverlap?: boolean | undefined;
  /** A count or a share of the journal's users (`RemovalLimitSchema`). */
  maxRemovals?: string | undefined;
  /** Stops the first pass early (Ctrl-C): what it counted until then is partial, and the run sends nothing. */
  signal?: AbortSignal | undefined;
}

/** Whether the export is too unlike the journal's system for a sync to go on (see `DEFAULT_MIN_OVERLAP_PERCENT`). */
export function overlapTooLow(forecast: SyncForecast): boolean {
  return forecast.journalUsers > 0 && forecast.recognised * 100 < forecast.minOverlapPercent * forecast.journalUsers;
}

/**
 * A sync refused before anything was sent: the export does not look like a newer export of the journal's system.
 * The setting that lets it through anyway is `ignoreOverlap`; its words also name the journal's setting (exit 2).
 */
export class SyncRefusedError extends Problem<'ignoreOverlap' | 'journal', 'syncRefused'> {
  override readonly name = 'SyncRefusedError';
  constructor(readonly forecast: SyncForecast) {
    super('syncRefused', 'journal', 'ignoreOverlap', (face, name) => {
      const ignore = name('ignoreOverlap');
      return (
        `${forecast.recognised} of the journal's ${forecast.journalUsers} users appear in this export (at least ${forecast.minOverlapPercent} % must): ` +
        'it does not look like a newer export of the system the journal migrated, so nothing was sent. ' +
        `Check the export and the journal (${name('journal')}); if both are right, ${face === 'flags' ? `run again with ${ignore}` : `set "${ignore}" to yes`}.`
      );
    });
  }
}

/**
 * The sentence when a sync's journal cannot be one (missing, not a file, empty), else undefined. A sync compares
 * with what the journal says: without one it would silently become a full push of the export.
 */
export async function syncJournalProblem(path: string): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) {
    return `The journal ${path} does not exist: a sync compares the newer export with the journal of an earlier push or sync, so nothing was sent. Check the path (to migrate the export afresh, use push).`;
  }
  if (!info.isFile() || info.size === 0) {
    return `The journal ${path} is ${info.isFile() ? 'empty' : 'not a regular file'}: a sync needs the journal of an earlier push or sync, so nothing was sent.`;
  }
  return undefined;
}

/**
 * The sentence when a journal holds no account state nor parked user (nothing a sync could compare with), else
 * undefined. A push that parked every user (an old system that gives no hashes) leaves only parked users.
 */
export function journalWithoutStates(journal: Journal): string | undefined {
  if (journal.states.size > 0 || journal.parkedUsers > 0) return undefined;
  return (
    `The journal ${journal.path} holds no user the migration brought over, so a sync has nothing to compare the export with and nothing was sent. ` +
    'Resume or redo the push with it first (core-migrate push).'
  );
}

/** The old id a sync keys a planned record by, or undefined when it has none. */
export function sourceIdOf(record: PlannedRecord): string | undefined {
  for (const item of record.items) {
    const sourceId = item.kind === 'rejection' ? item.sourceId : item.identity?.sourceId;
    if (sourceId !== undefined && sourceId.trim() !== '') return sourceId;
  }
  return undefined;
}

/**
 * The sync's first pass: reads the newer export's plan and works out, before anything is sent, how many of the
 * journal's users it still has and how many users the sync would remove. Keeps nothing per record but two bits per
 * journalled account.
 */
export async function forecastSync(records: AsyncIterable<PlannedRecord>, journal: Journal, options: SyncGuardOptions): Promise<SyncForecast> {
  const states = journal.states;
  let recognised = 0;
  let removals = 0;
  for await (const record of records) {
    if (options.signal?.aborted === true) break;
    const sourceId = sourceIdOf(record);
    if (sourceId === undefined) continue;
    const live = states.accountsOf(sourceId).filter((account) => !states.has(account, StateFlag.removed));
    const first = live[0];
    // Met before: a duplicate old id, which the plan refuses; the user counts once.
    if (first === undefined || states.has(first, StateFlag.present)) continue;
    for (const account of live) states.mark(account, StateFlag.present);
    const operations = record.items.filter((item): item is ImportOperation => item.kind !== 'rejection' && item.kind !== 'loginTimeWait');
    const disabled = record.items.some((item) => item.kind === 'rejection' && item.code === 'disabledAccount');
    if (disabled && createdAny(states, live)) removals += 1;
    if (operations.length === 0 || keepsAnAccount(journal, live, operations)) {
      recognised += 1;
      states.mark(first, StateFlag.recognised);
    }
  }
  let journalUsers = 0;
  for (const first of states.users()) {
    const live = states.accountsFrom(first).filter((account) => !states.has(account, StateFlag.removed));
    if (live.length === 0) continue;
    journalUsers += 1;
    const gone = !live.some((account) => states.has(account, StateFlag.present));
    if (gone && options.removesGone && createdAny(states, live)) removals += 1;
  }
  const removalLimit = removalLimitOf(options.maxRemovals, journalUsers);
  return {
    journalUsers,
    recognised,
    minOverlapPercent: options.minOverlapPercent ?? DEFAULT_MIN_OVERLAP_PERCENT,
    removals,
    removalLimit,
    removalsWithheld: removals > removalLimit,
  };
}

/** Whether the migration created one of these accounts (only then may a sync remove the user). */
export function createdAny(states: UserStates, accounts: readonly number[]): boolean {
  return accounts.some((account) => states.has(account, StateFlag.createdHere));
}

const EMAIL_GROUP = fieldGroups.indexOf('email');
const CREDENTIALS_GROUP = fieldGroups.indexOf('credentials');

/**
 * Whether the record plans an account the migration brought over (same old id and account: password login, or the
 * same provider's user) with the same email or the same password hash. A newer export of the same system keeps one
 * or the other for almost every user (a domain renamed keeps the hashes, a forced reset keeps the emails); another
 * system whose ids happen to be the same (`1`, `2`, … of two generic exports) keeps neither.
 */
function keepsAnAccount(journal: Journal, live: readonly number[], operations: readonly ImportOperation[]): boolean {
  for (const operation of operations) {
    const sourceId = operation.identity?.sourceId;
    const account = sourceId === undefined ? undefined : journal.states.find(sourceId, accountRoleOf(operation));
    if (account === undefined || !live.includes(account)) continue;
    if (journal.states.digest(account, EMAIL_GROUP) === journal.groupDigest(operation, 'email') >>> 0) return true;
    if (journal.states.digest(account, CREDENTIALS_GROUP) === journal.groupDigest(operation, 'credentials') >>> 0) return true;
  }
  return false;
}
