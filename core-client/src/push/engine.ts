import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreClient } from '../http/core-client.js';
import { isCoreError, Transient } from '../http/errors.js';
import { DEFAULT_GIVE_UP_AFTER_MS, type RetryPolicy, defaultRetryPolicy } from '../http/retry.js';
import { formatLocation } from '../location.js';
import { accountRoleOf, fieldGroups, type FieldGroup } from '../plan/field-groups.js';
import type { ImportOperation, PasswordImportOperation } from '../plan/operation.js';
import { runAccountChange, runAccountRemoval } from './account-changes.js';
import type { DeletedPolicy } from '../choices.js';
import { syncDelta, type EngineItem, type EngineRecord, type SyncItem } from './delta.js';
import { OutputPathError, outputErrorSentence } from '../files/output-paths.js';
import { ReportWriter, reportLineOfRejection } from '../plan/rejection-report.js';
import { ConcurrencyController, type ConcurrencyLimits, defaultConcurrencyLimits } from './concurrency.js';
import { attemptsOf, Dispatcher } from './dispatcher.js';
import { ChangeNotifier, type PushControl } from './control.js';
import type { PushEvent, PushEventListener } from './events.js';
import { Journal, JournalError } from './journal.js';
import { StateFlag } from './user-states.js';
import {
  forecastSync,
  journalWithoutStates,
  overlapTooLow,
  syncJournalProblem,
  SyncRefusedError,
  type SyncForecast,
  type SyncGuardOptions,
} from './sync-guard.js';
import type { PlannedRecord as PlannedRecordLike } from '../plan/plan-source.js';
import { JournalCoreCheck } from './journal-core-check.js';
import { endOfError, type OperationEnd } from './outcome.js';
import {
  addOutcome,
  addUnread,
  emptyCounts,
  emptyStepCounts,
  emptySyncCounts,
  type PushCounts,
  type PushOutcome,
  type PlannedRejections,
  type PushSummary,
  type StepCounts,
  type StopReason,
  type SyncCounts,
} from './summary.js';
import { contractOnlyIdentityOptions, type IdentityOptions } from './identity-options.js';
import { runUserSteps, type AccountIds, type IdentityClient, type StepCounter, type UserStepContext } from './user-steps.js';
import { optional } from '../optional.js';

/** What the engine needs of a core client; `CoreClient` is one. The lookup serves the steps and the journal's core check. */
export type PushClient = IdentityClient & Pick<CoreClient, 'describe' | 'digestKey' | 'userCount'>;

