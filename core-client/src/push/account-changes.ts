import { NotFound, Unexpected } from '../http/errors.js';
import { fieldGroups, type FieldGroup } from '../plan/field-groups.js';
import { metadataOf } from '../plan/metadata.js';
import { passwordlessLogin, type OperationIdentity, type PasswordlessOperation } from '../plan/operation.js';
import { SourceProfileSchema } from '../sources/source-user.js';
import type { AccountChange, AccountRemoval } from '../sync/delta.js';
import type { AccountState } from '../journal/journal-lines.js';
import type { Journal } from '../journal/journal.js';
import type { OperationEnd } from './outcome.js';
import { assignRoles, roleNotes } from '../roles/user-roles.js';
import { type UserStepContext, verifyEmailAtCore } from './user-steps.js';
import { optional } from '../optional.js';

/** A sync's change counts nothing of the steps' (the delta's counts say what changed). */
export type ChangeContext = Omit<UserStepContext, 'count'> & { journal: Journal };

/** Every top-level key the migration ever writes into a user's metadata: a key the newer export lacks is removed. */
const migratedMetadataKeys: readonly string[] = [...SourceProfileSchema.keyof().options, 'migratedFrom', 'disabled'];

/** The metadata update that makes the stored metadata what the newer export says: absent keys set to null (removed). */
export function metadataUpdateOf(identity: OperationIdentity): Record<string, unknown> {
  const metadata = metadataOf(identity) ?? {};
  const update: Record<string, unknown> = {};
  for (const key of migratedMetadataKeys) update[key] = key in metadata ? metadata[key] : null;
  return update;
}

const keptAsIs = (note: string): OperationEnd => ({ kind: 'done', outcome: 'keptAsIs', journal: 'untouched', note });

/**
 * Brings one account's changes over, group by group, in the order that keeps the user able to sign in: the email
 * first (the hash import names the user by it), then the hash, the verification of the (new) email, the metadata.
 * Each group brought over is journalled in the account's state; a group that fails keeps its earlier digest, so the
 * next sync sends it again. Only an account the migration created has its email or hash changed.
 */
