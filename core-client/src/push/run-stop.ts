import type { StopReason } from '../summary/push-summary.js';

export interface StopState {
  reason: StopReason;
  message: string;
  /** Requests in flight are abandoned at once, not given the grace time. */
  hard: boolean;
}

/**
 * How a run stops: the first stop asked for is kept (a hard one replaces a soft one), new work ends at once, and the
 * requests in flight get the grace time before they are abandoned (not journalled, so a resume sends them again).
 */
export class RunStop {
  /** Aborted on any stop: cancels retry waits. */
  readonly stopping = new AbortController();
  /** Aborted on a hard stop, or once the grace time is over: cancels requests in flight. */
  readonly abandon = new AbortController();
  #stop: StopState | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  readonly #graceMs: number;
  readonly #onStop: (stop: StopState) => void;

  constructor(graceMs: number, onStop: (stop: StopState) => void) {
    this.#graceMs = graceMs;
    this.#onStop = onStop;
  }

  /** The stop the run ends with, once one was asked for. */
  get state(): StopState | undefined {
    return this.#stop;
  }

  request(stop: StopState): void {
    const current = this.#stop;
    if (current === undefined || (stop.hard && !current.hard)) {
      this.#stop = stop;
      this.#onStop(stop);
    }
    this.stopping.abort();
    if (stop.hard) this.abandon.abort();
    else this.#graceTimer ??= setTimeout(() => this.abandon.abort(), this.#graceMs).unref();
  }

  /** Resolves once a stop is asked for. */
  stopped(): Promise<void> {
    const signal = this.stopping.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** The run ended: no grace timer outlives it. */
  ended(): void {
    clearTimeout(this.#graceTimer);
  }
}
