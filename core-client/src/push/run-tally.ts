import { addOutcome, emptyCounts, emptyStepCounts, type PushCounts, type PushOutcome, type StepCounts } from '../summary/push-summary.js';
import type { PushEvent } from './events.js';

/** What a run counted: the outcomes, the identity steps, and the pace of the answers (for progress and its ETA). */
export class RunTally {
  readonly counts: PushCounts = emptyCounts();
  readonly steps: StepCounts = emptyStepCounts();
  readonly #startedAt = performance.now();
  #sentAndAnswered = 0;
  #firstSendAt: number | undefined;

  add(outcome: PushOutcome): void {
    addOutcome(this.counts, outcome);
  }

  /** The first request of the run leaves: the rate counts from here. */
  sending(): void {
    this.#firstSendAt ??= performance.now();
  }

  /** The core answered an operation (done or refused). */
  answered(): void {
    this.#sentAndAnswered += 1;
  }

  get elapsedMs(): number {
    return performance.now() - this.#startedAt;
  }

  progress(run: { total: number | undefined; dryRun: boolean; concurrency: number; inFlight: number }): PushEvent {
    // Operations that ended; after a stop the ones never sent are not "done" (a dry run's would-be-sent are).
    const done = this.counts.total - (run.dryRun ? 0 : this.counts.notAttempted);
    const sendingFor = this.#firstSendAt === undefined ? 0 : (performance.now() - this.#firstSendAt) / 1000;
    const ratePerSecond = sendingFor > 0 ? this.#sentAndAnswered / sendingFor : 0;
    const remaining = run.total === undefined ? undefined : Math.max(0, run.total - done);
    return {
      type: 'progress',
      done,
      total: run.total,
      ratePerSecond,
      etaSeconds: remaining === undefined || ratePerSecond <= 0 ? undefined : remaining / ratePerSecond,
      counts: { ...this.counts },
      concurrency: run.concurrency,
      inFlight: run.inFlight,
    };
  }
}
