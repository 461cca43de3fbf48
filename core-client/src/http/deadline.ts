/**
 * Deadlines of the requests in flight, checked by one coarse timer instead of one timer (and one AbortController)
 * per request: at tens of thousands of requests a second, those showed as a quarter of the client's time. A
 * deadline fires at most one tick late.
 */
export class DeadlineWatch {
  readonly #tickMs: number;
  readonly #entries = new Set<{ at: number; expire: () => void }>();
  #timer: NodeJS.Timeout | undefined;

  /** `tickMs`: how often deadlines are looked at; a quarter of the shortest deadline keeps them close. */
  constructor(tickMs: number) {
    this.#tickMs = tickMs;
  }

  /** Calls `expire` once `at` (performance.now() time) has passed, unless the returned function is called first. */
  watch(at: number, expire: () => void): () => void {
    const entry = { at, expire };
    this.#entries.add(entry);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.#tickMs);
      // Deadlines must not keep a process alive on their own.
      this.#timer.unref();
    }
    return () => {
      this.#entries.delete(entry);
      if (this.#entries.size === 0) this.#stop();
    };
  }

  #tick(): void {
    const now = performance.now();
    for (const entry of this.#entries) {
      if (entry.at > now) continue;
      this.#entries.delete(entry);
      entry.expire();
    }
    if (this.#entries.size === 0) this.#stop();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
