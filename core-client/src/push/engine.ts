import { setMaxListeners } from 'node:events';
import { OutputPathError, outputErrorSentence } from '../files/output-paths.js';
import { DEFAULT_GIVE_UP_AFTER_MS } from '../http/retry.js';
import { recordAccountState } from '../journal/account-state.js';
import { earlierRunOf } from '../journal/earlier-run.js';
import { JournalCoreCheck } from '../journal/journal-core-check.js';
import { JournalError, type Journal } from '../journal/journal.js';
import { formatLocation } from '../location.js';
import { isWaitingStoreError } from '../login-time/store/waiting-store.js';
import type { ImportOperation, LoginTimeWait, PlanItem } from '../plan/operation.js';
import { reportLineOfRejection, type ReportWriter } from '../plan/rejection-report.js';
import { addUnread, emptySyncCounts, type PushSummary, type SyncCounts } from '../summary/push-summary.js';
import { syncDelta, type EngineRecord, type SyncItem } from '../sync/delta.js';
import type { OpenedSync } from '../sync/open-sync.js';
import { runAccountChange, runAccountRemoval, type ChangeContext } from './account-changes.js';
import { ConcurrencyController, defaultConcurrencyLimits } from './concurrency.js';
import { ChangeNotifier } from './control.js';
import { Dispatcher } from './dispatcher.js';
import type { PushEvent } from './events.js';
import { contractOnlyIdentityOptions } from './identity-options.js';
import { openRun } from './open-run.js';
import { DEFAULT_STOP_GRACE_MS, defaultPushRetryPolicy, SOURCE_CHECK_INTERVAL_MS, type RunPushOptions } from './run-options.js';
import { OperationRunner, type Start } from './run-operation.js';
import { parkedUserOf } from './parked-user.js';
import { RunSlots } from './run-slots.js';
import { RunStop, type StopState } from './run-stop.js';
import { RunTally } from './run-tally.js';
import { runUserSteps, type UserStepContext } from './user-steps.js';

/**
 * Pushes a plan to the core and resolves to the summary (never rejects for a record: each one ends counted).
 * Rejects only when the journal cannot be used (`JournalError`), a sync is refused before sending (`openSync`), the
 * source breaks mid-way (its own error), or the journal cannot be written; whatever was journalled stays journalled.
 */
export async function runPush(options: RunPushOptions): Promise<PushSummary> {
  const { journal, report, sync } = await openRun(options);
  return new PushRun(options, journal, report, sync).run();
}

/** A sync under way: its journal and first pass (`openSync`), what its delta counts, how its changes run. */
interface SyncRun extends OpenedSync {
  counts: SyncCounts;
  /** Users gone from the newer export that this sync removed (an account each, or several). */
  removedInSource: Set<string>;
  context: ChangeContext;
}

class PushRun {
  readonly #options: RunPushOptions;
  readonly #journal: Journal | undefined;
  readonly #sync: SyncRun | undefined;
  readonly #report: ReportWriter | undefined;
  readonly #controller: ConcurrencyController;
  readonly #dispatcher: Dispatcher;
  readonly #giveUpAfterMs: number;
  readonly #tally = new RunTally();
  /** Shared by every operation; each user's steps get their own `count` (see #userSteps). */
  readonly #stepContext: Omit<UserStepContext, 'count'>;
  readonly #slots: RunSlots;
  readonly #operations: OperationRunner;
  readonly #changes = new ChangeNotifier();
  readonly #stop: RunStop;
  #fatal: unknown;
  #scryptProbed = false;
  #otherHashSaid = false;
  readonly #coreCheck: JournalCoreCheck | undefined;

