import type { CallOptions, CoreClient } from '../http/core-client.js';
import { fieldGroups, type FieldGroup } from '../plan/field-groups.js';
import { passwordlessLogin, type ImportOperation, type PasswordlessOperation } from '../plan/operation.js';
import type { AccountIds } from '../journal/account-state.js';
import type { StepProgress } from '../journal/journal-types.js';
import type { Journal } from '../journal/journal.js';
import { endAfterEarlierAttempt } from './lost-answer.js';
import { alreadyExistedNote, endOfSignInUp, passwordlessExistingNote, thirdPartyExistingNote, type OperationEnd } from './outcome.js';
import { metadataOf, mappingInfo } from '../plan/metadata.js';
import type { IdentityOptions } from '../identity/identity-options.js';
import { assignRoles, roleNotes } from '../roles/user-roles.js';

/** What the steps need of a core client; `CoreClient` is one. */
export type IdentityClient = Pick<
  CoreClient,
  | 'importPasswordHash'
  | 'signInUp'
  | 'userByEmail'
  | 'mapUserId'
  | 'createEmailVerificationToken'
  | 'verifyEmail'
  | 'updateUserMetadata'
  | 'changeEmail'
  | 'unverifyEmail'
  | 'removeUser'
  | 'addUserRole'
  | 'userRoles'
  | 'removeUserRole'
  | 'createPasswordlessCode'
  | 'consumePasswordlessCode'
  | 'removePasswordlessCodes'
  | 'usersByAccountInfo'
  | 'changePasswordlessLogin'
>;

/** Who an account is at the core once created or found, for its journalled state (see `Journal.recordState`). */
export const stepCounters = ['mapped', 'verified', 'metadataWritten', 'separateAccounts', 'disabledImported', 'completedAfterResume', 'rolesAssigned'] as const;
export type StepCounter = (typeof stepCounters)[number];

/** Filled in by `send`: whether an attempt whose answer was lost may have been carried out by the core. */
export interface SendTrace {
  mayHaveReachedCore: boolean;
  /**
   * A lock conflict (the store's "database table is locked" 500) on this call wrote nothing, so it is no lost answer.
   * Measured on a real in-memory core (`npm run bench -- lock-leftovers`, docs/performance.md): none of 541 code
   * requests that answered it left a code; a consume may have created its user before the conflict (6 of 2,343), so
   * it is not said of every call.
   */
  lockConflictWritesNothing?: boolean;
}

export interface UserStepContext {
  client: IdentityClient;
  /** The steps in force: the operator's choice, less what the core lacks. */
  options: IdentityOptions;
  journal: Journal | undefined;
  /**
   * Sends one request with the engine's retries and back-pressure; rejects with the last error. `advanced` tells
   * whether an answer took its user a step further; one that did not (a code found used up) counts, for the
   * concurrency controller, as a wasted answer.
   */
  send<T>(call: (options: CallOptions) => Promise<T>, trace?: SendTrace, advanced?: (answer: T) => boolean): Promise<T>;
  /** Journals the `intent` line before a creation request leaves; rejects (and the push stops) when it cannot. */
  announce(item: ImportOperation): Promise<void>;
  count(counter: StepCounter): void;
  /** A report line about this operation that is not its end (a separate account, a resumed user). */
  note(item: ImportOperation, code: string, reason: string): Promise<void> | undefined;
  /**
   * Journals what the core now holds of the account (its ids, and the field groups brought over so far), so a later
   * sync compares against it; a group not (yet) brought over is sent again by the next sync.
   */
  recordAccount(item: ImportOperation, ids: AccountIds, groups: readonly FieldGroup[]): void;
}

/** The groups a creation brings over by itself: a password user's hash and email; a sign-in-up's email and its verified flag. */
function groupsOfCreation(item: ImportOperation): FieldGroup[] {
  return item.kind === 'passwordImport' ? ['credentials', 'email'] : ['credentials', 'email', 'verification'];
}

/**
 * Marks the user's email verified with a fresh token, used at once. A verify whose answer was lost (a reset, a
 * timeout, a 500) may have been carried out, and the core deletes a token as it verifies: its retry hears the token
 * is invalid, so one more token asks the core, which answers "already verified" if it was. False when the core
 * refused a fresh token it had answered.
 */
