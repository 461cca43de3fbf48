import type { DeletedPolicy } from '../choices.js';
import { accountRoleOf, fieldGroups, type FieldGroup } from '../plan/field-groups.js';
import type { RecordLocation } from '../location.js';
import { passwordlessLogin, type ImportOperation, type LoginTimeWait, type PlanItem, type PlanRejection } from '../plan/operation.js';
import type { PlannedRecord } from '../plan/plan-source.js';
import type { Journal } from '../journal/journal.js';
import type { SyncCounts } from '../summary/push-summary.js';
import { createdAny, sourceIdOf } from './sync-guard.js';
import { StateFlag } from '../journal/user-states.js';
import { optional } from '../optional.js';

/** An account the migration brought over earlier whose fields changed in the newer export. */
export interface AccountChange {
  kind: 'accountChange';
  operationKey: string;
  location: RecordLocation;
  /** Absent for a phone user without an email. */
  email: string | undefined;
  /** The account as the newer export plans it: its body and identity are what the core should now hold. */
  operation: ImportOperation;
  /** The account's index in the journal's states. */
  account: number;
  changed: FieldGroup[];
}

/** An account to take out of the core (disabled in the old system) or to report (gone from the newer export). */
export interface AccountRemoval {
  kind: 'accountRemoval';
  operationKey: string;
  account: number;
  sourceId: string;
  why: 'disabled' | 'deletedInSource';
  /** Whether to remove it (disabled accounts, and gone ones with --deleted remove), or only report it. */
  remove: boolean;
  /** Not removed although it should be: the sync would remove more users than its limit allows. */
  withheld?: RemovalsWithheld;
  location?: RecordLocation;
}

export interface RemovalsWithheld {
  removals: number;
  limit: number;
}

/**
 * What a sync says changed of a user: its field groups, except that a phone user's login (kept in the `email` group,
 * which holds whatever a passwordless user signs in with) is named a phone number change.
 */
export type ChangedField = FieldGroup | 'phoneNumber';

/** What a sync does about one user of the newer export or of the journal (unchanged users are not told). */
export interface SyncUserDelta {
  sourceId: string;
  change: 'new' | 'reEnabled' | 'changed' | 'disabled' | 'deletedInSource';
  /** For a change: what changed (`email`, `phoneNumber`, `credentials`, ...), once each. */
  groups: ChangedField[];
  /**
   * Whether the sync removes it from the core (only a user the migration created), unless the removals are over
   * their limit: then none is removed, and the summary's `syncGuard.removalsWithheld` says so.
   */
  removes: boolean;
}

export type SyncItem = AccountChange | AccountRemoval;
export type EngineItem = PlanItem | SyncItem;
export interface EngineRecord {
  items: EngineItem[];
}

export interface SyncDeltaOptions {
  deleted: DeletedPolicy;
  /** Filled in as the delta is read; the summary carries it. */
  counts: SyncCounts;
  /** Set when the sync would remove more users than its limit: then it removes none (`forecastSync`). */
  withheld?: RemovalsWithheld | undefined;
  /** Told about each user the sync creates, changes or removes (or would remove), in the order of the export. */
  onUser?: ((user: SyncUserDelta) => void) | undefined;
}

/**
 * Turns the newer export's plan into what a sync sends: an account the journal does not know is created as a push
 * creates it; a known one is compared group by group with its journalled digests and only what changed is sent;
 * a disabled one is taken out; an unchanged one sends nothing. After the export, the accounts it no longer has
 * follow. Keyed by the old id, never by email or line, so a record may move in the file.
 */
