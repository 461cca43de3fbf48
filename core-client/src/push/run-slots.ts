import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeNotifier, PushControl } from './control.js';
import type { Dispatcher } from './dispatcher.js';
import type { RunStop } from './run-stop.js';

/**
 * The operations under way (from their first request to their end, retries and waits included) and when one more
 * may start: not while the run stops or is paused, not before the core's hold is over, not above the level the
 * concurrency controller allows.
 */
export class RunSlots {
  #inFlight = 0;
  readonly #changes: ChangeNotifier;
  readonly #stop: RunStop;
  readonly #dispatcher: Dispatcher;
  readonly #control: PushControl | undefined;

  constructor(parts: { changes: ChangeNotifier; stop: RunStop; dispatcher: Dispatcher; control: PushControl | undefined }) {
    this.#changes = parts.changes;
    this.#stop = parts.stop;
    this.#dispatcher = parts.dispatcher;
    this.#control = parts.control;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  take(): void {
    this.#inFlight += 1;
  }

  release(): void {
    this.#inFlight -= 1;
    this.#changes.notify();
  }

  free(): boolean {
    return this.#stop.state === undefined && this.#control?.paused !== true && this.#dispatcher.mayStartOperation(this.#inFlight);
  }

  /** Until nothing is under way. */
  async drain(): Promise<void> {
    while (this.#inFlight > 0) await this.#changes.changed();
  }

  /** Waits until one more request may start; false when the run is stopping. */
  async waitForOne(): Promise<boolean> {
    for (;;) {
      if (this.#stop.state !== undefined) return false;
      if (this.#control?.paused === true) {
        await this.#changes.changed();
        continue;
      }
      const holdMs = this.#dispatcher.holdUntil - performance.now();
      if (holdMs > 0) {
        await this.#sleepUnlessStopped(holdMs);
        continue;
      }
      if (this.#dispatcher.mayStartOperation(this.#inFlight)) return true;
      await this.#changes.changed();
    }
  }

  async #sleepUnlessStopped(ms: number): Promise<void> {
    const cancel = new AbortController();
    await Promise.race([sleep(ms, undefined, { signal: cancel.signal }).catch(() => undefined), this.#stop.stopped()]);
    cancel.abort();
  }
}