export async function verifyEmailAtCore(context: Pick<UserStepContext, 'client' | 'send'>, userId: string, email: string): Promise<boolean> {
  for (let tokens = 1; tokens <= 2; tokens += 1) {
    const token = await context.send((call) => context.client.createEmailVerificationToken({ userId, email }, call));
    if (token.outcome === 'alreadyVerified') return true;
    const trace: SendTrace = { mayHaveReachedCore: false };
    const verified = await context.send((call) => context.client.verifyEmail(token.token, call), trace);
    if (verified.outcome === 'verified') return true;
    if (!trace.mayHaveReachedCore) return false;
  }
  return false;
}

/** Who the user is after its creation step, or how the operation ended already. */
type Creation =
  | {
      userId: string;
      createdHere: boolean;
      outcomeEnd: Extract<OperationEnd, { kind: 'done' }>;
      /** An earlier run created the user and stopped before its last step: this run finishes it. */
      resumed?: true;
    }
  | { end: OperationEnd };

/**
 * One user's steps, one after another: look the email up (password users), create, map the old id, verify the
 * email, write the metadata. Each completed step is journalled; a resume starts after the last one. Transient and
 * unexpected errors are thrown to the engine, which counts them as it counts a failed import.
 */
export async function runUserSteps(item: ImportOperation, context: UserStepContext): Promise<OperationEnd> {
  const progress = context.journal?.progressOf(item);
  const creation = await create(item, context, progress);
  if ('end' in creation) return creation.end;
  let { userId } = creation;
  const { options, journal } = context;
  const identity = item.identity;
  const ids = (callId: string): AccountIds => ({ coreId: creation.userId, callId, createdHere: creation.createdHere });
  context.recordAccount(item, ids(userId), groupsOfCreation(item));
  if (identity === undefined) return creation.outcomeEnd;
  const done = progress?.steps ?? new Set();

  // Each step counts for the user once it holds it, done now or by the run a stop interrupted: the user is counted
  // (imported, created, found) by this run, and its steps with it.
  const sourceId = identity.sourceId;
  if (options.keepIds && identity.carriesSourceId && sourceId !== undefined && done.has('mapped')) {
    context.count('mapped');
    userId = sourceId;
  } else if (options.keepIds && identity.carriesSourceId && sourceId !== undefined) {
    if (userId !== sourceId) {
      const mapped = await context.send((call) =>
        context.client.mapUserId({ superTokensUserId: userId, externalUserId: sourceId, externalUserIdInfo: mappingInfo(identity) }, call),
      );
      if (mapped.outcome === 'conflict') {
        const which = mapped.externalIdMapped
          ? `the old id "${sourceId}" is already mapped to another user of the core`
          : 'this core user already carries another old id';
        return {
          kind: 'refused',
          code: 'idMappingConflict',
          reason: `the user was ${creation.createdHere ? 'created' : 'found'}, but ${which}; resolve it in the core, then push again`,
        };
      }
      if (mapped.outcome === 'unknownUser') {
        return {
          kind: 'failed',
          code: 'idMappingUnknownUser',
          reason: `the core no longer knows the user it answered with (id ${userId}); a resume retries it`,
        };
      }
    }
    journal?.recordStep(item, 'mapped', { x: sourceId });
    context.count('mapped');
    userId = sourceId;
  }
  if (!identity.carriesSourceId && sourceId !== undefined) {
    context.count('separateAccounts');
    await context.note(
      item,
      'separateAccount',
      `${accountWords(item)} of the old user "${sourceId}" is a separate core user ` +
        `(id ${userId}): the core links accounts only as a paid feature; link it to the user "${sourceId}" later`,
    );
  }

  if (options.verifyEmails && item.kind === 'passwordImport' && identity.emailVerified && done.has('verified')) context.count('verified');
  else if (options.verifyEmails && item.kind === 'passwordImport' && identity.emailVerified) {
    if (!(await verifyEmailAtCore(context, userId, item.email))) {
      return { kind: 'failed', code: 'verificationFailed', reason: 'the core refused its own fresh verification token; a resume retries it' };
    }
    journal?.recordStep(item, 'verified');
    context.count('verified');
  }

  const metadata = options.metadata ? metadataOf(identity) : undefined;
  if (metadata !== undefined && done.has('metadata')) context.count('metadataWritten');
  else if (metadata !== undefined) {
    await context.send((call) => context.client.updateUserMetadata({ userId, metadataUpdate: metadata }, call));
    journal?.recordStep(item, 'metadata');
    context.count('metadataWritten');
  }
  if (identity.emailNotLogin !== undefined) {
    const kept = metadata === undefined ? 'not kept in the core (--no-metadata)' : 'kept in its metadata as "email"';
    await context.note(item, 'emailNotLogin', `the record's email is no login of this phone-number user (the core's passwordless user has one login): ${kept}`);
  }

  // Roles (issue 21): those the core created before the first user; a refused or unknown role is a report line.
  if (options.roles && identity.roles !== undefined && !done.has('roles')) {
    const wanted = identity.roles.filter((role) => options.refusedRoles[role] === undefined);
    const assignment = await assignRoles(context.client, userId, wanted, (call) => context.send(call));
    for (const note of roleNotes(item.identity, options.refusedRoles, assignment.unknown)) await context.note(item, note.code, note.reason);
    journal?.recordStep(item, 'roles');
    for (let given = 0; given < assignment.given.length; given += 1) context.count('rolesAssigned');
  }
  if (identity.disabled) context.count('disabledImported');
  context.recordAccount(item, ids(userId), fieldGroups);
  if (creation.resumed === true) {
    context.count('completedAfterResume');
    await context.note(item, 'completedAfterResume', "an earlier run stopped between this user's steps; this run finished them");
  }
  return creation.outcomeEnd;
}

