import { ConcurrencyController, type AnswerKind, type ConcurrencyLimits, type ControllerTuning } from '../../../core-client/src/push/concurrency.js';
import { type ContentionSettings, lockLossRate, writeTurnMs } from '../../core-double/contention.js';
import { seededRandom } from '../../support/seeded-random.js';

/**
 * A core as a model, on a fake clock: the controller's decisions are tested against it without a server or a timer.
 * `lockingStore`: the double's store that locks (contention.ts: a write that loses the lock is answered at once, or
 * after its turn in the store with `lostWriteTakesTurn`; the others take turns in the store, slower as it fills); `capacity`: requests served at once (others queue); `pushBackAbove`: in-flight
 * count above which it answers 429.
 */
export interface CoreModel {
  latencyMs: number;
  lockingStore?: ContentionSettings;
  capacity?: number;
  pushBackAbove?: number;
  /**
   * A machine shared with other work: every `periodMs` the core's whole speed (latency and store alike) changes to a
   * factor drawn between e^-spread and e^spread (the readings of one level on a real core differ by up to ×2).
   */
  noise?: { periodMs: number; spread: number };
  /** Users the locking store holds before the push (it slows as it fills). */
  usersHeld?: number;
}

export interface SimulationResult {
  /** Useful answers per simulated second. */
  rate: number;
  /** The limit averaged over simulated time. */
  meanLimit: number;
  finalLimit: number;
  /** Each limit the controller set, in order (consecutive repeats dropped). */
  limits: number[];
  controller: ConcurrencyController;
}

/** A binary heap of timed events. */
class Events {
  readonly #heap: { at: number; order: number; run: () => void }[] = [];
  #order = 0;

  get size(): number {
    return this.#heap.length;
  }

  add(at: number, run: () => void): void {
    const heap = this.#heap;
    heap.push({ at, order: this.#order++, run });
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  take(): { at: number; run: () => void } {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
        index = smallest;
      }
    }
    return top;
  }
}

function before(a: { at: number; order: number }, b: { at: number; order: number }): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}

/**
 * Runs a push of endless operations against `model` until `usefulAnswers` came back (or a minute of simulated time
 * passed). A wasted answer is sent again after a short random wait, as the engine does for a busy store.
 */
export function simulatePush(
  model: CoreModel,
  limits: ConcurrencyLimits,
  usefulAnswers: number,
  seed = 1,
  tuning: Partial<ControllerTuning> = {},
): SimulationResult {
  const random = seededRandom(seed);
  const controller = new ConcurrencyController(limits, tuning);
  const events = new Events();
  let now = 0;
  let inFlight = 0;
  let atCore = 0;
  let serving = 0;
  let storeFreeAt = 0;
  const queue: (() => void)[] = [];
  let useful = 0;
  let limitTime = 0;
  const limitsSeen: number[] = [controller.limit];
  const retries: number[] = [];

  const slowdowns: number[] = [];
  const slowdown = (): number => {
    const { noise } = model;
    if (noise === undefined) return 1;
    const period = Math.floor(now / noise.periodMs);
    while (slowdowns.length <= period) slowdowns.push(Math.exp(noise.spread * (2 * random() - 1)));
    return slowdowns[period]!;
  };
  const jittered = (): number => model.latencyMs * (0.9 + 0.2 * random()) * slowdown();
  const storeTurn = (store: ContentionSettings): number => {
    storeFreeAt = Math.max(now, storeFreeAt) + writeTurnMs(store, (model.usersHeld ?? 0) + useful) * slowdown();
    return storeFreeAt;
  };
  const answer = (done: (kind: AnswerKind) => void): void => {
    atCore += 1;
    const k = atCore;
    if (model.pushBackAbove !== undefined && k > model.pushBackAbove) {
      events.add(now + 1, () => {
        atCore -= 1;
        done('pushBack');
      });
      return;
    }
    const store = model.lockingStore;
    if (store !== undefined && random() < lockLossRate(store, k, (model.usersHeld ?? 0) + useful)) {
      events.add(store.lostWriteTakesTurn === true ? storeTurn(store) + jittered() : now + 0.2, () => {
        atCore -= 1;
        done('wasted');
      });
      return;
    }
    const serve = (): void => {
      serving += 1;
      let at = now;
      if (store !== undefined) at = storeTurn(store);
      events.add(at + jittered(), () => {
        serving -= 1;
        atCore -= 1;
        queue.shift()?.();
        done('useful');
      });
    };
    if (model.capacity === undefined || serving < model.capacity) serve();
    else queue.push(serve);
  };
  const send = (failures: number): void => {
    inFlight += 1;
    const ticket = controller.onSend(inFlight, now);
    answer((kind) => {
      inFlight -= 1;
      controller.onAnswer(ticket, now, kind);
      if (kind === 'useful') useful += 1;
      else events.add(now + random() * Math.min(1_000, 10 * 2 ** failures), () => retries.push(failures + 1));
      fill();
    });
  };
  const fill = (): void => {
    while (inFlight < controller.limit && now >= controller.holdUntil) {
      const failures = retries.shift();
      send(failures ?? 0);
    }
  };
  fill();
  while (useful < usefulAnswers && events.size > 0 && now < 60_000) {
    const event = events.take();
    limitTime += controller.limit * (event.at - now);
    now = event.at;
    event.run();
    fill();
    if (limitsSeen.at(-1) !== controller.limit) limitsSeen.push(controller.limit);
    if (events.size === 0 && inFlight === 0) events.add(Math.max(now, controller.holdUntil), () => undefined);
  }
  return { rate: useful / (now / 1_000), meanLimit: limitTime / now, finalLimit: controller.limit, limits: limitsSeen, controller };
}
