import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreClient } from '../http/core-client.js';
import { isCoreError } from '../http/errors.js';
import { verifyLegacyPassword, type LegacyVerification } from '../hashes/legacy/verify-legacy.js';
import type { Secret } from '../secret.js';
import { runArrivalSteps, type ArrivalClient } from './arrival-steps.js';
import type { LoginMigrationAnswer } from './login-answer.js';
import type { OldSystemVerifier, PasswordVerdict } from './old-system/old-system-verifier.js';
import { optional } from '../optional.js';
import { openWaitingStore } from './store/open-store.js';
import { DEFAULT_CLAIM_LEASE_MS, isWaitingStoreError, type WaitingStore, type WaitingStoreError } from './store/waiting-store.js';
import type { StoredWaitingUser } from './store/waiting-user.js';

/** Checks a password against a legacy hash: `verifyLegacyPassword`, or a service's pool of worker threads doing the same. */
export type LegacyVerifier = (password: Secret, hash: string) => Promise<LegacyVerification>;

/** What a login-time migration needs of a core client; `CoreClient` is one. */
export type LoginCoreClient = ArrivalClient & Pick<CoreClient, 'signUp' | 'signIn' | 'userByEmail' | 'removeUser'>;

export interface LoginMigrationOptions {
  /** The waiting store the push parked users in (refused when it does not exist): a SQLite file's path, a `postgresql://` URL, or a store already open. */
  store: string | WaitingStore;
  /** The core the users are created in (its api-key is the migration's). It stays the caller's: `close()` leaves it open. */
  core: LoginCoreClient;
  /** Default `verifyLegacyPassword`, in this thread (its costly work runs in libuv's pool or in slices). */
  verify?: LegacyVerifier;
  /**
   * The old system asked for the users parked without a usable hash (`--verify-with`); it stays the caller's. A user
   * parked for another old system, or without one given, is answered "try later" (`oldSystemNotSet`).
   */
  oldSystem?: OldSystemVerifier;
  /** How long a sign-in holds a user it is creating before another may take it over (its process crashed). Default 60 s. */
  claimLeaseMs?: number;
  /** How long a sign-in waits for another sign-in of the same user, in flight at the same moment, to finish it. Default 10 s. */
  concurrentWaitMs?: number;
  /** What a "try later" answer tells the backend to wait. Default 5 s. */
  retryAfterSeconds?: number;
  /** Told of each store failure a sign-in met (answered `tryLater storeUnavailable`), for the operator's log. */
  onStoreFailure?: (error: WaitingStoreError) => void;
}

/** An open login-time migration: a store and a client to the core. `close()` closes the store if it opened it. */
export interface LoginMigration {
  readonly store: WaitingStore;
  readonly core: LoginCoreClient;
  readonly verify: LegacyVerifier;
  readonly oldSystem: OldSystemVerifier | undefined;
  readonly claimLeaseMs: number;
  readonly concurrentWaitMs: number;
  readonly retryAfterSeconds: number;
  readonly onStoreFailure: (error: WaitingStoreError) => void;
  close(): Promise<void>;
}

const CONCURRENT_POLL_MS = 50;

export async function openLoginMigration(options: LoginMigrationOptions): Promise<LoginMigration> {
  const ownsStore = typeof options.store === 'string';
  // Only the push creates a store: a mistyped one would answer `notWaiting` to every parked user.
  const store = typeof options.store === 'string' ? await openWaitingStore(options.store, { create: false }) : options.store;
  return {
    store,
    core: options.core,
    verify: options.verify ?? ((password, hash) => verifyLegacyPassword(password, hash)),
    oldSystem: options.oldSystem,
    claimLeaseMs: options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS,
    concurrentWaitMs: options.concurrentWaitMs ?? 10_000,
    retryAfterSeconds: options.retryAfterSeconds ?? 5,
    onStoreFailure: options.onStoreFailure ?? ((): void => undefined),
    close: () => (ownsStore ? store.close() : Promise.resolve()),
  };
}

/**
 * One sign-in the core refused (`WRONG_CREDENTIALS_ERROR`), asked again of the waiting store: a user still waiting
 * whose password matches its legacy hash (or that the old system says is right) is created in the core from that password (`POST /recipe/signup`, the core
 * hashes it), gets its identity steps, and is marked migrated. Two sign-ins of one user at the same moment (in one
 * process or several sharing a PostgreSQL store) create it once: the store's claim is atomic, and the other waits for
 * the first. The password is only passed to the verifier and the core: never stored, logged or put in an error.
 */