/**
 * Creates the user, or finds who it is. The `intent` line goes out before every creation request (never for a user
 * the lookup found already there). "Already existed" (or "existing") after this migration's own earlier request for
 * the user, whose answer was lost (in this run: a reset, a timeout, a 5xx; or in an earlier run: an `intent` with no
 * answer journalled), means that request created it: counted, journalled and rolled back as created, with a note.
 * With the lookup, a resume asks the core first: a user found after an `intent` is this migration's, finished here.
 */
async function create(item: ImportOperation, context: UserStepContext, progress: StepProgress | undefined): Promise<Creation> {
  const { journal, options, client } = context;
  if (progress?.userId !== undefined) {
    // Created (or found) and journalled by an earlier run: only the remaining steps are left.
    const outcomeEnd = doneEnd(item, progress.createdHere);
    return { userId: progress.userId, createdHere: progress.createdHere, outcomeEnd, resumed: true };
  }
  const announcedBefore = progress?.steps.has('intent') === true;
  const trace: SendTrace = { mayHaveReachedCore: false };

  if (item.kind === 'passwordImport') {
    if (options.lookup) {
      const found = await context.send((call) => client.userByEmail(item.email, call));
      if (found.found) {
        if (announcedBefore) {
          // This migration announced the import when the email was free: the user is its own, created before a stop.
          journal?.recordStep(item, 'created', { u: found.userId });
          return { userId: found.userId, createdHere: true, outcomeEnd: doneEnd(item, true), resumed: true };
        }
        if (options.existing === 'skip') {
          context.recordAccount(item, { coreId: found.userId, callId: found.userId, createdHere: false, untouched: true }, fieldGroups);
          return {
            end: {
              kind: 'done',
              outcome: 'existingUntouched',
              journal: 'untouched',
              note: 'a password user with this email was already in the core (not created by this migration): left untouched (no hash, id or metadata written); --existing replace would replace its hash',
            },
          };
        }
        // Replace: the user was there before this migration, so no intent, and a lost answer changes nothing.
        const replaced = await context.send((call) => client.importPasswordHash(item.body, call));
        const createdHere = replaced.outcome === 'imported';
        journal?.recordStep(item, createdHere ? 'created' : 'found', { u: replaced.userId });
        return { userId: replaced.userId, createdHere, outcomeEnd: doneEnd(item, createdHere) };
      }
    }
    await context.announce(item);
    const result = await context.send((call) => client.importPasswordHash(item.body, call), trace);
    // The lookup just found no user: an earlier run's request did not create one, only this run's attempts may have.
    const lostAnswer = trace.mayHaveReachedCore || (announcedBefore && !options.lookup);
    const createdHere = result.outcome === 'imported' || lostAnswer;
    journal?.recordStep(item, createdHere ? 'created' : 'found', { u: result.userId });
    const outcomeEnd = result.outcome === 'alreadyExisted' && createdHere ? createdByLostAnswer(item) : doneEnd(item, createdHere);
    const resumed = announcedBefore && result.outcome === 'alreadyExisted' ? { resumed: true as const } : {};
    return { userId: result.userId, createdHere, outcomeEnd, ...resumed };
  }

  if (item.kind === 'passwordlessSignInUp') return createPasswordless(item, context, announcedBefore);
  await context.announce(item);
  const result = await context.send((call) => client.signInUp(item.body, call), trace);
  if (result.outcome === 'nonOkStatus') return { end: endOfSignInUp(result) };
  // A third-party user cannot be looked up: "existing" after this migration's own unanswered request is its own.
  const ours = result.outcome === 'created' || announcedBefore || trace.mayHaveReachedCore;
  journal?.recordStep(item, ours ? 'created' : 'found', { u: result.userId });
  if (!ours && options.existing === 'skip') {
    context.recordAccount(item, { coreId: result.userId, callId: result.userId, createdHere: false, untouched: true }, fieldGroups);
    return {
      end: { kind: 'done', outcome: 'thirdPartyExisting', journal: 'existing', note: `${thirdPartyExistingNote}; no id, verification or metadata written` },
    };
  }
  const outcomeEnd = result.outcome === 'existing' && ours ? createdByLostAnswer(item) : doneEnd(item, ours);
  const resumed = announcedBefore && result.outcome === 'existing' ? { resumed: true as const } : {};
  return { userId: result.userId, createdHere: ours, outcomeEnd, ...resumed };
}

