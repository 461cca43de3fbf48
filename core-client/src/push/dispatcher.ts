import type { CallOptions } from '../http/core-client.js';
import { isCoreError, RecordRejected, Transient } from '../http/errors.js';
import { failureKind, retryDelayMs, usesAnAttempt, type RetryPolicy } from '../http/retry.js';
import type { AnswerKind, ConcurrencyController, RequestTicket } from './concurrency.js';
import type { SendTrace } from './user-steps.js';
import { mayHaveReachedCore } from './lost-answer.js';

export { failureKind, type FailureKind } from '../http/retry.js';

/** Thrown to an operation waiting for its turn when the run stops: it was not sent (again). */
export class StoppedWaiting extends Error {
  constructor(readonly lastError: unknown) {
    super('The push stopped before this request could be sent.');
    this.name = 'StoppedWaiting';
  }
}

export interface DispatcherOptions {
  controller: ConcurrencyController;
  policy: RetryPolicy;
  /** Passed to every call (the signal that abandons requests in flight). */
  callOptions: CallOptions;
  /** Aborted when the run stops: waits end at once, and no request is sent any more. */
  stopping: AbortSignal;
  random: () => number;
  /** Milliseconds, monotonic. */
  now?: () => number;
  onPushBack?: (error: Transient, limit: number) => void;
  /** Something an operation may be waiting for changed (a request ended, the limit moved, an operation went to sleep). */
  onChange?: () => void;
}