export interface RunPushOptions {
  /** The plan, streamed: the engine pulls the next record only when it can send, so memory stays flat. */
  records: AsyncIterable<EngineRecord>;
  /**
   * A sync (issue 19): the records are a newer export of the system the journal migrated; only what changed since
   * the journal's last run is sent (`syncDelta`), and `deleted` says what happens to users gone from the export.
   */
  sync?: SyncRunOptions;
  /** Operations the plan holds (`summarisePlan(...).operations`), for progress, ETA and the summary's sum. */
  total?: number;
  /**
   * The plan's refusals among them (`plannedRejectionsOf`): a push that stops before reading them counts them as the
   * plan ended them, not as "not attempted".
   */
  plannedRejections?: PlannedRejections;
  client: PushClient;
  /**
   * The steps after each creation (id mapping, verification, metadata, the lookup). Default: none, the contract's two
   * operations alone; the headless command and the app pass `defaultIdentityOptions` less what the core lacks.
   */
  identity?: IdentityOptions;
  /** `sourceFingerprint(path)` of the file the plan reads; the journal is refused for another file. */
  sourceFingerprint: string;
  /** Without a journal a re-run cannot resume (everything would be sent again). */
  journalPath?: string | undefined;
  reportPath?: string;
  /** Named in the report's run header. */
  sourceName?: string;
  /**
   * A sentence when the export (or a companion file) changed since the plan read it, else undefined: asked every
   * second and at the end; a change stops the push (reason `sourceChanged`).
   */
  sourceCheck?: () => Promise<string | undefined>;
  concurrency?: ConcurrencyLimits;
  /**
   * Attempts per request (`maxAttempts`) and their backoff. Only failures that may be the operation's own use an
   * attempt (see `Dispatcher`); `maxTotalMs` is not used: the give-up time bounds how long a push waits.
   */
  retryPolicy?: RetryPolicy;
  /**
   * How long the core may answer nothing useful (no user done, no record refused: only push-backs, errors, silence)
   * before the push gives up (reason `coreUnreachable`). Until then operations wait instead of failing. Default 5 min.
   */
  giveUpAfterMs?: number;
  /** Plan and count only: read the journal, write nothing anywhere but the report. */
  dryRun?: boolean;
  /** Stop taking new operations, let the ones in flight finish, flush the journal (the first Ctrl-C). */
  signal?: AbortSignal;
  /** Abort the requests in flight too (a second Ctrl-C in a face that does not exit). */
  abandonSignal?: AbortSignal;
  /**
   * After a stop that lets requests in flight finish, how long they get before they are abandoned (not journalled,
   * so a resume sends them again): a core that never finishes an answer cannot hold a Ctrl-C. Default 5 s.
   */
  stopGraceMs?: number;
  control?: PushControl;
  onEvent?: PushEventListener;
  /** Default 250 ms: progress a few times a second, never per operation. */
  progressIntervalMs?: number;
  /** In [0, 1), for retry jitter. */
  random?: () => number;
}

export interface SyncRunOptions extends Omit<SyncGuardOptions, 'removesGone'> {
  deleted: DeletedPolicy;
  /**
   * The same plan read once more, from its start: the sync's first pass (`forecastSync`) reads it before anything is
   * sent, to refuse an export unlike the journal's system and to count the removals against their limit.
   */
  firstPass: () => AsyncIterable<PlannedRecordLike>;
}

/**
 * Retries per request: a little more patient than the client's default, because a push runs for a long time and a
 * core under load recovers; the concurrency controller already slows everyone down.
 */
export const defaultPushRetryPolicy: RetryPolicy = Object.freeze({ ...defaultRetryPolicy, maxAttempts: 8, maxTotalMs: 120_000 });

export const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * A rate-limit storm, a core restarting, a database fail-over: all of these pass within minutes, and a push that
 * waits them out finishes on its own. A core silent for longer needs a person. (One give-up time for every request of
 * a command: http/retry.ts.)
 */
export { DEFAULT_GIVE_UP_AFTER_MS };
/** Beyond a day of silence nobody is waiting for the push any more. */
export const MAX_GIVE_UP_AFTER_MS = 24 * 3_600_000;

/** How often the export is checked for changes during a push (a stat, nothing read). */
const SOURCE_CHECK_INTERVAL_MS = 1_000;

/**
 * Pushes a plan to the core and resolves to the summary (never rejects for a record: each one ends counted).
 * Rejects only when the journal cannot be used (`JournalError`), the source breaks mid-way (its own error), or the
 * journal cannot be written; whatever was journalled until then stays journalled.
 */
