import { Problem } from '../../problem.js';
import type { ParkedUser, StoreCounts, StoredWaitingUser, WaitingListEntry } from './waiting-user.js';

/**
 * The waiting store of a login-time migration: one interface, an embedded SQLite file (one backend server) or a
 * PostgreSQL database (several sharing it). Every method fails with a `WaitingStoreError` whose words never carry a
 * hash, a password or a connection's password.
 */
export interface WaitingStore {
  /** Where the store is, safe to show (a PostgreSQL URL without its password). */
  readonly location: string;
  /**
   * Writes a user to wait (by email). A user already waiting gets the new data (a resumed or repeated push writes the
   * same row again); one that is migrating or migrated is left alone and `false` answered. A waiting row of the same
   * old id under another email (the email changed in the old system) is replaced.
   */
  park(user: ParkedUser, now?: number): Promise<boolean>;
  /** A sync met this waiting user unchanged: it stays (see `forgetUnseen`). */
  touch(email: string, now?: number): Promise<void>;
  /** Takes a user still waiting out of the store (disabled in the old system); answers whether it was there. */
  leave(email: string): Promise<boolean>;
  /**
   * Takes out every user still waiting that no park or touch met since `since`: after a sync read the whole newer
   * export, those gone from it (or no longer parked: now importable, or refused). Answers how many.
   */
  forgetUnseen(since: number): Promise<number>;
  find(email: string): Promise<StoredWaitingUser | undefined>;
  /**
   * Claims a waiting user for one sign-in, atomically in the database: of two sign-ins at the same moment (in one
   * process or several), one gets the user and the other `undefined`. A claim whose lease ended (its claimer crashed)
   * can be taken again.
   */
  claim(email: string, leaseMs?: number, now?: number): Promise<StoredWaitingUser | undefined>;
  /** Gives a claimed user back to wait (the core could not be reached: nothing changed). */
  release(email: string): Promise<void>;
  /** The claimed user is in the core now, with this id. */
  markMigrated(email: string, coreUserId: string, now?: number): Promise<void>;
  counts(): Promise<StoreCounts>;
  /** The users still waiting (or claimed), by email: for a password reset once the operator ends the window. */
  waitingList(): AsyncIterable<WaitingListEntry>;
  /** The users that arrived, with the id the core names each by (a rollback removes them). */
  arrivals(): AsyncIterable<{ email: string; coreUserId: string }>;
  /** Takes a user out of the store, whatever its state. */
  forget(email: string): Promise<void>;
  /** Takes every user not migrated out of the store (a rollback empties it); answers how many. */
  forgetWaiting(): Promise<number>;
  /** Resolves when the store answers (a service's readiness); fails with a `WaitingStoreError` when it does not. */
  checkAvailable(): Promise<void>;
  close(): Promise<void>;
}

/** The store cannot be opened or answer (`Unavailable`), or is of a newer core-migrate than this one (`Refused`). */
export type WaitingStoreProblemCode = 'waitingStoreUnavailable' | 'waitingStoreRefused';

/**
 * The store cannot be opened or answered no more: a sign-in answers "try later", a command its words. They name the
 * store by its location (the setting that gives it is `loginTime`, as data); the cause is kept for a debugger but its
 * text is never shown (a driver may quote a statement's values).
 */
export class WaitingStoreError extends Problem<'loginTime', WaitingStoreProblemCode> {
  override readonly name = 'WaitingStoreError';
  readonly #sentence: string;

  constructor(code: WaitingStoreProblemCode, sentence: string, options?: ErrorOptions) {
    super(code, 'setting', 'loginTime', sentence, options);
    this.#sentence = sentence;
  }

  /** The same failure, with what it meant for the command that met it ("nothing was removed"). */
  withConsequence(consequence: string): WaitingStoreError {
    return new WaitingStoreError(this.code, `${this.#sentence}; ${consequence}`, { cause: this.cause });
  }
}

export function isWaitingStoreError(error: unknown): error is WaitingStoreError {
  return error instanceof WaitingStoreError;
}

/** The lease of a claim by default: long enough for a sign-up and its identity steps, short enough that a crash is forgotten soon. */
export const DEFAULT_CLAIM_LEASE_MS = 60_000;