/**
 * Every request of a push goes through here: it waits for its turn under the controller's limit (and any Retry-After),
 * tells the controller how it ended, and sends again what may be sent again.
 *
 * An operation's attempts (`maxAttempts` of the policy) are used up only by failures that may be its own: a server
 * error, or a lost answer while other requests got theirs. A push-back or a busy store never uses one, and neither does
 * a core that answers no one: those operations wait, and the run gives up only when the core has said nothing useful
 * for the give-up time (see `silentForMs`).
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #controller: ConcurrencyController;
  readonly #now: () => number;
  #inFlight = 0;
  #sleeping = 0;
  #waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #holdTimer: NodeJS.Timeout | undefined;
  #lastUsefulAt = Number.NEGATIVE_INFINITY;
  #silentSince: number | undefined;
  #lastFailure: string | undefined;
  #retries = 0;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#controller = options.controller;
    this.#now = options.now ?? (() => performance.now());
    options.stopping.addEventListener('abort', () => this.#rejectWaiters(), { once: true });
  }

  get limit(): number {
    return this.#controller.limit;
  }

  get holdUntil(): number {
    return this.#controller.holdUntil;
  }

  /** Requests sent and not answered yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Operations waiting before sending again after anything but a lost lock: they hold no request, so others may start meanwhile. */
  get sleeping(): number {
    return this.#sleeping;
  }

  /**
   * Whether one more operation may start, given how many are under way: as many as the limit are busy at once, and up
   * to as many more may wait to send again (memory stays bounded however long the core pushes back).
   */
  mayStartOperation(underWay: number): boolean {
    const limit = this.#controller.limit;
    return underWay - this.#sleeping < limit && underWay < 2 * limit && this.#controller.holdUntil <= this.#now();
  }

  /** How long the core has answered nothing useful while requests were being made (0 when it just did). */
  silentForMs(now = this.#now()): number {
    return this.#silentSince === undefined ? 0 : now - this.#silentSince;
  }

  /** Requests sent again after an answer that was not final (a push-back, a busy store, a server error, a lost answer). */
  get retries(): number {
    return this.#retries;
  }

  /** The sentence of the latest failure, for the message that gives up. */
  get lastFailure(): string | undefined {
    return this.#lastFailure;
  }

  /**
   * One request with the push's retries. Resolves to its answer, or rejects with the error that ended it (tagged with
   * the number of attempts in `attemptsOf`), or with `StoppedWaiting` when the run stopped before it could be sent.
   * An answer for which `advanced` says false (it took its user no further) is a wasted one for the controller.
   */
  async send<T>(call: (options: CallOptions) => Promise<T>, trace?: SendTrace, advanced?: (answer: T) => boolean): Promise<T> {
    const { policy, random } = this.#options;
    let attempts = 0;
    let counted = 0;
    let failuresInARow = 0;
    let lastError: unknown;
    for (;;) {
      await this.#turn(lastError);
      if (attempts > 0) this.#retries += 1;
      attempts += 1;
      const ticket = this.#controller.onSend(this.#inFlight, this.#now());
      let error: unknown;
      try {
        const answer = await call(this.#options.callOptions);
        this.#ended(ticket, advanced === undefined || advanced(answer) ? 'useful' : 'wasted', true);
        return answer;
      } catch (caught) {
        error = caught;
      }
      if (!(error instanceof Transient)) {
        // A definite answer (a refusal, a broken body) ends the operation; the core did answer.
        const answered = isCoreError(error);
        // Only a refused record proves the core is working; a broken answer says nothing of that.
        this.#ended(ticket, answered ? 'useful' : 'wasted', error instanceof RecordRejected);
        throw tagAttempts(error, attempts);
      }
      const kind = failureKind(error);
      if (trace !== undefined && mayHaveReachedCore(error) && !(kind === 'contention' && trace.lockConflictWritesNothing === true))
        trace.mayHaveReachedCore = true;
      const silentSinceSent = this.#lastUsefulAt < ticket.sentAt;
      this.#lastFailure = error.message;
      this.#ended(ticket, kind === 'pushBack' ? 'pushBack' : 'wasted', false, error.retryAfterMs);
      if (kind === 'pushBack') this.#options.onPushBack?.(error, this.#controller.limit);
      // A lost answer while nobody got one is the core's silence, which the give-up time bounds, not the request's fault.
      if (usesAnAttempt(kind) && !(kind === 'unreachable' && silentSinceSent)) counted += 1;
      if (counted >= policy.maxAttempts || this.#options.stopping.aborted) throw tagAttempts(error, attempts);
      failuresInARow += 1;
      lastError = error;
      // A Retry-After holds every request (the controller's hold); other failures wait their own backoff.
      const delayMs = error.retryAfterMs !== undefined ? 0 : retryDelayMs(policy, kind, failuresInARow, undefined, random);
      // A lost lock is the store saying it has too many writers: the loser keeps its place while it waits, so the
      // push backs off (a real in-memory core answered as many phone users a second or more, at less CPU a user:
      // docs/performance.md).
      await this.#sleep(delayMs, error, kind === 'contention');
    }
  }

  /** Waits until a request may leave (under the limit, past any hold) and takes its place. */
  #turn(lastError: unknown): Promise<void> | undefined {
    if (this.#options.stopping.aborted) return Promise.reject(new StoppedWaiting(lastError));
    if (this.#waiters.length === 0 && this.#grantable()) {
      this.#inFlight += 1;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject: () => reject(new StoppedWaiting(lastError)) });
      this.#wake();
    });
  }

  #grantable(): boolean {
    return this.#inFlight < this.#controller.limit && this.#controller.holdUntil <= this.#now();
  }

  #wake(): void {
    while (this.#waiters.length > 0 && this.#grantable()) {
      this.#inFlight += 1;
      this.#waiters.shift()?.resolve();
    }
    const holdMs = this.#controller.holdUntil - this.#now();
    if (this.#waiters.length > 0 && holdMs > 0 && this.#holdTimer === undefined) {
      this.#holdTimer = setTimeout(() => {
        this.#holdTimer = undefined;
        this.#wake();
        this.#options.onChange?.();
      }, holdMs + 1);
    }
  }

  #ended(ticket: RequestTicket, kind: AnswerKind, useful: boolean, retryAfterMs?: number): void {
    const now = this.#now();
    this.#inFlight -= 1;
    if (useful) {
      this.#lastUsefulAt = now;
      this.#silentSince = undefined;
    } else {
      this.#silentSince ??= now;
    }
    this.#controller.onAnswer(ticket, now, kind, retryAfterMs);
    this.#wake();
    this.#options.onChange?.();
  }

  async #sleep(ms: number, lastError: unknown, keepsItsPlace: boolean): Promise<void> {
    if (ms <= 0) return;
    const counted = keepsItsPlace ? 0 : 1;
    this.#sleeping += counted;
    this.#options.onChange?.();
    try {
      await abortableSleep(ms, this.#options.stopping);
    } catch {
      throw new StoppedWaiting(lastError);
    } finally {
      this.#sleeping -= counted;
    }
  }

  #rejectWaiters(): void {
    clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(undefined);
  }
}

const attemptCounts = new WeakMap<object, number>();

function tagAttempts(error: unknown, attempts: number): unknown {
  if (typeof error === 'object' && error !== null) attemptCounts.set(error, attempts);
  return error;
}

/** How many attempts the request that ended with this error took (1 when unknown). */
export function attemptsOf(error: unknown): number {
  return typeof error === 'object' && error !== null ? (attemptCounts.get(error) ?? 1) : 1;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
