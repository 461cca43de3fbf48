/** A canned answer instead of the real one. Errors default to the core's plain-text type, 200s to JSON. */
export interface FaultAnswer {
  status: number;
  retryAfterSeconds?: number;
  /** A raw Retry-After value, e.g. an HTTP-date. */
  retryAfter?: string;
  body?: string;
  contentType?: string;
}

/** Either a canned answer or a socket destroyed without answering. */
export type Fault = FaultAnswer | { drop: true };

export function isDrop(fault: Fault): fault is { drop: true } {
  return 'drop' in fault;
}

/** Fault injection for the double: which requests fail, stall, or arrive slowly. */
export class FaultPlan {
  #latencyMs = 0;
  readonly #queue: Fault[] = [];
  readonly #byRequestNumber = new Map<number, Fault>();
  #slowBodies: { ms: number; method?: string }[] = [];
  /** Requests whose path starts with this are held, unanswered and not acted on, until released. */
  #holdPrefix: string | undefined;
  #holdMethod: string | undefined;
  readonly #held: (() => void)[] = [];

  /**
   * Holds every request (of `method`, when given) whose path contains `path`: it is
   * neither acted on nor answered until `releaseHeld`, so a test can kill a client between two steps of a user.
   */
  holdPath(path: string, method?: string): void {
    this.#holdPrefix = path;
    this.#holdMethod = method;
  }

  /** How many requests are held now. */
  get heldCount(): number {
    return this.#held.length;
  }

  /** Stops holding and lets the held requests go on (those whose client is gone are dropped by the server). */
  releaseHeld(): void {
    this.#holdPrefix = undefined;
    for (const release of this.#held.splice(0)) release();
  }

  /** Resolves at once, or when released if this path is held. */
  async passHold(method: string, path: string): Promise<void> {
    if (this.#holdPrefix === undefined || !path.includes(this.#holdPrefix)) return;
    if (this.#holdMethod !== undefined && this.#holdMethod !== method) return;
    await new Promise<void>((resolve) => this.#held.push(resolve));
  }

  /** Delay before every answer. */
  setLatencyMs(ms: number): void {
    this.#latencyMs = ms;
  }

  get latencyMs(): number {
    return this.#latencyMs;
  }

  /** The next `count` requests get this answer (queued after any faults already waiting). */
  failNext(count: number, answer: FaultAnswer): void {
    for (let i = 0; i < count; i += 1) this.#queue.push({ ...answer });
  }

  /** The next `count` requests have their connection destroyed without an answer. */
  dropNext(count: number): void {
    for (let i = 0; i < count; i += 1) this.#queue.push({ drop: true });
  }

  /** Request number `requestNumber` (1-based, counted since start or reset) gets this fault. */
  failRequestNumber(requestNumber: number, fault: Fault): void {
    this.#byRequestNumber.set(requestNumber, fault);
  }

  /**
   * The next `count` answers (to requests of `method` only, when given: a write after a lookup) send their headers at
   * once and their body only after `ms`.
   */
  slowBodyNext(count: number, ms: number, method?: string): void {
    for (let i = 0; i < count; i += 1) this.#slowBodies.push({ ms, ...(method === undefined ? {} : { method }) });
  }

  clearFaults(): void {
    this.releaseHeld();
    this.#latencyMs = 0;
    this.#queue.length = 0;
    this.#byRequestNumber.clear();
    this.#slowBodies = [];
  }

  /** The fault for this request, if any; consumes it. */
  takeFault(requestNumber: number): Fault | undefined {
    const numbered = this.#byRequestNumber.get(requestNumber);
    if (numbered !== undefined) {
      this.#byRequestNumber.delete(requestNumber);
      return numbered;
    }
    return this.#queue.shift();
  }

  /** How long to hold back the body of this answer, if at all; consumes it. */
  takeSlowBody(method: string): number | undefined {
    const next = this.#slowBodies[0];
    if (next === undefined || (next.method !== undefined && next.method !== method)) return undefined;
    this.#slowBodies.shift();
    return next.ms;
  }
}