export async function runPush(options: RunPushOptions): Promise<PushSummary> {
  const journalTarget = options.client.describe();
  if (options.sync !== undefined && options.journalPath === undefined) {
    throw new JournalError('A sync compares the newer export with the journal of an earlier push or sync: pass that journal with --journal.');
  }
  const missing = options.sync === undefined || options.journalPath === undefined ? undefined : await syncJournalProblem(options.journalPath);
  if (missing !== undefined) throw new JournalError(missing);
  const journal =
    options.journalPath === undefined
      ? undefined
      : await Journal.open(options.journalPath, {
          sourceFingerprint: options.sourceFingerprint,
          target: journalTarget,
          digestKey: (salt) => options.client.digestKey(salt),
          readOnly: options.dryRun === true,
          onNote: (message) => options.onEvent?.({ type: 'note', message }),
          anySource: options.sync !== undefined,
          run: { command: options.sync === undefined ? 'push' : 'sync', source: options.sourceName ?? '' },
        });
  if (journal instanceof JournalError) throw journal;
  if (options.sync !== undefined && journal !== undefined && journal.version < 4) {
    journal.close();
    throw new JournalError(
      `The journal ${journal.path} was written by an earlier version of core-migrate: it says which operations were done, but keeps no digest of ` +
        'what each user was, so a sync could compare nothing (neither new users nor changes); it still resumes and rolls back its push. ' +
        'To sync, push the newer export with a new --journal (users already in the core are left untouched or their hash replaced, as --existing says).',
    );
  }
  const forecast = options.sync === undefined || journal === undefined ? undefined : await guardSync(options.sync, journal, options.signal);
  if (forecast instanceof Error) throw forecast;
  let report: ReportWriter | undefined;
  try {
    report =
      options.reportPath === undefined
        ? undefined
        : new ReportWriter(
            { role: 'report', path: options.reportPath },
            { command: options.sync === undefined ? 'push' : 'sync', dryRun: options.dryRun === true, source: options.sourceName ?? '' },
          );
  } catch (error) {
    journal?.close();
    throw error;
  }
  return new PushRun(options, journal, report, forecast).run();
}

/**
 * Before anything is sent: a journal with account states, an export that looks like a newer one of the journal's
 * system (unless the operator says so), and the removals counted against their limit. The journal is closed on a
 * refusal.
 */
async function guardSync(sync: SyncRunOptions, journal: Journal, signal: AbortSignal | undefined): Promise<SyncForecast | Error> {
  const empty = journalWithoutStates(journal);
  const forecast =
    empty === undefined
      ? await forecastSync(sync.firstPass(), journal, { ...sync, removesGone: sync.deleted === 'remove', signal }).catch((error: unknown) =>
          error instanceof Error ? error : new Error(String(error)),
        )
      : new JournalError(empty);
  // Interrupted during the first pass: its counts are partial, and the run that follows stops before sending.
  const interrupted = signal?.aborted === true;
  if (forecast instanceof Error || (sync.ignoreOverlap !== true && !interrupted && overlapTooLow(forecast))) {
    journal.close();
    return forecast instanceof Error ? forecast : new SyncRefusedError(forecast);
  }
  return forecast;
}

interface StopState {
  reason: StopReason;
  message: string;
  hard: boolean;
}

class PushRun {
  readonly #options: RunPushOptions;
  readonly #journal: Journal | undefined;
  readonly #report: ReportWriter | undefined;
  readonly #controller: ConcurrencyController;
  readonly #dispatcher: Dispatcher;
  readonly #giveUpAfterMs: number;
  readonly #counts: PushCounts = emptyCounts();
  readonly #steps: StepCounts = emptyStepCounts();
  /** Shared by every operation; each user's steps get their own `count` (see #run). */
  readonly #stepContext: Omit<UserStepContext, 'count'>;
  /** Operations under way (from their first request to their end, retries and waits included). */
  #inFlight = 0;
  readonly #changes = new ChangeNotifier();
  /** Aborted on any stop: cancels retry waits. */
  readonly #stopping = new AbortController();
  /** Aborted on a hard stop: cancels requests in flight. */
  readonly #abandon = new AbortController();
  readonly #startedAt = performance.now();
  #stop: StopState | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #fatal: unknown;
  #scryptProbed = false;
  #otherHashSaid = false;
  #sentAndAnswered = 0;
  #firstSendAt: number | undefined;
  readonly #coreCheck: JournalCoreCheck | undefined;
  readonly #syncCounts: SyncCounts | undefined;
  /** Users gone from the newer export that this sync removed (an account each, or several). */
  readonly #removedInSource = new Set<string>();

  readonly #forecast: SyncForecast | undefined;

