import type { Dispatcher } from './dispatcher.js';
import { SOURCE_CHECK_INTERVAL_MS } from './run-options.js';
import type { RunSlots } from './run-slots.js';
import type { RunStop, StopState } from './run-stop.js';

/** What the watchdogs of a run look at, and how they stop it. */
export interface WatchedRun {
  /** Says how the export changed since it was planned; undefined while it has not. */
  sourceCheck: (() => Promise<string | undefined>) | undefined;
  dispatcher: Dispatcher;
  slots: RunSlots;
  stop: RunStop;
  giveUpAfterMs: number;
  progressIntervalMs: number;
  emitProgress(): void;
  requestStop(stop: StopState): void;
}

/** The timers beside a run's loop: its progress, an export that changes under it, a core that went silent. */
export class RunWatchdogs {
  readonly #run: WatchedRun;
  #progress: NodeJS.Timeout | undefined;
  #sourceWatch: NodeJS.Timeout | undefined;

  constructor(run: WatchedRun) {
    this.#run = run;
  }

  start(): void {
    this.#progress = setInterval(() => this.#run.emitProgress(), this.#run.progressIntervalMs);
    this.#progress.unref();
    this.#sourceWatch = setInterval(() => {
      void this.checkSource();
      this.#checkSilence();
    }, SOURCE_CHECK_INTERVAL_MS);
    this.#sourceWatch.unref();
  }

  /** The run's loop ended: no timer outlives it. */
  end(): void {
    clearInterval(this.#progress);
    clearInterval(this.#sourceWatch);
  }

  /** True when the source changed (and the run is stopping for it). */
  async checkSource(): Promise<boolean> {
    if (this.#run.stop.state?.reason === 'sourceChanged') return true;
    const change = await this.#run
      .sourceCheck?.()
      .catch((error: unknown) => `The export could not be checked: ${error instanceof Error ? error.message : String(error)}`);
    if (change === undefined) return false;
    this.#run.requestStop({
      reason: 'sourceChanged',
      message: `${change} What was read after the change may not be what was planned, so the push stopped. Push again once the export is final (the journal skips what is done).`,
      hard: false,
    });
    return true;
  }

  /** Gives up on a core that has answered nothing useful for the give-up time while operations wait for it. */
  #checkSilence(): void {
    const { dispatcher, stop, slots, giveUpAfterMs } = this.#run;
    const silentMs = dispatcher.silentForMs();
    if (stop.state !== undefined || slots.inFlight === 0 || silentMs < giveUpAfterMs) return;
    const last = dispatcher.lastFailure;
    this.#run.requestStop({
      reason: 'coreUnreachable',
      message:
        `The core answered nothing useful for ${Math.round(silentMs / 1000)} s${last === undefined ? '' : ` (the last answer: ${last})`}: it seems down ` +
        'or overloaded. Check it, then resume (the journal skips what is done); a longer wait can be set with the give-up time.',
      hard: false,
    });
  }
}
