import { accountRoleOf, fieldGroups, type FieldGroup } from '../plan/field-groups.js';
import type { ImportOperation, PasswordImportOperation } from '../plan/operation.js';
import type { Journal } from './journal.js';
import { StateFlag } from './user-states.js';

/** Who an account is in the core once its steps ran: what the journal keeps of it for a later sync. */
export interface AccountIds {
  coreId: string;
  /** The id calls take: the old id once mapped. */
  callId: string;
  createdHere: boolean;
  untouched?: boolean;
  removed?: boolean;
}

/** Journals an account's state for a later sync: the groups brought over get the digest of what was sent. */
export function recordAccountState(journal: Journal, item: ImportOperation, ids: AccountIds, groups: readonly FieldGroup[]): void {
  const sourceId = item.identity?.sourceId;
  if (sourceId === undefined) return;
  const role = accountRoleOf(item);
  const known = journal.states.find(sourceId, role);
  // Nothing is sent to a user left untouched: a later run that leaves it again has nothing new to journal.
  if (ids.untouched === true && known !== undefined && journal.states.has(known, StateFlag.untouched) && !journal.states.has(known, StateFlag.removed)) return;
  const wanted = journal.groupDigests(item);
  const digests = fieldGroups.map((group, index) =>
    groups.includes(group)
      ? (wanted[index] ?? 0)
      : known === undefined || journal.states.has(known, StateFlag.removed)
        ? 0
        : journal.states.digest(known, index),
  );
  const whole = fieldGroups.every((group) => groups.includes(group)) ? { whole: journal.wholeDigest(item) } : {};
  const earlierExported = known === undefined || journal.states.has(known, StateFlag.removed) ? 0 : journal.states.exported(known);
  const exported = groups.includes('credentials') ? journal.exportedDigest(item) : earlierExported;
  journal.recordState({
    sourceId,
    role,
    coreId: ids.coreId,
    callId: ids.callId,
    createdHere: ids.createdHere,
    untouched: ids.untouched === true,
    removed: false,
    digests,
    ...whole,
    ...(exported === 0 ? {} : { exported }),
  });
}

/**
 * A password user an earlier run of this journal created (and finished), met with another body than it sent: with
 * another hash (`otherHash`: other hash parameters or wrappers), or as a sync since brought it over (`asExported`).
 * Undefined when the journal does not say so, or the user's steps are still to be resumed.
 */
export function earlierCreation(journal: Journal, item: PasswordImportOperation): 'asExported' | 'otherHash' | undefined {
  const sourceId = item.identity?.sourceId;
  if (sourceId === undefined || journal.progressOf(item) !== undefined) return undefined;
  const account = journal.states.find(sourceId, accountRoleOf(item));
  if (account === undefined || !journal.states.has(account, StateFlag.createdHere) || journal.states.has(account, StateFlag.removed)) return undefined;
  const digests = journal.groupDigests(item);
  const sent = (group: FieldGroup): boolean => journal.states.digest(account, fieldGroups.indexOf(group)) === digests[fieldGroups.indexOf(group)];
  if (!sent('credentials')) return 'otherHash';
  return sent('email') ? 'asExported' : undefined;
}
