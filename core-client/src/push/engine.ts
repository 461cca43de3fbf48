import { setMaxListeners } from 'node:events';
import { OutputPathError, outputErrorSentence } from '../files/output-paths.js';
import { DEFAULT_GIVE_UP_AFTER_MS } from '../http/retry.js';
import { recordAccountState } from '../journal/account-state.js';
import { earlierRunOf } from '../journal/earlier-run.js';
import { JournalError, type Journal } from '../journal/journal.js';
import { formatLocation } from '../location.js';
import type { ImportOperation, PlanItem } from '../plan/operation.js';
import { reportLineOfRejection, type ReportWriter } from '../plan/rejection-report.js';
import { addUnread, emptySyncCounts, type PushSummary, type SyncCounts } from '../summary/push-summary.js';
import { syncDelta, type EngineRecord, type SyncItem } from '../sync/delta.js';
import type { OpenedSync } from '../sync/open-sync.js';
import { runAccountChange, runAccountRemoval, type ChangeContext } from './account-changes.js';
import { ConcurrencyController, defaultConcurrencyLimits } from './concurrency.js';
import { ChangeNotifier } from './control.js';
import { Dispatcher } from './dispatcher.js';
import type { PushEvent } from './events.js';
import { contractOnlyIdentityOptions } from '../identity/identity-options.js';
import { LoginTimeParking } from './login-time-parking.js';
import { openRun } from './open-run.js';
import { ResumeCheck } from './resume-check.js';
import { DEFAULT_STOP_GRACE_MS, defaultPushRetryPolicy, type RunPushOptions } from './run-options.js';
import { OperationRunner, type Start } from './run-operation.js';
import { RunSlots } from './run-slots.js';
import { RunStop, type StopState } from './run-stop.js';
import { RunTally } from './run-tally.js';
import { RunWatchdogs } from './run-watchdogs.js';
import { ScryptProbe } from './scrypt-probe.js';
import { runUserSteps, type UserStepContext } from './user-steps.js';
import { optional, optionalFrom } from '../optional.js';

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
  readonly #tally = new RunTally();
  /** Shared by every operation; each user's steps get their own `count` (see #userSteps). */
  readonly #stepContext: Omit<UserStepContext, 'count'>;
  readonly #slots: RunSlots;
  readonly #operations: OperationRunner;
  readonly #changes = new ChangeNotifier();
  readonly #stop: RunStop;
  readonly #watchdogs: RunWatchdogs;
  readonly #resume: ResumeCheck;
  readonly #parking: LoginTimeParking;
  readonly #scryptProbe: ScryptProbe;
  #fatal: unknown;
  #otherHashSaid = false;

  constructor(options: RunPushOptions, journal: Journal | undefined, report: ReportWriter | undefined, sync: OpenedSync | undefined) {
    this.#options = options;
    this.#journal = journal;
    this.#report = report;
    this.#controller = new ConcurrencyController(options.concurrency ?? defaultConcurrencyLimits, options.controllerTuning, options.onControllerReading);
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
    const emit = (event: PushEvent): void => this.#emit(event);
    const requestStop = (stop: StopState): void => this.#requestStop(stop);
    const outputFailed = (error: unknown): void => this.#outputFailed(error);
    this.#operations = new OperationRunner({
      tally: this.#tally,
      stop: this.#stop,
      slots: this.#slots,
      journal,
      report,
      removedInSource: this.#sync?.removedInSource,
      emit,
      requestStop,
      outputFailed,
    });
    this.#watchdogs = new RunWatchdogs({
      sourceCheck: options.sourceCheck,
      dispatcher: this.#dispatcher,
      slots: this.#slots,
      stop: this.#stop,
      giveUpAfterMs: options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS,
      progressIntervalMs: options.progressIntervalMs ?? 250,
      emitProgress: () => this.#emitProgress(),
      requestStop,
    });
    this.#resume = new ResumeCheck(options.client, { journal, tally: this.#tally, stop: this.#stop, emit, requestStop });
    this.#parking = new LoginTimeParking({
      store: options.loginTimeStore,
      journal,
      tally: this.#tally,
      stop: this.#stop,
      syncCounts: this.#sync?.counts,
      dryRun: options.dryRun === true,
      identity: this.#stepContext.options,
      requestStop,
      outputFailed,
      storeFailed: (problem) => {
        this.#fatal ??= problem;
      },
    });
    this.#scryptProbe = new ScryptProbe({ slots: this.#slots, stop: this.#stop, tally: this.#tally, operations: this.#operations, emit });
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
    this.#watchdogs.start();
    let sourceError: unknown;
    try {
      await this.#resume.checkCreatedUsersOnCore();
      const sync = this.#sync;
      if (sync === undefined) await this.#consume(this.#options.records, (item) => this.#take(item));
      else {
        const startedAt = Date.now();
        await this.#consume(this.#deltaOf(sync), (item) =>
          item.kind === 'accountChange' || item.kind === 'accountRemoval' ? this.#whenFree(item, this.#changeOf(item, sync)) : this.#take(item),
        );
        await this.#parking.sweep(startedAt);
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
      this.#watchdogs.end();
      signal?.removeEventListener('abort', onInterrupt);
      abandonSignal?.removeEventListener('abort', onAbandon);
      unsubscribe?.();
      await this.#report?.close().catch((error: unknown) => this.#outputFailed(error));
    }
    if (this.#fatal !== undefined) throw this.#fatal;
    if (sourceError !== undefined && !(await this.#watchdogs.checkSource())) throw sourceError;
    if (this.#stop.state === undefined) await this.#watchdogs.checkSource();
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
      return Promise.all([written, this.#parking.leave(item.email)]).then(() => undefined);
    }
    if (item.kind === 'loginTimeWait') return this.#parking.park(item);
    // A sync knows from the accounts' states what is there: an operation it sends is new (or re-enabled), whatever
    // an earlier export's operation at the same place did.
    const earlier =
      this.#sync === undefined && this.#journal !== undefined
        ? earlierRunOf(this.#journal, item, this.#stepContext.options.existing === 'replace')
        : { kind: 'send' as const };
    switch (earlier.kind) {
      case 'done':
        return this.#resume.skipDone(item);
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
    if (this.#scryptProbe.wants(item)) return this.#scryptProbe.send(item, this.#userSteps(item));
    return this.#whenFree(item, this.#userSteps(item));
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
      ...optionalFrom('stoppedEarly', this.#stop.state, ({ reason, message }) => ({ reason, message })),
      ...optional('journalPath', this.#options.journalPath),
      ...optional('reportPath', this.#options.reportPath),
      elapsedMs: this.#tally.elapsedMs,
    };
  }
}