/**
 * How many codes one creation makes at most. A consume that loses a real in-memory core's lock has often used its
 * code up without making the user (the core deletes the login's codes in a transaction of its own, then creates the
 * user in another; 51 of 1,152 lost consumes, `npm run bench -- lock-leftovers`, and 220 of 1,345 on a store that
 * had taken some 35,000 users), so its retry hears the code is gone and a fresh code is made. An unlucky login meets
 * it again and again: on stores holding 20,000 and 49,000 users, at 16 and 25 in flight, 4 of 4,140 phone users needed
 * 8 or 9 codes (docs/performance.md). The bound only ends a core that never makes the user.
 */
export const MAX_CODES_PER_CREATION = 32;
/** Codes found gone by a consume that had no lost attempt (another consume for the login used them) before the creation fails. */
const MAX_CODES_GONE_UNEXPLAINED = 2;

/**
 * A passwordless user: a code made for its login and consumed at once (the core sends nothing). The code's handles are
 * credentials and live only in memory, for the two requests. The `intent` line goes out before the code is made, so a
 * run killed between the two calls leaves an intent with no answer: the resume removes the codes of that login first,
 * then creates the user once, and "existing" after its own intent is this migration's user. With the lookup, a login
 * that already has a passwordless user (not this migration's) is left untouched without a code being made.
 */
