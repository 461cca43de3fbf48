import { isCoreError, Transient } from '../http/errors.js';
import type { Journal } from '../journal/journal.js';
import type { ImportOperation } from '../plan/operation.js';
import type { ReportWriter } from '../plan/rejection-report.js';
import type { PushOutcome } from '../summary/push-summary.js';
import type { SyncItem } from '../sync/delta.js';
import { coreReportLine } from './core-report-line.js';
import { attemptsOf } from './dispatcher.js';
import type { PushEvent } from './events.js';
import { endOfError, type OperationEnd } from './outcome.js';
import type { RunSlots } from './run-slots.js';
import type { RunStop, StopState } from './run-stop.js';
import type { RunTally } from './run-tally.js';
import type { StepCounter } from './user-steps.js';

/** Starts an operation's work: a user's steps, or a sync's change; `steps` collects the steps done. */
export type Start = (steps: StepCounter[]) => Promise<OperationEnd>;

/** What an operation's end reaches: the counts, the journal and the report, and the run's stop. */
export interface OperationRun {
  tally: RunTally;
  stop: RunStop;
  slots: RunSlots;
  journal: Journal | undefined;
  report: ReportWriter | undefined;
  /** A sync's users gone from the newer export that it removed (an account each, or several). */
  removedInSource: Set<string> | undefined;
  emit(event: PushEvent): void;
  requestStop(stop: StopState): void;
  /** The journal or the report cannot be written: nothing more may be sent. */
  outputFailed(error: unknown): void;
}

/** Runs one operation in its slot and ends it: counted, journalled, reported, or the run stopped. */
export class OperationRunner {
  readonly #run: OperationRun;

  constructor(run: OperationRun) {
    this.#run = run;
  }

  /** A user's steps, one after another (runUserSteps); users run in parallel, each in one slot. */
  async execute(item: ImportOperation | SyncItem, start: Start): Promise<void> {
    this.#run.tally.sending();
    // The steps count only for a user that ends done in this run, so they stay a part of its created or found users.
    const steps: StepCounter[] = [];
    try {
      const end = await start(steps);
      if (end.kind === 'done') for (const step of steps) this.#run.tally.steps[step] += 1;
      await this.#finish(item, end);
    } catch (error) {
      const attempts = attemptsOf(error);
      const stoppedMidway =
        this.#run.stop.abandon.signal.aborted || (this.#run.stop.state !== undefined && (error instanceof Transient || !isCoreError(error)));
      if (stoppedMidway) {
        // Not answered, or abandoned while waiting to retry: not journalled, so a resume sends it.
        this.#run.tally.add('notAttempted');
      } else {
        await this.#finish(item, endOfError(error, attempts));
      }
    } finally {
      this.#run.slots.release();
    }
  }

  async #finish(item: ImportOperation | SyncItem, end: OperationEnd): Promise<void> {
    // A sync's change is journalled in the account's state (runAccountChange), not as an operation.
    const operation = item.kind === 'accountChange' || item.kind === 'accountRemoval' ? undefined : item;
    try {
      switch (end.kind) {
        case 'done':
          if (operation !== undefined) this.#run.journal?.record(operation, { outcome: end.journal });
          if (item.kind === 'accountRemoval' && item.why === 'deletedInSource' && end.outcome === 'removed') this.#run.removedInSource?.add(item.sourceId);
          this.#run.tally.answered();
          await this.count(item, end.outcome, end.note === undefined ? undefined : { code: end.outcome, reason: end.note });
          return;
        case 'refused':
          if (operation !== undefined) this.#run.journal?.record(operation, { outcome: 'rejectedByCore', reason: end.reason });
          this.#run.tally.answered();
          await this.count(item, 'failed', end);
          return;
        case 'failed':
          await this.count(item, 'failed', end);
          return;
        case 'stop':
          if (end.reason === 'authRejected') this.#run.emit({ type: 'authRejected', message: end.message });
          if (end.reason === 'signerKeyMissing') this.#run.emit({ type: 'signerKeyMissing', message: end.message });
          this.#run.requestStop({ reason: end.reason, message: end.message, hard: end.hard });
          if (end.record === undefined) this.#run.tally.add('notAttempted');
          else await this.count(item, 'failed', end.record);
          return;
      }
    } catch (error) {
      // The journal or the report could not be written (disk full, file removed): nothing more may be sent.
      this.#run.outputFailed(error);
    }
  }

  count(item: ImportOperation | SyncItem, outcome: PushOutcome, line?: { code: string; reason: string }): Promise<void> | undefined {
    this.#run.tally.add(outcome);
    if (line === undefined) return undefined;
    return this.reportLine(item, line, { note: outcome !== 'failed' });
  }

  /** A line of the report; a note (the default: a step's remark) is about a record that was not refused. */
  reportLine(
    item: ImportOperation | SyncItem,
    line: { code: string; reason: string },
    { note }: { note: boolean } = { note: true },
  ): Promise<void> | undefined {
    return this.#run.report?.write({ ...coreReportLine(item, line), ...(note ? { note: true as const } : {}) });
  }
}