export async function runAccountChange(change: AccountChange, context: ChangeContext): Promise<OperationEnd> {
  const { journal, client, options } = context;
  const state = journal.stateOf(change.account);
  const operation = change.operation;
  if (state.untouched) {
    return keptAsIs('changed in the old system, but this user was in the core before the migration (left untouched then): left untouched');
  }
  const wanted = journal.groupDigests(operation);
  const digests = [...state.digests];
  const broughtOver = (group: FieldGroup): void => {
    const index = fieldGroups.indexOf(group);
    digests[index] = wanted[index] ?? 0;
  };
  const pending = new Set(change.changed);
  const userId = state.callId;
  try {
    if (operation.kind === 'passwordImport') {
      if ((pending.has('email') || pending.has('credentials')) && !state.createdHere) {
        return keptAsIs(
          `the ${pending.has('email') ? 'email' : 'password'} changed in the old system, but this user was in the core before the migration: ` +
            'its email and password are not changed by a sync',
        );
      }
      if (pending.has('email')) {
        const changed = await context
          .send((call) => client.changeEmail({ recipeUserId: userId, email: operation.email }, call))
          .catch((error: unknown) => (lacksCall(error) ? ('missing' as const) : Promise.reject(error)));
        if (changed === 'missing') {
          return {
            kind: 'refused',
            code: 'emailChangeMissing',
            reason: `the email changed in the old system to ${operation.email}, but this core has no email change (PUT /recipe/user): the email (and anything after it) was not changed; upgrade the core, then sync again`,
          };
        }
        if (changed.outcome === 'emailTaken') {
          return {
            kind: 'refused',
            code: 'emailTaken',
            reason: `the new email ${operation.email} already belongs to another user of the core: the email (and anything after it) was not changed`,
          };
        }
        if (changed.outcome === 'unknownUser') return gone(userId);
        broughtOver('email');
        // Verification belongs to an email: the new one starts unverified.
        if (operation.identity?.emailVerified === true) pending.add('verification');
        else broughtOver('verification');
      }
      if (pending.has('credentials')) {
        if (options.lookup) {
          const found = await context.send((call) => client.userByEmail(operation.email, call));
          if (!found.found) return gone(userId);
          if (found.userId !== userId && found.userId !== state.coreId) {
            return {
              kind: 'refused',
              code: 'emailTaken',
              reason: `the email ${operation.email} names another core user (${found.userId}): the new password was not imported`,
            };
          }
        }
        await context.send((call) => client.importPasswordHash(operation.body, call));
        broughtOver('credentials');
      }
      if (pending.has('verification') && options.verifyEmails) {
        if (operation.identity?.emailVerified === true) {
          if (!(await verifyEmailAtCore(context, userId, operation.email)))
            return { kind: 'failed', code: 'verificationFailed', reason: 'the core refused its own fresh verification token; the next sync retries it' };
        } else {
          await context.send((call) => client.unverifyEmail({ userId, email: operation.email }, call));
        }
        broughtOver('verification');
      }
    } else if (operation.kind === 'passwordlessSignInUp') {
      if (pending.has('email')) {
        const refusal = await changePasswordlessLogin(operation, userId, state, context);
        if (refusal !== undefined) return refusal;
        broughtOver('email');
      }
      // The core marks a passwordless login verified itself (the code went to it): nothing to bring over.
      broughtOver('verification');
    } else if (pending.has('email') || pending.has('verification')) {
      const result = await context.send((call) => client.signInUp(operation.body, call));
      if (result.outcome === 'nonOkStatus')
        return { kind: 'refused', code: result.status, reason: `the core answered ${result.status}${result.reason === undefined ? '' : `: ${result.reason}`}` };
      broughtOver('email');
      // Sign-in-up verifies an email but never un-verifies one (a real core keeps the verification it has, also of an
      // email that comes back): a verification withdrawn in the old system is withdrawn here.
      if (options.verifyEmails && !operation.body.email.isVerified)
        await context.send((call) => client.unverifyEmail({ userId, email: operation.email }, call));
      broughtOver('verification');
    }
    if (pending.has('roles') && options.roles && operation.identity !== undefined) {
      const wanted = (operation.identity.roles ?? []).filter((role) => options.refusedRoles[role] === undefined);
      const held = await context.send((call) => client.userRoles(userId, call));
      const assignment = await assignRoles(
        client,
        userId,
        wanted.filter((role) => !held.includes(role)),
        (call) => context.send(call),
      );
      for (const note of roleNotes(operation.identity, options.refusedRoles, assignment.unknown)) await context.note(operation, note.code, note.reason);
      const managed = new Set(options.managedRoles);
      for (const role of held.filter((role) => !wanted.includes(role) && managed.has(role))) {
        await context.send((call) => client.removeUserRole({ userId, role }, call));
      }
      broughtOver('roles');
    }
    if ((pending.has('profile') || pending.has('disabled')) && options.metadata && operation.identity !== undefined) {
      const identity = operation.identity;
      await context.send((call) => client.updateUserMetadata({ userId, metadataUpdate: metadataUpdateOf(identity) }, call));
      broughtOver('profile');
      broughtOver('disabled');
    }
    return { kind: 'done', outcome: 'updated', journal: 'imported' };
  } finally {
    const complete = digests.every((digest, index) => digest === wanted[index]);
    const credentials = fieldGroups.indexOf('credentials');
    const hashSent = operation.kind === 'passwordImport' && digests[credentials] !== state.digests[credentials];
    recordDigests(
      journal,
      state,
      digests,
      complete ? journal.wholeDigest(operation) : undefined,
      hashSent ? journal.exportedDigest(operation) : state.exported,
    );
  }
}

/**
 * A passwordless user's new phone number or email (`PUT /recipe/user` with `rid: passwordless`): it keeps its id,
 * mapping, metadata and roles. Undefined when changed; otherwise how the account's change ends (a login another user
 * has is a report line, not a stop). Only a user the migration created has its login changed.
 */
