import type { Journal } from '../journal/journal.js';
import { isWaitingStoreError, type WaitingStore, type WaitingStoreError } from '../login-time/store/waiting-store.js';
import type { LoginTimeWait } from '../plan/operation.js';
import type { SyncCounts } from '../summary/push-summary.js';
import type { IdentityOptions } from '../identity/identity-options.js';
import { parkedUserOf } from './parked-user.js';
import type { RunStop, StopState } from './run-stop.js';
import type { RunTally } from './run-tally.js';

/** What the parking of a run reaches: its waiting store, journal and counts, and the run's stop. */
export interface ParkingRun {
  store: WaitingStore | undefined;
  journal: Journal | undefined;
  tally: RunTally;
  stop: RunStop;
  /** A sync's counts; undefined when the run is a push. */
  syncCounts: SyncCounts | undefined;
  dryRun: boolean;
  identity: IdentityOptions;
  requestStop(stop: StopState): void;
  /** The journal cannot be written: nothing more may be sent. */
  outputFailed(error: unknown): void;
  /** The waiting store failed: the run ends with this problem. */
  storeFailed(problem: WaitingStoreError): void;
}

/** The users a run leaves for their first sign-in: written to the waiting store, kept there, or taken out of it. */
export class LoginTimeParking {
  readonly #run: ParkingRun;

  constructor(run: ParkingRun) {
    this.#run = run;
  }

  /**
   * Writes a user the plan parked for its first login to the waiting store: no core request. Journalled, so a resume
   * does not write it again (the store's write by email is idempotent anyway). A user that arrived already (migrated
   * at a sign-in) is left as it is, counted as done. A store that fails stops the run, as an output that fails does.
   */
  park(item: LoginTimeWait): Promise<void> | undefined {
    const { store, journal, tally, dryRun } = this.#run;
    if (journal?.lookup(item) !== undefined) {
      tally.add('skipped');
      // Met unchanged by a sync: it stays in the store (those no sync meets leave it at the end).
      if (this.#run.syncCounts === undefined || store === undefined || dryRun) return undefined;
      return store.touch(item.email).catch((error: unknown) => this.#storeFailed(error));
    }
    if (dryRun) {
      tally.add('notAttempted');
      return undefined;
    }
    if (store === undefined) {
      tally.add('failed');
      return undefined;
    }
    return store.park(parkedUserOf(item, this.#run.identity)).then(
      (written) => {
        tally.add(written ? 'parkedForLogin' : 'skipped');
        try {
          journal?.record(item, { outcome: 'parked' });
        } catch (error) {
          this.#run.outputFailed(error);
        }
      },
      (error: unknown) => {
        tally.add('notAttempted');
        this.#storeFailed(error);
      },
    );
  }

  /** A sync takes a user disabled in the old system out of the waiting store while it waits (never one that arrived). */
  async leave(email: string): Promise<void> {
    const { store, syncCounts } = this.#run;
    if (store === undefined || syncCounts === undefined || this.#run.dryRun) return;
    const left = await store.leave(email).catch((error: unknown) => this.#storeFailed(error));
    if (left === true) syncCounts.leftLoginTimeStore += 1;
  }

  /**
   * After a sync read the whole newer export: the users still waiting that it did not meet (gone from the old system,
   * or no longer parked) leave the waiting store.
   */
  async sweep(startedAt: number): Promise<void> {
    const { store, syncCounts } = this.#run;
    if (store === undefined || syncCounts === undefined || this.#run.dryRun || this.#run.stop.state !== undefined) return;
    const left = await store.forgetUnseen(startedAt).catch((error: unknown) => this.#storeFailed(error));
    if (left !== undefined) syncCounts.leftLoginTimeStore += left;
  }

  /** A waiting store that fails stops the run, as an output that fails does; its sentence names no hash. */
  #storeFailed(error: unknown): undefined {
    const sentence = error instanceof Error ? error.message : 'the waiting store failed';
    if (isWaitingStoreError(error)) this.#run.storeFailed(error.withConsequence('nothing more was sent; a resume parks the rest'));
    this.#run.requestStop({ reason: 'outputFailed', message: `${sentence}. Nothing more was sent; a resume parks the rest.`, hard: false });
    return undefined;
  }
}