  constructor(options: RunPushOptions, journal: Journal | undefined, report: ReportWriter | undefined, sync: OpenedSync | undefined) {
    this.#options = options;
    this.#journal = journal;
    this.#report = report;
    this.#coreCheck = journal !== undefined && journal.entries > 0 ? new JournalCoreCheck(options.client, journal.path) : undefined;
    this.#controller = new ConcurrencyController(options.concurrency ?? defaultConcurrencyLimits, options.controllerTuning, options.onControllerReading);
    this.#giveUpAfterMs = options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
    this.#stop = new RunStop(options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS, (stop) =>
      this.#emit({ type: 'stopping', reason: stop.reason, message: stop.message }),
    );
    // Every request and retry wait listens to these; as many listeners as operations in flight is expected.
    setMaxListeners(0, this.#stop.stopping.signal, this.#stop.abandon.signal);
    this.#dispatcher = new Dispatcher({
      controller: this.#controller,
      policy: options.retryPolicy ?? defaultPushRetryPolicy,
      // The engine drives retries itself, so that each answer reaches the controller.
      callOptions: { retry: false, signal: this.#stop.abandon.signal },
      stopping: this.#stop.stopping.signal,
      random: options.random ?? Math.random,
      onPushBack: (error, limit) => this.#emit({ type: 'pushBack', status: error.status, retryAfterMs: error.retryAfterMs, concurrency: limit }),
      onChange: () => this.#changes.notify(),
    });
    this.#slots = new RunSlots({ changes: this.#changes, stop: this.#stop, dispatcher: this.#dispatcher, control: options.control });
    this.#stepContext = {
      client: options.client,
      options: options.identity ?? contractOnlyIdentityOptions,
      journal,
      send: (call, trace, advanced) => this.#dispatcher.send(call, trace, advanced),
      announce: async (item) => {
        try {
          await journal?.announce(item);
        } catch (error) {
          // The intent line could not be written: nothing may be sent. The hard stop makes this user "not attempted".
          this.#outputFailed(error);
          throw error;
        }
      },
      note: (item, code, reason) => this.#operations.reportLine(item, { code, reason }),
      recordAccount: (item, ids, groups) => {
        if (journal !== undefined) recordAccountState(journal, item, ids, groups);
      },
    };
    this.#sync =
      sync === undefined
        ? undefined
        : { ...sync, counts: emptySyncCounts(), removedInSource: new Set(), context: { ...this.#stepContext, journal: sync.journal } };
    this.#operations = new OperationRunner({
      tally: this.#tally,
      stop: this.#stop,
      slots: this.#slots,
      journal,
      report,
      removedInSource: this.#sync?.removedInSource,
      emit: (event) => this.#emit(event),
      requestStop: (stop) => this.#requestStop(stop),
      outputFailed: (error) => this.#outputFailed(error),
    });
  }

  /** The run, then its end line and the journal closed: a run whose journal cannot be closed ends with that sentence. */
  async run(): Promise<PushSummary> {
    let summary: PushSummary;
    try {
      summary = await this.#runToEnd();
      try {
        this.#journal?.endRun(summary);
      } catch (error) {
        this.#outputFailed(error);
      }
    } finally {
      this.#closeOutputs();
    }
    if (this.#fatal !== undefined) throw this.#fatal;
    this.#emit({ type: 'finished', summary });
    return summary;
  }

  async #runToEnd(): Promise<PushSummary> {
    const { signal, abandonSignal, control } = this.#options;
    const onInterrupt = (): void =>
      this.#requestStop({
        reason: 'interrupted',
        message: 'Interrupted: no new operations are sent; those in flight get a few seconds to finish and be journalled.',
        hard: false,
      });
    const onAbandon = (): void => this.#requestStop({ reason: 'interrupted', message: 'Interrupted: requests in flight were abandoned.', hard: true });
    if (signal?.aborted === true) onInterrupt();
    signal?.addEventListener('abort', onInterrupt, { once: true });
    abandonSignal?.addEventListener('abort', onAbandon, { once: true });
    const unsubscribe = control?.onChange(() => this.#changes.notify());

    this.#emit({
      type: 'started',
      total: this.#options.total,
      concurrency: this.#controller.limit,
      dryRun: this.#options.dryRun === true,
      resumedEntries: this.#journal?.entries ?? 0,
    });
    const progress = setInterval(() => this.#emitProgress(), this.#options.progressIntervalMs ?? 250);
    progress.unref();
    const sourceWatch = setInterval(() => {
      void this.#checkSource();
      this.#checkSilence();
    }, SOURCE_CHECK_INTERVAL_MS);
    sourceWatch.unref();
    let sourceError: unknown;
    try {
      await this.#checkCreatedUsersOnCore();
      const sync = this.#sync;
      if (sync === undefined) await this.#consume(this.#options.records, (item) => this.#take(item));
      else {
        const startedAt = Date.now();
        await this.#consume(this.#deltaOf(sync), (item) =>
          item.kind === 'accountChange' || item.kind === 'accountRemoval' ? this.#whenFree(item, this.#changeOf(item, sync)) : this.#take(item),
        );
        await this.#sweepStore(sync, startedAt);
      }
    } catch (error) {
      if (error instanceof OutputPathError) this.#outputFailed(error);
      else {
        sourceError = error;
        this.#requestStop({ reason: 'interrupted', message: 'The source could not be read to the end.', hard: false });
      }
    } finally {
      await this.#slots.drain();
      this.#stop.ended();
      clearInterval(progress);
      clearInterval(sourceWatch);
      signal?.removeEventListener('abort', onInterrupt);
      abandonSignal?.removeEventListener('abort', onAbandon);
      unsubscribe?.();
      await this.#report?.close().catch((error: unknown) => this.#outputFailed(error));
    }
    if (this.#fatal !== undefined) throw this.#fatal;
    if (sourceError !== undefined && !(await this.#checkSource())) throw sourceError;
    if (this.#stop.state === undefined) await this.#checkSource();
    const { total } = this.#options;
    if (this.#stop.state === undefined && total !== undefined && total !== this.#tally.counts.total) {
      // The file looks the same, yet the push read another number of operations than the plan counted.
      this.#requestStop({
        reason: 'sourceChanged',
        message: `The plan counted ${total} operations but the push read ${this.#tally.counts.total}: the export changed after it was planned. Check it, then push again (the journal skips what is done).`,
        hard: false,
      });
    }
    if (this.#stop.state !== undefined && total !== undefined && total > this.#tally.counts.total) {
      addUnread(this.#tally.counts, total - this.#tally.counts.total, this.#options.plannedRejections);
    }
    this.#emitProgress();
    return this.#summary();
  }

  /** True when the source changed (and the run is stopping for it). */
  async #checkSource(): Promise<boolean> {
    if (this.#stop.state?.reason === 'sourceChanged') return true;
    const change = await this.#options
      .sourceCheck?.()
      .catch((error: unknown) => `The export could not be checked: ${error instanceof Error ? error.message : String(error)}`);
    if (change === undefined) return false;
    this.#requestStop({
      reason: 'sourceChanged',
      message: `${change} What was read after the change may not be what was planned, so the push stopped. Push again once the export is final (the journal skips what is done).`,
      hard: false,
    });
    return true;
  }

  /** Gives up on a core that has answered nothing useful for the give-up time while operations wait for it. */
  #checkSilence(): void {
    const silentMs = this.#dispatcher.silentForMs();
    if (this.#stop.state !== undefined || this.#slots.inFlight === 0 || silentMs < this.#giveUpAfterMs) return;
    const last = this.#dispatcher.lastFailure;
    this.#requestStop({
      reason: 'coreUnreachable',
      message:
        `The core answered nothing useful for ${Math.round(silentMs / 1000)} s${last === undefined ? '' : ` (the last answer: ${last})`}: it seems down ` +
        'or overloaded. Check it, then resume (the journal skips what is done); a longer wait can be set with the give-up time.',
      hard: false,
    });
  }

  #closeOutputs(): void {
    try {
      this.#journal?.close();
    } catch (error) {
      this.#outputFailed(error);
    }
  }

  /** The journal or the report cannot be written: nothing more may be sent; the run ends with the sentence. */
  #outputFailed(error: unknown): void {
    const sentence =
      error instanceof OutputPathError || error instanceof JournalError
        ? error.message
        : `${outputErrorSentence(error instanceof Error ? error : new Error(String(error)), { role: 'journal', path: this.#journal?.path ?? '' })} Nothing more was sent; what is journalled stays journalled.`;
    this.#fatal ??= new JournalError(sentence);
    this.#requestStop({ reason: 'outputFailed', message: sentence, hard: true });
  }

  /** What a sync sends: the delta of the newer export against its journal (`syncDelta`). */
  #deltaOf(sync: SyncRun): AsyncIterable<EngineRecord> {
    const { forecast } = sync;
    return syncDelta(this.#options.records, sync.journal, {
      deleted: sync.deleted,
      counts: sync.counts,
      withheld: forecast.removalsWithheld ? { removals: forecast.removals, limit: forecast.removalLimit } : undefined,
      onUser: (user) => this.#emit({ type: 'syncUser', user }),
    });
  }

  async #consume<Item extends EngineRecord['items'][number]>(
    records: AsyncIterable<{ items: Item[] }>,
    take: (item: Item) => Promise<void> | undefined,
  ): Promise<void> {
    for await (const record of records) {
      for (const item of record.items) {
        // A refusal of the plan ends as the plan said, stop or not: nothing of it would be sent.
        if (this.#stop.state !== undefined && item.kind !== 'rejection') {
          this.#tally.add('notAttempted');
          continue;
        }
        // Most operations are launched without a single await: at tens of thousands a second it shows.
        const pending = take(item);
        if (pending !== undefined) await pending;
      }
      if (this.#stop.state !== undefined) return;
    }
  }

  /** Ends, launches or waits for one plan item; a promise only when it has to wait. */
  #take(item: PlanItem): Promise<void> | undefined {
    if (item.kind === 'rejection') {
      this.#tally.add(item.code === 'disabledAccount' ? 'disabledSkipped' : 'rejected');
      const written = this.#report?.write(reportLineOfRejection(item));
      if (item.code !== 'disabledAccount' || this.#sync === undefined || item.email === undefined) return written;
      return Promise.all([written, this.#leaveStore(item.email)]).then(() => undefined);
    }
    if (item.kind === 'loginTimeWait') return this.#park(item);
    // A sync knows from the accounts' states what is there: an operation it sends is new (or re-enabled), whatever
    // an earlier export's operation at the same place did.
    const earlier =
      this.#sync === undefined && this.#journal !== undefined
        ? earlierRunOf(this.#journal, item, this.#stepContext.options.existing === 'replace')
        : { kind: 'send' as const };
    switch (earlier.kind) {
      case 'done':
        if (item.kind === 'passwordImport' && this.#coreCheck?.wants() === true) return this.#skipIfOnCore(item, this.#coreCheck);
        this.#tally.add('skipped');
        return undefined;
      case 'refused':
        return this.#operations.count(item, 'failed', {
          code: 'recordRejected',
          reason: `refused by the core in an earlier run (${earlier.reason ?? 'no reason kept'}); fix the record and push again: a changed record is sent again.`,
        });
      case 'otherHash':
        return this.#leaveForSync(item);
      case 'send':
        break;
    }
    if (this.#options.dryRun === true) {
      this.#tally.add('notAttempted');
      return undefined;
    }
    if (item.kind === 'passwordImport' && item.family === 'vendor_scrypt' && !this.#scryptProbed) return this.#probeScrypt(item);
    return this.#whenFree(item, this.#userSteps(item));
  }

  /**
   * Writes a user the plan parked for its first login to the waiting store: no core request. Journalled, so a resume
   * does not write it again (the store's write by email is idempotent anyway). A user that arrived already (migrated
   * at a sign-in) is left as it is, counted as done. A store that fails stops the run, as an output that fails does.
   */
  #park(item: LoginTimeWait): Promise<void> | undefined {
    const store = this.#options.loginTimeStore;
    if (this.#journal?.lookup(item) !== undefined) {
      this.#tally.add('skipped');
      // Met unchanged by a sync: it stays in the store (those no sync meets leave it at the end).
      if (this.#sync === undefined || store === undefined || this.#options.dryRun === true) return undefined;
      return store.touch(item.email).catch((error: unknown) => this.#storeFailed(error));
    }
    if (this.#options.dryRun === true) {
      this.#tally.add('notAttempted');
      return undefined;
    }
    if (store === undefined) {
      this.#tally.add('failed');
      return undefined;
    }
    return store.park(parkedUserOf(item, this.#stepContext.options)).then(
      (written) => {
        this.#tally.add(written ? 'parkedForLogin' : 'skipped');
        try {
          this.#journal?.record(item, { outcome: 'parked' });
        } catch (error) {
          this.#outputFailed(error);
        }
      },
      (error: unknown) => {
        this.#tally.add('notAttempted');
        this.#storeFailed(error);
      },
    );
  }

  /** A sync takes a user disabled in the old system out of the waiting store while it waits (never one that arrived). */
  async #leaveStore(email: string): Promise<void> {
    const store = this.#options.loginTimeStore;
    const sync = this.#sync;
    if (store === undefined || sync === undefined || this.#options.dryRun === true) return;
    const left = await store.leave(email).catch((error: unknown) => this.#storeFailed(error));
    if (left === true) sync.counts.leftLoginTimeStore += 1;
  }

  /**
   * After a sync read the whole newer export: the users still waiting that it did not meet (gone from the old system,
   * or no longer parked) leave the waiting store.
   */
  async #sweepStore(sync: SyncRun, startedAt: number): Promise<void> {
    const store = this.#options.loginTimeStore;
    if (store === undefined || this.#options.dryRun === true || this.#stop.state !== undefined) return;
    const left = await store.forgetUnseen(startedAt).catch((error: unknown) => this.#storeFailed(error));
    if (left !== undefined) sync.counts.leftLoginTimeStore += left;
  }

  /** A waiting store that fails stops the run, as an output that fails does; its sentence names no hash. */
  #storeFailed(error: unknown): undefined {
    const sentence = error instanceof Error ? error.message : 'the waiting store failed';
    if (isWaitingStoreError(error)) this.#fatal ??= error.withConsequence('nothing more was sent; a resume parks the rest');
    this.#requestStop({ reason: 'outputFailed', message: `${sentence}. Nothing more was sent; a resume parks the rest.`, hard: false });
    return undefined;
  }

  /**
   * A push never sends a user this migration created again (to the core it would be "already there", and left
   * untouched): it says so once, before anything is sent for such a user, and the face names the sync that re-imports
   * exactly their hashes. Nothing is journalled: the journal keeps the hash that was sent.
   */
  #leaveForSync(item: ImportOperation): Promise<void> | undefined {
    if (!this.#otherHashSaid) {
      this.#otherHashSaid = true;
      this.#emit({
        type: 'createdWithOtherHash',
        message:
          `${formatLocation(item.location)}: this user was created by an earlier run of the journal ${this.#journal?.path ?? ''} with another hash ` +
          'than this run builds from the same record (other hash parameters or wrappers: --hash-config, --strip-prefix). ' +
          'A push leaves such users as they are (they may not be able to sign in); a sync with these settings re-imports exactly their hashes.',
      });
    }
    return this.#operations.count(item, 'createdWithOtherHash', {
      code: 'createdWithOtherHash',
      reason:
        'created by an earlier run of this journal with another hash (other hash parameters or wrappers): not sent again by a push; a sync re-imports its hash',
    });
  }

  /** Launches the item when a slot is free, or waits for one. */
  #whenFree(item: ImportOperation | SyncItem, start: Start): Promise<void> | undefined {
    if (this.#options.dryRun === true) {
      this.#tally.add('notAttempted');
      return undefined;
    }
    if (this.#slots.free()) {
      this.#launch(item, start);
      return undefined;
    }
    return this.#slots.waitForOne().then((free) => {
      if (free) this.#launch(item, start);
      else this.#tally.add('notAttempted');
    });
  }

  /** Before anything is skipped: a core with fewer users than the journal created here is not its core (JournalCoreCheck). */
  async #checkCreatedUsersOnCore(): Promise<void> {
    const created = (this.#journal?.createdUsers ?? 0) - (this.#journal?.removedUsers ?? 0);
    if (this.#coreCheck === undefined || created === 0) return;
    const result = await this.#coreCheck.checkCount(created, this.#stop.stopping.signal);
    if (result.kind === 'missing') this.#requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
    else if (result.kind === 'unchecked' && result.note !== undefined) this.#emit({ type: 'note', message: result.note });
  }

  /** Skips a journalled user only once the core confirms it has it; a missing one stops the push (see JournalCoreCheck). */
  async #skipIfOnCore(item: ImportOperation & { kind: 'passwordImport' }, coreCheck: JournalCoreCheck): Promise<void> {
    const result = await coreCheck.check(item, this.#stop.stopping.signal);
    if (result.kind === 'missing') {
      this.#tally.add('notAttempted');
      this.#requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
      return;
    }
    if (result.kind === 'unchecked' && result.note !== undefined) this.#emit({ type: 'note', message: result.note });
    this.#tally.add('skipped');
  }

  /**
   * The first scrypt-variant user goes alone, with nothing else in flight: a core without the signer key answers it
   * with a 500, and the push stops before any other request is sent.
   */
  async #probeScrypt(item: ImportOperation): Promise<void> {
    this.#scryptProbed = true;
    await this.#slots.drain();
    if (this.#stop.state !== undefined) {
      this.#tally.add('notAttempted');
      return;
    }
    this.#emit({
      type: 'probe',
      message: `Sending the first vendor_scrypt user (${formatLocation(item.location)}) alone, to check that the core has its signer key.`,
    });
    this.#slots.take();
    await this.#operations.execute(item, this.#userSteps(item));
  }

  #launch(item: ImportOperation | SyncItem, start: Start): void {
    this.#slots.take();
    // #execute never rejects: every way an operation can end is counted inside it.
    void this.#operations.execute(item, start);
  }

  #userSteps(item: ImportOperation): Start {
    return (steps) => runUserSteps(item, { ...this.#stepContext, count: (counter) => steps.push(counter) });
  }

  /** A sync's change of an account it created; its steps count nothing (the delta's counts say what changed). */
  #changeOf(item: SyncItem, sync: SyncRun): Start {
    return () => (item.kind === 'accountChange' ? runAccountChange(item, sync.context) : runAccountRemoval(item, sync.context));
  }

  #requestStop(stop: StopState): void {
    this.#stop.request(stop);
    this.#changes.notify();
  }

  #emitProgress(): void {
    const { total, dryRun } = this.#options;
    this.#emit(this.#tally.progress({ total, dryRun: dryRun === true, concurrency: this.#controller.limit, inFlight: this.#slots.inFlight }));
  }

  #emit(event: PushEvent): void {
    this.#options.onEvent?.(event);
  }

  #summary(): PushSummary {
    return {
      ...this.#tally.counts,
      dryRun: this.#options.dryRun === true,
      steps: { ...this.#tally.steps },
      retries: this.#dispatcher.retries,
      ...(this.#sync === undefined ? {} : { sync: { ...this.#sync.counts, removed: this.#sync.removedInSource.size }, syncGuard: this.#sync.forecast }),
      ...(this.#stop.state === undefined ? {} : { stoppedEarly: { reason: this.#stop.state.reason, message: this.#stop.state.message } }),
      ...(this.#options.journalPath === undefined ? {} : { journalPath: this.#options.journalPath }),
      ...(this.#options.reportPath === undefined ? {} : { reportPath: this.#options.reportPath }),
      elapsedMs: this.#tally.elapsedMs,
    };
  }
}