async function changePasswordlessLogin(
  operation: PasswordlessOperation,
  userId: string,
  state: AccountState,
  context: ChangeContext,
): Promise<OperationEnd | undefined> {
  const login = passwordlessLogin(operation);
  const what = login.kind === 'phone' ? `phone number ${login.phoneNumber}` : `email ${login.email}`;
  if (!state.createdHere) {
    return keptAsIs(`the ${what} is new in the old system, but this user was in the core before the migration: its login is not changed by a sync`);
  }
  const changed = await context
    .send((call) => context.client.changePasswordlessLogin({ recipeUserId: userId, ...operation.body }, call))
    .catch((error: unknown) => (lacksCall(error) ? ('missing' as const) : Promise.reject(error)));
  if (changed === 'missing') {
    return {
      kind: 'refused',
      code: 'passwordlessChangeMissing',
      reason: `the login changed in the old system to the ${what}, but this core has no passwordless update (PUT /recipe/user, rid: passwordless): the login (and anything after it) was not changed; upgrade the core, then sync again`,
    };
  }
  switch (changed.outcome) {
    case 'changed':
      return undefined;
    case 'emailTaken':
    case 'phoneNumberTaken':
      return {
        kind: 'refused',
        code: changed.outcome,
        reason: `the new ${what} already belongs to another passwordless user of the core: the login (and anything after it) was not changed`,
      };
    case 'unknownUser':
      return gone(userId);
  }
}

/**
 * Takes an account out of the core (its user disabled in the old system, or gone with --deleted remove), or only
 * reports it. A removed account is journalled as removed: a later export that has it (re-enabled) creates it anew,
 * and with its old id mapped again it keeps the same id.
 */
export async function runAccountRemoval(removal: AccountRemoval, context: ChangeContext): Promise<OperationEnd> {
  const { journal, client } = context;
  const state = journal.stateOf(removal.account);
  if (removal.withheld !== undefined && state.createdHere) {
    const { removals, limit } = removal.withheld;
    return keptAsIs(
      `the user "${removal.sourceId}" is ${removal.why === 'disabled' ? 'disabled in the old system' : 'no longer in the export'}, but this sync would remove ${removals} users, ` +
        `more than its limit of ${limit} (--max-removals): nobody was removed; a sync with a higher limit removes them`,
    );
  }
  if (!removal.remove) {
    return keptAsIs(`the user "${removal.sourceId}" is no longer in the export: left in the core (--deleted remove removes the users the migration created)`);
  }
  if (!state.createdHere) {
    return keptAsIs(
      `the user "${removal.sourceId}" is ${removal.why === 'disabled' ? 'disabled in the old system' : 'no longer in the export'}, but it was in the core before the migration: left untouched`,
    );
  }
  const removed = await context
    .send((call) => client.removeUser(state.callId, call))
    .then(() => true)
    .catch((error: unknown) => (lacksCall(error) ? false : Promise.reject(error)));
  if (!removed) {
    return {
      kind: 'refused',
      code: 'removalMissing',
      reason: `the user "${removal.sourceId}" should be removed (${removal.why === 'disabled' ? 'disabled in the old system' : 'gone from the export'}), but this core has no user removal (/user/remove): it was left, and can still sign in`,
    };
  }
  journal.recordState({ ...state, removed: true });
  return { kind: 'done', outcome: 'removed', journal: 'imported' };
}

function recordDigests(journal: Journal, state: AccountState, digests: readonly number[], whole: number | undefined, exported: number | undefined): void {
  if (digests.every((digest, index) => digest === state.digests[index])) return;
  const { whole: _earlier, exported: _exported, ...rest } = state;
  journal.recordState({ ...rest, digests, ...optional('whole', whole), ...optional('exported', exported) });
}

/** The core has no such call (404), or not for this method (405): a user it cannot change, not a core to stop for. */
function lacksCall(error: unknown): boolean {
  return error instanceof NotFound || (error instanceof Unexpected && error.status === 405);
}

function gone(userId: string): OperationEnd {
  return {
    kind: 'failed',
    code: 'userGone',
    reason: `the core no longer has the user ${userId} (was it removed there?): its changes were not brought over, and the next sync tries again`,
  };
}