export async function migrateAtLogin(login: LoginMigration, attempt: { email: string; password: Secret }): Promise<LoginMigrationAnswer> {
  const email = attempt.email.trim().toLowerCase();
  try {
    const user = await login.store.find(email);
    if (user === undefined) return { outcome: 'notWaiting' };
    if (user.state === 'migrated') return await alreadyMigrated(login, user, attempt.password);
    const verdict = await checkPassword(login, user, attempt.password);
    if (verdict.outcome === 'wrong') return { outcome: 'wrongCredentials' };
    if (verdict.outcome === 'tryLater') return { ...tryLater(login, verdict.reason), ...optional('retryAfterSeconds', verdict.retryAfterSeconds) };
    return await arrive(login, email, attempt.password);
  } catch (error) {
    if (isWaitingStoreError(error)) {
      login.onStoreFailure(error);
      return tryLater(login, 'storeUnavailable');
    }
    if (isCoreError(error)) return tryLater(login, 'coreUnreachable');
    throw error;
  }
}

type TryLaterReason = Extract<LoginMigrationAnswer, { outcome: 'tryLater' }>['reason'];

function tryLater(login: LoginMigration, reason: TryLaterReason): LoginMigrationAnswer {
  return { outcome: 'tryLater', reason, retryAfterSeconds: login.retryAfterSeconds };
}

/**
 * The one question both kinds of verifier answer: is this the user's password? Its legacy hash is checked here; a
 * user parked without one is asked of the old system it was parked for.
 */
async function checkPassword(
  login: LoginMigration,
  user: StoredWaitingUser,
  password: Secret,
): Promise<PasswordVerdict | { outcome: 'tryLater'; reason: 'oldSystemNotSet'; retryAfterSeconds?: number }> {
  if ('oldSystem' in user) {
    if (login.oldSystem?.kind !== user.oldSystem) return { outcome: 'tryLater', reason: 'oldSystemNotSet' };
    return login.oldSystem.check({ email: user.email, password });
  }
  const verification = await login.verify(password, user.legacyHash);
  // A hash that cannot be checked (the plan parks none) cannot let anyone in.
  return { outcome: verification.outcome === 'match' ? 'right' : 'wrong' };
}

/**
 * The user arrived already (another sign-in created it between the core's refusal and this question): the password is
 * the core's to check now.
 */
async function alreadyMigrated(login: LoginMigration, user: StoredWaitingUser, password: Secret): Promise<LoginMigrationAnswer> {
  const signIn = await login.core.signIn({ email: user.email, password });
  return signIn.outcome === 'signedIn' && user.coreUserId !== undefined ? { outcome: 'migrated', userId: user.coreUserId } : { outcome: 'notWaiting' };
}

/** Claims the user and creates it, or waits for the sign-in that holds it to finish. */
async function arrive(login: LoginMigration, email: string, password: Secret): Promise<LoginMigrationAnswer> {
  const waitUntil = Date.now() + login.concurrentWaitMs;
  for (;;) {
    const claimed = await login.store.claim(email, login.claimLeaseMs);
    if (claimed !== undefined) return create(login, claimed, password);
    const now = await login.store.find(email);
    // Left the store meanwhile (a sync removed it).
    if (now === undefined) return { outcome: 'notWaiting' };
    if (now.state === 'migrated' && now.coreUserId !== undefined) return { outcome: 'migrated', userId: now.coreUserId };
    if (Date.now() >= waitUntil) return tryLater(login, 'busy');
    await sleep(CONCURRENT_POLL_MS);
  }
}

async function create(login: LoginMigration, user: StoredWaitingUser, password: Secret): Promise<LoginMigrationAnswer> {
  const { core, store } = login;
  let createdUserId: string | undefined;
  try {
    const signUp = await core.signUp({ email: user.email, password });
    let coreUserId: string;
    if (signUp.outcome === 'created') {
      coreUserId = signUp.userId;
      createdUserId = coreUserId;
    } else {
      // A password user has this email already: one a sign-in created before it crashed (its password is this one),
      // or someone else's. Only the first is finished here.
      const signIn = await core.signIn({ email: user.email, password });
      const found = signIn.outcome === 'signedIn' ? await core.userByEmail(user.email) : undefined;
      if (found?.found !== true) {
        await store.release(user.email);
        return { outcome: 'wrongCredentials' };
      }
      coreUserId = found.userId;
    }
    const end = await runArrivalSteps(core, coreUserId, user);
    // Created and able to sign in even when its old id is taken (or its core id was lost): it is in the core now.
    const userId = end.ok ? end.userId : coreUserId;
    // Recorded, or taken back below: a user the store does not name as arrived is one no rollback would find.
    await store.markMigrated(user.email, userId);
    return { outcome: 'migrated', userId };
  } catch (error) {
    // The core (or store) failed before the user was complete: take back what this sign-in created, so that nothing
    // changed and the next sign-in starts again; if the core cannot take it back, the next one finishes it.
    if (createdUserId !== undefined) await core.removeUser(createdUserId).catch(() => undefined);
    await store.release(user.email).catch(() => undefined);
    throw error;
  }
}