async function createPasswordless(item: PasswordlessOperation, context: UserStepContext, announcedBefore: boolean): Promise<Creation> {
  const { journal, options, client } = context;
  const login = item.body;
  if (options.lookup) {
    const users = await context.send((call) => client.usersByAccountInfo(login, call));
    const found = users.find((user) => user.recipes.includes('passwordless'));
    if (found !== undefined && announcedBefore) {
      // This migration announced the user when the login was free: created before a stop (a code may be left over).
      await context.send((call) => client.removePasswordlessCodes(login, call));
      journal?.recordStep(item, 'created', { u: found.userId });
      return { userId: found.userId, createdHere: true, outcomeEnd: doneEnd(item, true), resumed: true };
    }
    if (found !== undefined) return existingPasswordless(item, context, found.userId, 'lookup');
  }
  // An earlier run announced it and stopped before the answer: a code it made may still be there.
  if (announcedBefore) await context.send((call) => client.removePasswordlessCodes(login, call));
  await context.announce(item);
  const codeTrace: SendTrace = { mayHaveReachedCore: false, lockConflictWritesNothing: true };
  let consumeLost = false;
  let goneUnexplained = 0;
  let made = 0;
  while (made < MAX_CODES_PER_CREATION && goneUnexplained < MAX_CODES_GONE_UNEXPLAINED) {
    made += 1;
    // Only the first code and the consume that makes or finds the user take it further: the controller judges a level
    // by such answers, and more in flight on a store that locks uses up more codes (docs/performance.md).
    const first = made === 1;
    const code = await context.send(
      (call) => client.createPasswordlessCode(login, call),
      codeTrace,
      () => first,
    );
    const consumeTrace: SendTrace = { mayHaveReachedCore: false };
    const result = await context.send(
      (call) => client.consumePasswordlessCode(code, call),
      consumeTrace,
      (answer) => answer.outcome !== 'codeGone',
    );
    consumeLost ||= consumeTrace.mayHaveReachedCore;
    // A retry of a consume whose answer was lost finds its code used, the user made or not: a fresh code tells.
    if (result.outcome === 'codeGone') {
      if (!consumeTrace.mayHaveReachedCore) goneUnexplained += 1;
      continue;
    }
    // A code request whose answer was lost may have left a code of its own.
    if (codeTrace.mayHaveReachedCore) await context.send((call) => client.removePasswordlessCodes(login, call));
    const ours = result.outcome === 'created' || announcedBefore || consumeLost;
    if (!ours) return existingPasswordless(item, context, result.userId, 'consume');
    journal?.recordStep(item, 'created', { u: result.userId });
    const outcomeEnd = result.outcome === 'existing' ? createdByLostAnswer(item) : doneEnd(item, true);
    const resumed = announcedBefore && result.outcome === 'existing' ? { resumed: true as const } : {};
    return { userId: result.userId, createdHere: true, outcomeEnd, ...resumed };
  }
  return {
    end: {
      kind: 'failed',
      code: 'passwordlessCodeGone',
      reason: `the core answered ${made} fresh codes for this login as used or expired (RESTART_FLOW_ERROR), so the user was not created; a resume retries it`,
    },
  };
}

/**
 * A login that already has a passwordless user this migration did not create: left untouched (`--existing skip`), or
 * given the identity steps (`replace`: there is no credential to replace).
 */
function existingPasswordless(item: PasswordlessOperation, context: UserStepContext, userId: string, how: 'lookup' | 'consume'): Creation {
  if (context.options.existing === 'skip') {
    context.recordAccount(item, { coreId: userId, callId: userId, createdHere: false, untouched: true }, fieldGroups);
    const login = passwordlessLogin(item);
    return {
      end: {
        kind: 'done',
        outcome: 'passwordlessExisting',
        journal: 'untouched',
        note:
          `a passwordless user with this ${login.kind === 'phone' ? 'phone number' : 'email'} was already in the core (not created by this migration): ` +
          `left untouched (no id, metadata or roles written)${how === 'consume' ? '' : '; no code was made'}`,
      },
    };
  }
  context.journal?.recordStep(item, 'found', { u: userId });
  return { userId, createdHere: false, outcomeEnd: doneEnd(item, false) };
}

/** How a report names the account of a separate core user. */
function accountWords(item: ImportOperation): string {
  if (item.kind === 'thirdPartySignInUp') return `the ${item.sourceProviderId} account`;
  if (item.kind === 'passwordlessSignInUp') return passwordlessLogin(item).kind === 'phone' ? 'the phone-number login' : 'the email-link login';
  return 'this account';
}

/** Created by a request of this migration whose answer was lost: counted as created, with the note that says why. */
function createdByLostAnswer(item: ImportOperation): Extract<OperationEnd, { kind: 'done' }> {
  return endAfterEarlierAttempt(doneEnd(item, false));
}

function doneEnd(item: ImportOperation, createdHere: boolean): Extract<OperationEnd, { kind: 'done' }> {
  if (item.kind === 'passwordImport') {
    return createdHere
      ? { kind: 'done', outcome: 'imported', journal: 'imported' }
      : { kind: 'done', outcome: 'alreadyExisted', journal: 'alreadyExisted', note: alreadyExistedNote };
  }
  if (item.kind === 'passwordlessSignInUp') {
    return createdHere
      ? { kind: 'done', outcome: 'passwordlessCreated', journal: 'created' }
      : { kind: 'done', outcome: 'passwordlessExisting', journal: 'existing', note: passwordlessExistingNote };
  }
  return createdHere
    ? { kind: 'done', outcome: 'thirdPartyCreated', journal: 'created' }
    : { kind: 'done', outcome: 'thirdPartyExisting', journal: 'existing', note: thirdPartyExistingNote };
}