export async function* syncDelta(records: AsyncIterable<PlannedRecord>, journal: Journal, options: SyncDeltaOptions): AsyncGenerator<EngineRecord> {
  const { counts, withheld } = options;
  const states = journal.states;
  for await (const record of records) {
    counts.users += 1;
    const operations = record.items.filter((item): item is ImportOperation => item.kind !== 'rejection' && item.kind !== 'loginTimeWait');
    const rejections = record.items.filter((item): item is PlanRejection => item.kind === 'rejection');
    // A user parked for its first login is written to the waiting store again, as a push does: the store takes the
    // newer data while the user waits (the journal's digest of it tells an unchanged one, which is not written again).
    const parked = record.items.filter((item): item is LoginTimeWait => item.kind === 'loginTimeWait');
    if (parked.length > 0 && operations.length === 0) {
      yield { items: record.items };
      continue;
    }
    const sourceId = sourceIdOf(record);
    if (sourceId === undefined) {
      counts.refused += 1;
      yield { items: [...rejections, ...parked, ...operations.map(withoutSourceId)] };
      continue;
    }
    const known = states.accountsOf(sourceId);
    for (const account of known) states.markSeen(account);
    const live = known.filter((account) => !states.has(account, StateFlag.removed));
    if (rejections.some((item) => item.code === 'disabledAccount') && live.length > 0) {
      counts.disabled += 1;
      options.onUser?.({ sourceId, change: 'disabled', groups: [], removes: createdAny(states, live) });
      yield {
        items: live.map((account) => ({
          kind: 'accountRemoval',
          operationKey: `disabled:${sourceId}:${account}`,
          account,
          sourceId,
          why: 'disabled',
          remove: withheld === undefined,
          ...optional('withheld', withheld),
          location: record.location,
        })),
      };
      continue;
    }
    if (operations.length === 0 || rejections.some((item) => item.code === 'duplicateSourceId')) {
      counts.refused += 1;
      yield record;
      continue;
    }
    const items: EngineItem[] = [...rejections, ...parked];
    let created = 0;
    const changedKinds = new Set<ChangedField>();
    // A password's credentials are its hash; a provider account's are not counted as a password change.
    let passwordChanged = false;
    let verification: 'verified' | 'unverified' | undefined;
    let passwordResent = false;
    for (const operation of operations) {
      const account = states.find(sourceId, accountRoleOf(operation));
      if (account === undefined || states.has(account, StateFlag.removed)) {
        created += 1;
        if (operation.kind === 'thirdPartySignInUp' && live.length > 0) counts.accountsAdded += 1;
        items.push(operation);
        continue;
      }
      const whole = states.whole(account);
      if (whole !== 0 && whole === journal.wholeDigest(operation) >>> 0) continue;
      const digests = journal.groupDigests(operation);
      let changed = fieldGroups.filter((_, group) => states.digest(account, group) !== (digests[group] ?? 0) >>> 0);
      if (changed.includes('credentials') && sameExportedCredential(journal, account, operation)) {
        // The old system has the same password: only the hash parameters or wrappers changed. Re-sent to a user this
        // migration created; a user that was in the core before keeps its own hash, so nothing changed for it.
        if (states.has(account, StateFlag.createdHere)) passwordResent = true;
        else changed = changed.filter((group) => group !== 'credentials');
      }
      if (changed.length === 0) continue;
      for (const group of changed) changedKinds.add(changedField(operation, group));
      if (operation.kind === 'passwordImport' && changed.includes('credentials')) passwordChanged = true;
      if (changed.includes('verification')) {
        const isVerified =
          operation.kind === 'passwordImport'
            ? operation.identity?.emailVerified === true
            : operation.kind === 'thirdPartySignInUp'
              ? operation.body.email.isVerified
              : true;
        verification ??= isVerified ? 'verified' : 'unverified';
      }
      items.push({
        kind: 'accountChange',
        operationKey: `change:${operation.operationKey}`,
        location: operation.location,
        email: operation.email,
        operation,
        account,
        changed,
      });
    }
    if (live.length === 0 && created > 0) {
      counts.new += 1;
      if (known.length > 0) counts.reEnabled += 1;
      options.onUser?.({ sourceId, change: known.length > 0 ? 'reEnabled' : 'new', groups: [], removes: false });
    } else if (created > 0 || changedKinds.size > 0) {
      counts.changed += 1;
      options.onUser?.({ sourceId, change: 'changed', groups: [...changedKinds], removes: false });
      if (verification !== undefined) counts[verification] += 1;
      if (passwordChanged) counts[passwordResent ? 'passwordResent' : 'passwordChanged'] += 1;
      if (changedKinds.has('roles')) counts.rolesChanged += 1;
      if (changedKinds.has('email')) counts.emailChanged += 1;
      if (changedKinds.has('phoneNumber')) counts.phoneNumberChanged += 1;
      if (changedKinds.has('profile') || changedKinds.has('disabled')) counts.profileChanged += 1;
    } else {
      counts.unchanged += 1;
    }
    yield { items };
  }
  yield* vanished(journal, options);
}

/** A group as the sync names its change: the login of a phone user is its phone number. */
function changedField(operation: ImportOperation, group: FieldGroup): ChangedField {
  return group === 'email' && operation.kind === 'passwordlessSignInUp' && passwordlessLogin(operation).kind === 'phone' ? 'phoneNumber' : group;
}

/** Whether the journal knows the credential the account's hash was built from, and the export still holds that one. */
function sameExportedCredential(journal: Journal, account: number, operation: ImportOperation): boolean {
  const known = journal.states.exported(account);
  return known !== 0 && known === journal.exportedDigest(operation) >>> 0;
}

/** The accounts the newer export no longer has, user by user: reported, and removed with --deleted remove. */
async function* vanished(journal: Journal, options: SyncDeltaOptions): AsyncGenerator<EngineRecord> {
  const done = new Set<string>();
  for (const account of journal.states.unseen()) {
    const state = journal.stateOf(account);
    if (done.has(state.sourceId)) continue;
    done.add(state.sourceId);
    options.counts.deletedInSource += 1;
    options.counts.users += 1;
    const accounts = journal.states.accountsOf(state.sourceId).filter((index) => !journal.states.has(index, StateFlag.removed));
    const remove = options.deleted === 'remove' && options.withheld === undefined;
    options.onUser?.({
      sourceId: state.sourceId,
      change: 'deletedInSource',
      groups: [],
      removes: options.deleted === 'remove' && createdAny(journal.states, accounts),
    });
    yield {
      items: accounts.map((index) => ({
        kind: 'accountRemoval',
        operationKey: `deleted:${state.sourceId}:${index}`,
        account: index,
        sourceId: state.sourceId,
        why: 'deletedInSource',
        remove,
        ...(options.deleted === 'remove' && options.withheld !== undefined ? { withheld: options.withheld } : {}),
      })),
    };
  }
}

/** A sync compares users by their old id: a record without one cannot be told apart from a new user each time. */
function withoutSourceId(operation: ImportOperation): PlanRejection {
  return {
    kind: 'rejection',
    operationKey: operation.operationKey,
    location: operation.location,
    email: operation.email,
    code: 'withoutSourceId',
    operation: operation.kind,
    reason:
      'the record has no old id, so a sync cannot tell whether the migration brought it over before; map an id field (generic exports: --map sourceId=<column>), or migrate it with push',
  };
}