  constructor(options: RunPushOptions, journal: Journal | undefined, report: ReportWriter | undefined, forecast: SyncForecast | undefined) {
    this.#options = options;
    this.#forecast = forecast;
    this.#journal = journal;
    this.#report = report;
    this.#coreCheck = journal !== undefined && journal.entries > 0 ? new JournalCoreCheck(options.client, journal.path) : undefined;
    this.#controller = new ConcurrencyController(options.concurrency ?? defaultConcurrencyLimits);
    this.#giveUpAfterMs = options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
    this.#syncCounts = options.sync === undefined ? undefined : emptySyncCounts();
    // Every request and retry wait listens to these; as many listeners as operations in flight is expected.
    setMaxListeners(0, this.#stopping.signal, this.#abandon.signal);
    this.#dispatcher = new Dispatcher({
      controller: this.#controller,
      policy: options.retryPolicy ?? defaultPushRetryPolicy,
      // The engine drives retries itself, so that each answer reaches the controller.
      callOptions: { retry: false, signal: this.#abandon.signal },
      stopping: this.#stopping.signal,
      random: options.random ?? Math.random,
      onPushBack: (error, limit) => this.#emit({ type: 'pushBack', status: error.status, retryAfterMs: error.retryAfterMs, concurrency: limit }),
      onChange: () => this.#changes.notify(),
    });
    this.#stepContext = {
      client: options.client,
      options: options.identity ?? contractOnlyIdentityOptions,
      journal,
      send: (call, trace) => this.#dispatcher.send(call, trace),
      announce: async (item) => {
        try {
          await journal?.announce(item);
        } catch (error) {
          // The intent line could not be written: nothing may be sent. The hard stop makes this user "not attempted".
          this.#outputFailed(error);
          throw error;
        }
      },
      note: (item, code, reason) => this.#reportLine(item, { code, reason }),
      recordAccount: (item, ids, groups) => this.#recordAccount(item, ids, groups),
    };
  }

  /** Journals an account's state for a later sync: the groups brought over get the digest of what was sent. */
  #recordAccount(item: ImportOperation, ids: AccountIds, groups: readonly string[]): void {
    const journal = this.#journal;
    const sourceId = item.identity?.sourceId;
    if (journal === undefined || sourceId === undefined) return;
    const role = accountRoleOf(item);
    const known = journal.states.find(sourceId, role);
    // Nothing is sent to a user left untouched: a later run that leaves it again has nothing new to journal.
    if (ids.untouched === true && known !== undefined && journal.states.has(known, StateFlag.untouched) && !journal.states.has(known, StateFlag.removed))
      return;
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
      await this.#consume(
        this.#syncCounts !== undefined && this.#journal !== undefined
          ? syncDelta(this.#options.records as AsyncIterable<PlannedRecordLike>, this.#journal, {
              deleted: this.#options.sync?.deleted ?? 'keep',
              counts: this.#syncCounts,
              withheld: this.#forecast?.removalsWithheld === true ? { removals: this.#forecast.removals, limit: this.#forecast.removalLimit } : undefined,
              onUser: (user) => this.#emit({ type: 'syncUser', user }),
            })
          : this.#options.records,
      );
    } catch (error) {
      if (error instanceof OutputPathError) this.#outputFailed(error);
      else {
        sourceError = error;
        this.#requestStop({ reason: 'interrupted', message: 'The source could not be read to the end.', hard: false });
      }
    } finally {
      await this.#drain();
      clearTimeout(this.#graceTimer);
      clearInterval(progress);
      clearInterval(sourceWatch);
      signal?.removeEventListener('abort', onInterrupt);
      abandonSignal?.removeEventListener('abort', onAbandon);
      unsubscribe?.();
      await this.#report?.close().catch((error: unknown) => this.#outputFailed(error));
    }
    if (this.#fatal !== undefined) throw this.#fatal;
    if (sourceError !== undefined && !(await this.#checkSource())) throw sourceError;
    if (this.#stop === undefined) await this.#checkSource();
    const { total } = this.#options;
    if (this.#stop === undefined && total !== undefined && total !== this.#counts.total) {
      // The file looks the same, yet the push read another number of operations than the plan counted.
      this.#requestStop({
        reason: 'sourceChanged',
        message: `The plan counted ${total} operations but the push read ${this.#counts.total}: the export changed after it was planned. Check it, then push again (the journal skips what is done).`,
        hard: false,
      });
    }
    if (this.#stop !== undefined && total !== undefined && total > this.#counts.total) {
      addUnread(this.#counts, total - this.#counts.total, this.#options.plannedRejections);
    }
    this.#emitProgress();
    return this.#summary();
  }

  /** True when the source changed (and the run is stopping for it). */
  async #checkSource(): Promise<boolean> {
    if (this.#stop?.reason === 'sourceChanged') return true;
    const change = await this.#options.sourceCheck?.().catch((error: unknown) => `The export could not be checked: ${(error as Error).message}`);
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
    if (this.#stop !== undefined || this.#inFlight === 0 || silentMs < this.#giveUpAfterMs) return;
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
        : `${outputErrorSentence(error as NodeJS.ErrnoException, { role: 'journal', path: this.#journal?.path ?? '' })} Nothing more was sent; what is journalled stays journalled.`;
    this.#fatal ??= new JournalError(sentence);
    this.#requestStop({ reason: 'outputFailed', message: sentence, hard: true });
  }

  async #consume(records: AsyncIterable<EngineRecord>): Promise<void> {
    for await (const record of records) {
      for (const item of record.items) {
        // A refusal of the plan ends as the plan said, stop or not: nothing of it would be sent.
        if (this.#stop !== undefined && item.kind !== 'rejection') {
          addOutcome(this.#counts, 'notAttempted');
          continue;
        }
        // Most operations are launched without a single await: at tens of thousands a second it shows.
        const pending = this.#take(item);
        if (pending !== undefined) await pending;
      }
      if (this.#stop !== undefined) return;
    }
  }

  /** Ends, launches or waits for one plan item; a promise only when it has to wait. */
  #take(item: EngineItem): Promise<void> | undefined {
    if (item.kind === 'rejection') {
      addOutcome(this.#counts, item.code === 'disabledAccount' ? 'disabledSkipped' : 'rejected');
      return this.#report?.write(reportLineOfRejection(item));
    }
    if (item.kind === 'accountChange' || item.kind === 'accountRemoval') return this.#whenFree(item);
    // A sync knows from the accounts' states what is there: an operation it sends is new (or re-enabled), whatever
    // an earlier export's operation at the same place did.
    const found = this.#syncCounts === undefined ? this.#journal?.lookup(item) : undefined;
    // A user left untouched under --existing skip is done only for skip: a run with replace sends it.
    const journalled = found?.outcome === 'untouched' && this.#stepContext.options.existing === 'replace' ? undefined : found;
    if (journalled !== undefined) {
      if (journalled.outcome !== 'rejectedByCore') {
        if (item.kind === 'passwordImport' && this.#coreCheck?.wants() === true) return this.#skipIfOnCore(item);
        addOutcome(this.#counts, 'skipped');
        return undefined;
      }
      return this.#count(item, 'failed', {
        code: 'recordRejected',
        reason: `refused by the core in an earlier run (${journalled.reason ?? 'no reason kept'}); fix the record and push again: a changed record is sent again.`,
      });
    }
    if (this.#syncCounts === undefined && item.kind === 'passwordImport') {
      const earlier = this.#earlierCreation(item);
      if (earlier === 'asExported') {
        if (this.#coreCheck?.wants() === true) return this.#skipIfOnCore(item);
        addOutcome(this.#counts, 'skipped');
        return undefined;
      }
      if (earlier === 'otherHash') return this.#leaveForSync(item);
    }
    if (this.#options.dryRun === true) {
      addOutcome(this.#counts, 'notAttempted');
      return undefined;
    }
    if (item.kind === 'passwordImport' && item.family === 'vendor_scrypt' && !this.#scryptProbed) return this.#probeScrypt(item);
    return this.#whenFree(item);
  }

  /**
   * A password user an earlier run of this journal created (and finished), met with another body than it sent: with
   * another hash (`otherHash`: other hash parameters or wrappers), or as a sync since brought it over (`asExported`).
   * Undefined when the journal does not say so, or the user's steps are still to be resumed.
   */
  #earlierCreation(item: PasswordImportOperation): 'asExported' | 'otherHash' | undefined {
    const journal = this.#journal;
    const sourceId = item.identity?.sourceId;
    if (journal === undefined || sourceId === undefined || journal.progressOf(item) !== undefined) return undefined;
    const account = journal.states.find(sourceId, accountRoleOf(item));
    if (account === undefined || !journal.states.has(account, StateFlag.createdHere) || journal.states.has(account, StateFlag.removed)) return undefined;
    const digests = journal.groupDigests(item);
    const sent = (group: FieldGroup): boolean => journal.states.digest(account, fieldGroups.indexOf(group)) === digests[fieldGroups.indexOf(group)];
    if (!sent('credentials')) return 'otherHash';
    return sent('email') ? 'asExported' : undefined;
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
    return this.#count(item, 'createdWithOtherHash', {
      code: 'createdWithOtherHash',
      reason:
        'created by an earlier run of this journal with another hash (other hash parameters or wrappers): not sent again by a push; a sync re-imports its hash',
    });
  }

  /** Launches the item when a slot is free, or waits for one. */
  #whenFree(item: ImportOperation | SyncItem): Promise<void> | undefined {
    if (this.#options.dryRun === true) {
      addOutcome(this.#counts, 'notAttempted');
      return undefined;
    }
    if (this.#slotFree()) {
      this.#launch(item);
      return undefined;
    }
    return this.#waitForSlot().then((free) => {
      if (free) this.#launch(item);
      else addOutcome(this.#counts, 'notAttempted');
    });
  }

  /** Before anything is skipped: a core with fewer users than the journal created here is not its core (JournalCoreCheck). */
  async #checkCreatedUsersOnCore(): Promise<void> {
    const created = (this.#journal?.createdUsers ?? 0) - (this.#journal?.removedUsers ?? 0);
    if (this.#coreCheck === undefined || created === 0) return;
    const result = await this.#coreCheck.checkCount(created, this.#stopping.signal);
    if (result.kind === 'missing') this.#requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
    else if (result.kind === 'unchecked' && result.note !== undefined) this.#emit({ type: 'note', message: result.note });
  }

  /** Skips a journalled user only once the core confirms it has it; a missing one stops the push (see JournalCoreCheck). */
  async #skipIfOnCore(item: ImportOperation & { kind: 'passwordImport' }): Promise<void> {
    const result = await (this.#coreCheck as JournalCoreCheck).check(item, this.#stopping.signal);
    if (result.kind === 'missing') {
      addOutcome(this.#counts, 'notAttempted');
      this.#requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
      return;
    }
    if (result.kind === 'unchecked' && result.note !== undefined) this.#emit({ type: 'note', message: result.note });
    addOutcome(this.#counts, 'skipped');
  }

  /**
   * The first scrypt-variant user goes alone, with nothing else in flight: a core without the signer key answers it
   * with a 500, and the push stops before any other request is sent.
   */
  async #probeScrypt(item: ImportOperation): Promise<void> {
    this.#scryptProbed = true;
    await this.#drain();
    if (this.#stop !== undefined) {
      addOutcome(this.#counts, 'notAttempted');
      return;
    }
    this.#emit({
      type: 'probe',
      message: `Sending the first vendor_scrypt user (${formatLocation(item.location)}) alone, to check that the core has its signer key.`,
    });
    this.#inFlight += 1;
    await this.#execute(item);
  }

  #launch(item: ImportOperation | SyncItem): void {
    this.#inFlight += 1;
    // #execute never rejects: every way an operation can end is counted inside it.
    void this.#execute(item);
  }

  async #drain(): Promise<void> {
    while (this.#inFlight > 0) await this.#changes.changed();
  }

  #slotFree(): boolean {
    return this.#stop === undefined && this.#options.control?.paused !== true && this.#dispatcher.mayStartOperation(this.#inFlight);
  }

  /** Waits until one more request may start; false when the run is stopping. */
  async #waitForSlot(): Promise<boolean> {
    for (;;) {
      if (this.#stop !== undefined) return false;
      if (this.#options.control?.paused === true) {
        await this.#changes.changed();
        continue;
      }
      const holdMs = this.#dispatcher.holdUntil - performance.now();
      if (holdMs > 0) {
        await this.#sleepUnlessChanged(holdMs);
        continue;
      }
      if (this.#dispatcher.mayStartOperation(this.#inFlight)) return true;
      await this.#changes.changed();
    }
  }

  async #sleepUnlessChanged(ms: number): Promise<void> {
    const cancel = new AbortController();
    await Promise.race([sleep(ms, undefined, { signal: cancel.signal }).catch(() => undefined), this.#stopped()]);
    cancel.abort();
  }

  #stopped(): Promise<void> {
    const signal = this.#stopping.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** A user's steps, one after another (runUserSteps); users run in parallel, each in one slot. */
  async #execute(item: ImportOperation | SyncItem): Promise<void> {
    this.#firstSendAt ??= performance.now();
    // The steps count only for a user that ends done in this run, so they stay a part of its created or found users.
    const steps: StepCounter[] = [];
    try {
      const end = await this.#run(item, steps);
      if (end.kind === 'done') for (const step of steps) this.#steps[step] += 1;
      await this.#finish(item, end);
    } catch (error) {
      const attempts = attemptsOf(error);
      const stoppedMidway = this.#abandon.signal.aborted || (this.#stop !== undefined && (error instanceof Transient || !isCoreError(error)));
      if (stoppedMidway) {
        // Not answered, or abandoned while waiting to retry: not journalled, so a resume sends it.
        addOutcome(this.#counts, 'notAttempted');
      } else {
        await this.#finish(item, endOfError(error, attempts));
      }
    } finally {
      this.#inFlight -= 1;
      this.#changes.notify();
    }
  }

  #run(item: ImportOperation | SyncItem, steps: StepCounter[]): Promise<OperationEnd> {
    if (item.kind === 'passwordImport' || item.kind === 'thirdPartySignInUp') {
      return runUserSteps(item, { ...this.#stepContext, count: (counter) => steps.push(counter) });
    }
    const context = { ...this.#stepContext, journal: this.#journal as Journal };
    return item.kind === 'accountChange' ? runAccountChange(item, context) : runAccountRemoval(item, context);
  }

  async #finish(item: ImportOperation | SyncItem, end: OperationEnd): Promise<void> {
    // A sync's change is journalled in the account's state (runAccountChange), not as an operation.
    const operation = item.kind === 'accountChange' || item.kind === 'accountRemoval' ? undefined : item;
    try {
      switch (end.kind) {
        case 'done':
          if (operation !== undefined) this.#journal?.record(operation, { outcome: end.journal });
          if (item.kind === 'accountRemoval' && item.why === 'deletedInSource' && end.outcome === 'removed') this.#removedInSource.add(item.sourceId);
          this.#sentAndAnswered += 1;
          await this.#count(item, end.outcome, end.note === undefined ? undefined : { code: end.outcome, reason: end.note });
          return;
        case 'refused':
          if (operation !== undefined) this.#journal?.record(operation, { outcome: 'rejectedByCore', reason: end.reason });
          this.#sentAndAnswered += 1;
          await this.#count(item, 'failed', end);
          return;
        case 'failed':
          await this.#count(item, 'failed', end);
          return;
        case 'stop':
          if (end.reason === 'authRejected') this.#emit({ type: 'authRejected', message: end.message });
          if (end.reason === 'signerKeyMissing') this.#emit({ type: 'signerKeyMissing', message: end.message });
          this.#requestStop({ reason: end.reason, message: end.message, hard: end.hard });
          if (end.record === undefined) addOutcome(this.#counts, 'notAttempted');
          else await this.#count(item, 'failed', end.record);
          return;
      }
    } catch (error) {
      // The journal or the report could not be written (disk full, file removed): nothing more may be sent.
      this.#outputFailed(error);
    }
  }

  #count(item: ImportOperation | SyncItem, outcome: PushOutcome, line?: { code: string; reason: string }): Promise<void> | undefined {
    addOutcome(this.#counts, outcome);
    if (line === undefined) return undefined;
    return this.#reportLine(item, line);
  }

  #reportLine(item: ImportOperation | SyncItem, line: { code: string; reason: string }): Promise<void> | undefined {
    if (item.kind === 'accountRemoval') {
      return this.#report?.write({
        stage: 'core',
        location: item.location === undefined ? 'not in the newer export' : formatLocation(item.location),
        sourceId: item.sourceId,
        operation: item.kind,
        code: line.code,
        reason: line.reason,
      });
    }
    const operation = item.kind === 'accountChange' ? item.operation : item;
    const sourceId = operation.identity?.sourceId;
    return this.#report?.write({
      stage: 'core',
      location: formatLocation(item.location),
      email: item.email,
      ...optional('sourceId', sourceId),
      operation: item.kind,
      code: line.code,
      reason: line.reason,
    });
  }

  #requestStop(stop: StopState): void {
    const current = this.#stop;
    if (current === undefined || (stop.hard && !current.hard)) {
      this.#stop = stop;
      this.#emit({ type: 'stopping', reason: stop.reason, message: stop.message });
    }
    this.#stopping.abort();
    if (stop.hard) this.#abandon.abort();
    else this.#graceTimer ??= setTimeout(() => this.#abandon.abort(), this.#options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS).unref();
    this.#changes.notify();
  }

  #emitProgress(): void {
    // Operations that ended; after a stop the ones never sent are not "done" (a dry run's would-be-sent are).
    const done = this.#counts.total - (this.#options.dryRun === true ? 0 : this.#counts.notAttempted);
    const total = this.#options.total;
    const sendingFor = this.#firstSendAt === undefined ? 0 : (performance.now() - this.#firstSendAt) / 1000;
    const ratePerSecond = sendingFor > 0 ? this.#sentAndAnswered / sendingFor : 0;
    const remaining = total === undefined ? undefined : Math.max(0, total - done);
    this.#emit({
      type: 'progress',
      done,
      total,
      ratePerSecond,
      etaSeconds: remaining === undefined || ratePerSecond <= 0 ? undefined : remaining / ratePerSecond,
      counts: { ...this.#counts },
      concurrency: this.#controller.limit,
      inFlight: this.#inFlight,
    });
  }

  #emit(event: PushEvent): void {
    this.#options.onEvent?.(event);
  }

  #summary(): PushSummary {
    return {
      ...this.#counts,
      dryRun: this.#options.dryRun === true,
      steps: { ...this.#steps },
      retries: this.#dispatcher.retries,
      ...(this.#syncCounts === undefined ? {} : { sync: { ...this.#syncCounts, removed: this.#removedInSource.size } }),
      ...optional('syncGuard', this.#forecast),
      ...(this.#stop === undefined ? {} : { stoppedEarly: { reason: this.#stop.reason, message: this.#stop.message } }),
      ...optional('journalPath', this.#options.journalPath),
      ...optional('reportPath', this.#options.reportPath),
      elapsedMs: performance.now() - this.#startedAt,
    };
  }
}
