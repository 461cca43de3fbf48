import { type ContentionSettings, SerialStore, lockLossRate, readDelayMs, writeTurnMs } from './contention.js';

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

/**
 * A core that serves at most `size` requests at once: the others wait their turn (first come, first served) before
 * the core acts on them, so beyond `size` in flight throughput stays flat and each answer takes longer.
 */
export class CapacityGate {
  readonly size: number;
  #serving = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`The capacity must be a whole number from 1, not ${size}.`);
    this.size = size;
  }

  /** Resolves once this request is being served; call the returned function when its answer is out. */
  async enter(): Promise<() => void> {
    if (this.#serving >= this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#serving += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#serving -= 1;
      else next();
    };
  }
}

/** Fault injection for the double: which requests fail, stall, or arrive slowly. */
export class FaultPlan {
  #latencyMs = 0;
  #contention: ContentionSettings | undefined;
  readonly #store = new SerialStore();
  #capacity: CapacityGate | undefined;
  #storm: { until: number; answer: FaultAnswer } | undefined;
  #poison: { text: string; answer: FaultAnswer } | undefined;
  readonly #random: () => number;
  #consumesToLose = 0;

  /** `random` in [0, 1): who loses a lock conflict (seeded in tests that need the same losers each run). */
  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /** A store that locks (contention.ts): some writes fail with the locked-table 500, the others take turns. */
  setContention(settings: ContentionSettings | undefined): void {
    this.#contention = settings;
  }

  get contention(): ContentionSettings | undefined {
    return this.#contention;
  }

  /**
   * Whether this write, arriving with `inFlight` requests in flight (itself included) at a store holding `usersHeld`
   * users, loses a lock conflict.
   */
  losesLock(inFlight: number, usersHeld: number): boolean {
    return this.#contention !== undefined && this.#random() < lockLossRate(this.#contention, inFlight, usersHeld);
  }

  /**
   * A write waits its turn in the store, which does one write at a time (under contention), longer the more users it
   * holds (`slowerEveryUsers`).
   */
  async storeTurn(usersHeld: number): Promise<void> {
    if (this.#contention !== undefined) await this.#store.write(writeTurnMs(this.#contention, usersHeld));
  }

  /** How much longer a read takes on a store that holds `usersHeld` users (under contention). */
  readDelayMs(usersHeld: number): number {
    return this.#contention === undefined ? 0 : readDelayMs(this.#contention, usersHeld);
  }

  /** Whether a passwordless consume that lost the lock had used its code up before (`lostConsumeUsedCode`). */
  lostConsumeUsedCode(): boolean {
    return this.#contention?.lostConsumeUsedCode !== undefined && this.#random() < this.#contention.lostConsumeUsedCode;
  }

  /**
   * The next `count` passwordless consumes of a code that is there use it up, then lose the store's lock (the
   * locked-table 500), as a real in-memory core's consume can: its retry finds the code used and no user made.
   */
  loseConsumesAfterUse(count: number): void {
    this.#consumesToLose += count;
  }

  get consumesToLose(): number {
    return this.#consumesToLose;
  }

  /** Whether this consume is one `loseConsumesAfterUse` asked for; counts it. */
  takeLostConsume(): boolean {
    if (this.#consumesToLose === 0) return false;
    this.#consumesToLose -= 1;
    return true;
  }

  /** Whether a write that lost the lock takes its turn in the store before it fails (the real store) or fails at once. */
  get lostWriteTakesTurn(): boolean {
    return this.#contention?.lostWriteTakesTurn === true;
  }

  /** At most `size` requests served at once (undefined: no limit). Requests already waiting are still served. */
  setCapacity(size: number | undefined): void {
    this.#capacity = size === undefined ? undefined : new CapacityGate(size);
  }

  get capacity(): CapacityGate | undefined {
    return this.#capacity;
  }

  /** Every request whose body contains `text` gets `answer`, always (a record the core chokes on). */
  failBodiesContaining(text: string, answer: FaultAnswer): void {
    this.#poison = { text, answer };
  }

  /** The answer for a body the core chokes on, if this is one. */
  poisonAnswer(rawBody: string): FaultAnswer | undefined {
    return this.#poison !== undefined && rawBody.includes(this.#poison.text) ? { ...this.#poison.answer } : undefined;
  }

  /** Every request that arrives in the next `ms` gets `answer` (a rate-limit storm, an outage of 503s). */
  failFor(ms: number, answer: FaultAnswer): void {
    this.#storm = { until: performance.now() + ms, answer };
  }

  /** The storm's answer, while it lasts. */
  stormAnswer(): FaultAnswer | undefined {
    if (this.#storm === undefined) return undefined;
    if (performance.now() < this.#storm.until) return { ...this.#storm.answer };
    this.#storm = undefined;
    return undefined;
  }
  readonly #queue: Fault[] = [];
  readonly #byRequestNumber = new Map<number, Fault>();
  #slowBodies: { ms: number; method?: string; path?: string }[] = [];
  /** Requests whose path starts with this are held, unanswered and not acted on, until released. */
  #holdPrefix: string | undefined;
  #holdMethod: string | undefined;
  #holdBody: string | undefined;
  readonly #held: (() => void)[] = [];

  /**
   * Holds every request (of `method`, when given; whose body contains `bodyContains`, when given) whose path contains
   * `path`: it is neither acted on nor answered until `releaseHeld`, so a test can kill a client between two steps of
   * a user (`bodyContains` lets the pre-flight's probes, which send an empty body, through).
   */
  holdPath(path: string, method?: string, bodyContains?: string): void {
    this.#holdPrefix = path;
    this.#holdMethod = method;
    this.#holdBody = bodyContains;
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
  async passHold(method: string, path: string, rawBody = ''): Promise<void> {
    if (this.#holdPrefix === undefined || !path.includes(this.#holdPrefix)) return;
    if (this.#holdMethod !== undefined && this.#holdMethod !== method) return;
    if (this.#holdBody !== undefined && !rawBody.includes(this.#holdBody)) return;
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
  slowBodyNext(count: number, ms: number, method?: string, path?: string): void {
    for (let i = 0; i < count; i += 1) this.#slowBodies.push({ ms, ...(method === undefined ? {} : { method }), ...(path === undefined ? {} : { path }) });
  }

  clearFaults(): void {
    this.releaseHeld();
    this.#latencyMs = 0;
    this.#contention = undefined;
    this.#store.clear();
    this.#capacity = undefined;
    this.#storm = undefined;
    this.#poison = undefined;
    this.#queue.length = 0;
    this.#byRequestNumber.clear();
    this.#slowBodies = [];
    this.#consumesToLose = 0;
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
  takeSlowBody(method: string, path: string): number | undefined {
    const next = this.#slowBodies[0];
    if (next === undefined || (next.method !== undefined && next.method !== method)) return undefined;
    if (next.path !== undefined && !path.endsWith(next.path)) return undefined;
    this.#slowBodies.shift();
    return next.ms;
  }
}
