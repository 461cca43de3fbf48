import { z } from 'zod';
import { optional, optionalFrom } from '../optional.js';

export const ConcurrencyLimitsSchema = z
  .object({
    initial: z.number().int().positive(),
    min: z.number().int().positive(),
    max: z.number().int().positive(),
  })
  .refine((limits) => limits.min <= limits.initial && limits.initial <= limits.max, {
    message: 'concurrency limits must satisfy min <= initial <= max',
  });
export type ConcurrencyLimits = z.infer<typeof ConcurrencyLimitsSchema>;

/**
 * Where the search starts and how far it may go. It starts at 4, the best level of a real in-memory core (the
 * store that locks, docs/performance.md): the start-up only doubles, and the steady search moves a quarter per probe
 * on readings noisier than that, so a search started above a core's best level stays above it (issue 29). A core
 * that keeps up is at 64 after four doublings of a few dozen answers. 64 is past the point where any core seen so
 * far still gained (a PostgreSQL-backed core stops gaining at 8-16). `--concurrency N` replaces the ceiling.
 */
export const defaultConcurrencyLimits: ConcurrencyLimits = { initial: 4, min: 1, max: 64 };

/** The limits `--concurrency N` stands for: start at N (a deliberate choice), never exceed it, still back off. */
export function concurrencyLimitsFor(requested: number): ConcurrencyLimits {
  return { initial: requested, min: 1, max: requested };
}

/** Exactly N in flight, never adapted (the bench's fixed-concurrency sweep). */
export function fixedConcurrency(requested: number): ConcurrencyLimits {
  return { initial: requested, min: requested, max: requested };
}

/**
 * What one request's answer tells the controller: `useful` took a user further (a 200, or a final refusal of the
 * record), `wasted` did not (a lock conflict, a server error or a lost connection, to be sent again; a passwordless
 * code found used up, to be made again), `pushBack` is the core asking to slow down (429, 503).
 */
export type AnswerKind = 'useful' | 'wasted' | 'pushBack';

/** Handed out when a request is sent and given back with its answer. */
export interface RequestTicket {
  readonly phase: number;
  readonly epoch: number;
  readonly sentAt: number;
  /** Requests in flight when it was sent, itself included. */
  readonly inFlight: number;
}

/** The knobs of the search; the defaults are what the bench was run with. */
export interface ControllerTuning {
  /** Answers per measurement while starting up (at least; also twice the level). */
  startupAnswers: number;
  /**
   * Milliseconds a start-up measurement spans at least (from its first counted answer). On a fast core its answers
   * come within a few dozen milliseconds, where one pause of the machine can decide the reading; on a real
   * PostgreSQL-backed core 150 ms did no better than none over nine pairs of pushes (620 against 605 users a second,
   * within the noise; docs/performance.md, issue 29's fourth pass), so by default the answers alone end it.
   */
  startupMinMs: number;
  /** Answers per measurement afterwards (at least; also three times the level). */
  steadyAnswers: number;
  /**
   * The push's first measurement only warms up: its level is measured again before the first doubling is judged. Its
   * answers come over new connections to a core whose code for them may not be compiled yet: on a real in-memory core
   * the same level's next measurement was faster in 4 of 6 pushes (by 12% in the median), which made the doubling look
   * as if it paid (docs/performance.md, issue 29's seventh pass).
   */
  startupWarmUp: boolean;
  /** While starting up, the level doubles as long as doubling it raised the useful answers by at least 2^this - 1. */
  startupElasticity: number;
  /** The probe goes this factor above the level (at least one request more). */
  probeFactor: number;
  /** The level settles where one more percent in flight still brings this many percent more useful answers. */
  targetElasticity: number;
  /** Largest change of the level per probe, as a factor; above the level where trouble began, `aboveCeilingStep`. */
  maxStep: number;
  aboveCeilingStep: number;
}

export const defaultControllerTuning: ControllerTuning = Object.freeze({
  startupAnswers: 16,
  startupMinMs: 0,
  startupWarmUp: true,
  steadyAnswers: 200,
  startupElasticity: 0.5,
  probeFactor: 1.25,
  targetElasticity: 0.03,
  maxStep: 1.25,
  aboveCeilingStep: 1.1,
});

/**
 * At the top of the limits, a probe below comes after this many measurements at first; each probe that finds the top
 * still paying doubles the wait (up to the second figure), one that does not brings it back.
 */
const PROBE_BELOW_MAX_AFTER = 4;
const PROBE_BELOW_MAX_AFTER_AT_MOST = 64;

/** A start-up measurement ends after its number of useful answers, or after this many times as many answers. */
const STARTUP_ANSWERS_AT_MOST = 4;
/** A start-up measurement that has this many times its answers ends even before its time (a clock that stands still). */
const STARTUP_ANSWERS_WITHOUT_TIME = 16;

/** One measurement at one level: the useful answers that came per millisecond, and how many were really in flight. */
interface Reading {
  level: number;
  inFlight: number;
  goodput: number;
}

interface Measurement {
  level: number;
  answers: number;
  useful: number;
  rttSum: number;
  inFlightSum: number;
  /** When the first answer of this level came; the useful answers counted after it, until `lastAt`. */
  firstAt?: number;
  lastAt: number;
  usefulAfterFirst: number;
}

/**
 * One measurement as the controller judged it (for a bench or a log, never for the push's output): the level, what was
 * really in flight, the useful answers per second, how many answers of each kind it was judged on, the elasticity
 * against the level it was compared with (undefined: nothing to compare), and the level it chose next.
 */
export interface ControllerReading {
  mode: 'startup' | 'steady';
  level: number;
  inFlight: number;
  usefulPerSecond: number;
  answers: number;
  useful: number;
  comparedWith?: number;
  elasticity?: number;
  next: number;
}

type Mode = { kind: 'fixed' } | { kind: 'startup'; cap: number; previous?: Reading; warmingUp?: boolean } | { kind: 'steady'; base?: Reading };

/**
 * How many requests may be in flight: a hill climb on useful answers per second, which is what a push is judged by.
 * Pure: the caller says when each request left and how it ended, and what time it is (a fake clock in tests).
 *
 * - It measures each level it tries over a number of answers, as the useful answers that came per unit of time
 *   (counted, see `readingOf`), never as a share of failures: a store that locks answers a lost write at once, so more
 *   in flight can mean more failures and still more users a second. Round trips that grow with the number in flight
 *   (a core at its capacity, a store that writes one at a time) lower this figure, so they need no rule of their own.
 * - Starting up, after a first measurement that only warms up, it doubles the level while doubling pays (about 40%
 *   more useful answers or better).
 * - Then it keeps probing a quarter above its level and moves by how much the probe gained: up while more in flight
 *   still brings a little more (an elasticity above `targetElasticity`: 10% more in flight, 0.3% more useful
 *   answers), down when it does not. So it settles just below the point where more in flight stops paying, and
 *   follows the core when that point moves. The share is small because a real PostgreSQL-backed core still gained
 *   a few percent from 8 to 16 in flight, where a target of 1% settled the push at 6 (docs/performance.md). At the
 *   top of the limits it probes below instead, now and then.
 * - A push-back (429, 503) halves the level at once, once per window (answers to requests sent before the cut are
 *   not counted again), remembers the level where the trouble began, climbs back to half of it quickly, and probes
 *   above it slowly. A Retry-After holds every new request until that time.
 */
export class ConcurrencyController {
  readonly #limits: ConcurrencyLimits;
  readonly #tuning: ControllerTuning;
  #level: number;
  /** The steady level as a real number, so that many small moves add up even at a level of 1 or 2. */
  #base: number;
  #mode: Mode;
  #phase = 0;
  #measurement: Measurement;
  #epoch = 0;
  #holdUntil = 0;
  #ceiling: number | undefined;
  /** Push-backs since the last complete measurement belong to one episode: the ceiling is where it began. */
  #inTrouble = false;
  /** Measurements at the top of the limits since the last probe below, and how many to wait for the next one. */
  #atMax = 0;
  #probeBelowMaxAfter = PROBE_BELOW_MAX_AFTER;
  readonly #onReading: ((reading: ControllerReading) => void) | undefined;

  constructor(limits: ConcurrencyLimits = defaultConcurrencyLimits, tuning: Partial<ControllerTuning> = {}, onReading?: (reading: ControllerReading) => void) {
    this.#onReading = onReading;
    this.#limits = ConcurrencyLimitsSchema.parse(limits);
    this.#tuning = { ...defaultControllerTuning, ...tuning };
    this.#level = this.#limits.initial;
    this.#base = this.#level;
    this.#mode = this.#limits.min === this.#limits.max ? { kind: 'fixed' } : { kind: 'startup', cap: this.#limits.max, warmingUp: this.#tuning.startupWarmUp };
    this.#measurement = this.#fresh(this.#level);
  }

  /** How many requests may be in flight now. */
  get limit(): number {
    return this.#level;
  }

  /** No new request should start before this time (ms, the clock given to `onSend` and `onAnswer`). */
  get holdUntil(): number {
    return this.#holdUntil;
  }

  /** The level where the last trouble began, if any; the search passes it only slowly. */
  get ceiling(): number | undefined {
    return this.#ceiling;
  }

  onSend(inFlight: number, now: number): RequestTicket {
    return { phase: this.#phase, epoch: this.#epoch, sentAt: now, inFlight };
  }

  onAnswer(ticket: RequestTicket, now: number, kind: AnswerKind, retryAfterMs?: number): void {
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.#holdUntil = Math.max(this.#holdUntil, now + retryAfterMs);
    if (kind === 'pushBack') {
      this.#pushBack(ticket);
      return;
    }
    if (this.#mode.kind === 'fixed' || ticket.phase !== this.#phase) return;
    const measurement = this.#measurement;
    measurement.answers += 1;
    if (kind === 'useful') measurement.useful += 1;
    // The first answers of a level come from the requests that left together when it began: the count starts once
    // they are in, after as many answers as the level (at most a third of the measurement).
    if (measurement.answers === Math.min(measurement.level, Math.floor(this.#answersFor(measurement.level) / 3))) measurement.firstAt = now;
    else if (measurement.firstAt !== undefined && kind === 'useful') measurement.usefulAfterFirst += 1;
    measurement.lastAt = now;
    measurement.rttSum += Math.max(0, now - ticket.sentAt);
    measurement.inFlightSum += ticket.inFlight;
    if (this.#measured(measurement)) this.#decide(readingOf(measurement), measurement);
  }

  /**
   * Whether a measurement has its answers. Starting up, where a level is judged on a few dozen answers, its useful
   * answers are counted: a lost write comes back fast, and on a real in-memory core holding 20,000 users half of the
   * answers at 8 in flight were lost writes, so counting every answer judged the doubling on a handful of users
   * (docs/performance.md). A core that wastes nearly everything still ends it, after four times as many answers.
   */
  #measured(measurement: Measurement): boolean {
    const wanted = this.#answersFor(measurement.level);
    if (this.#mode.kind !== 'startup') return measurement.answers >= wanted;
    const answered = measurement.useful >= wanted || measurement.answers >= STARTUP_ANSWERS_AT_MOST * wanted;
    const span = measurement.firstAt === undefined ? 0 : measurement.lastAt - measurement.firstAt;
    return answered && (span >= this.#tuning.startupMinMs || measurement.answers >= STARTUP_ANSWERS_WITHOUT_TIME * wanted);
  }

  #answersFor(level: number): number {
    const { startupAnswers, steadyAnswers } = this.#tuning;
    return this.#mode.kind === 'startup' ? Math.max(startupAnswers, 2 * level) : Math.max(steadyAnswers, 3 * level);
  }

  #pushBack(ticket: RequestTicket): void {
    if (this.#mode.kind === 'fixed' || ticket.epoch < this.#epoch) return;
    this.#epoch += 1;
    if (!this.#inTrouble) this.#ceiling = this.#level;
    this.#inTrouble = true;
    this.#base = Math.max(this.#limits.min, this.#level / 2);
    const ceiling = this.#ceiling ?? this.#level;
    // Far below the trouble (a storm of push-backs), climbing back by doubling is safe up to half of it.
    const cap = Math.max(this.#limits.min, Math.floor(ceiling / 2));
    this.#mode = this.#base < cap ? { kind: 'startup', cap } : { kind: 'steady' };
    this.#setLevel(this.#base);
  }

  #decide(reading: Reading, measurement: Measurement): void {
    this.#inTrouble = false;
    const mode = this.#mode;
    if (mode.kind === 'fixed') return;
    const compared = mode.kind === 'startup' ? mode.previous : mode.base;
    if (mode.kind === 'startup') this.#decideStartup(mode, reading);
    else this.#decideSteady(mode, reading);
    if (this.#onReading === undefined) return;
    const [low, high] = compared === undefined || compared.level < reading.level ? [compared, reading] : [reading, compared];
    const measured = low === undefined ? undefined : elasticity(low, high);
    this.#onReading({
      mode: mode.kind,
      level: reading.level,
      inFlight: reading.inFlight,
      usefulPerSecond: reading.goodput * 1000,
      answers: measurement.answers,
      useful: measurement.useful,
      ...optionalFrom('comparedWith', compared, (reading) => reading.level),
      ...optional('elasticity', measured),
      next: this.#level,
    });
  }

  #decideStartup(mode: Extract<Mode, { kind: 'startup' }>, reading: Reading): void {
    if (mode.warmingUp === true) {
      this.#mode = { kind: 'startup', cap: mode.cap };
      this.#setLevel(reading.level);
      return;
    }
    const { previous } = mode;
    const measured = previous === undefined ? undefined : elasticity(previous, reading);
    // No spread in what was really in flight (the push cannot fill more) is no reason to go on, nor trouble.
    const paid = previous === undefined || (measured !== undefined && measured >= this.#tuning.startupElasticity);
    if (paid && reading.level < mode.cap) {
      this.#mode = { kind: 'startup', cap: mode.cap, previous: reading };
      this.#setLevel(Math.min(mode.cap, reading.level * 2));
      return;
    }
    if (measured !== undefined && !paid) this.#ceiling = Math.max(this.#ceiling ?? 0, reading.level);
    // The higher level is kept only if it paid a fair share; on a plateau fewer in flight do as well.
    const best = previous !== undefined && (measured === undefined || measured < this.#tuning.targetElasticity) ? previous : reading;
    this.#base = best.level;
    this.#mode = { kind: 'steady' };
    // Measured just now: it is the first probe's base. The level before it was measured under other conditions.
    if (best === reading) this.#decideSteady(this.#mode, reading);
    else this.#setLevel(best.level);
  }

  #decideSteady(mode: Extract<Mode, { kind: 'steady' }>, reading: Reading): void {
    const { min, max } = this.#limits;
    if (mode.base === undefined) {
      const level = reading.level;
      if (level >= max) {
        // At the top of the limits only a probe below can tell whether fewer would do as well. It costs throughput
        // while the core still keeps up, so it comes once every few measurements, and more rarely while it keeps up.
        this.#atMax += 1;
        if (this.#atMax < this.#probeBelowMaxAfter) {
          this.#setLevel(level);
          return;
        }
        this.#atMax = 0;
      }
      const probe =
        level < max
          ? Math.min(max, Math.max(level + 1, Math.round(level * this.#tuning.probeFactor)))
          : Math.max(min, Math.min(level - 1, Math.round(level / this.#tuning.probeFactor)));
      this.#mode = { kind: 'steady', base: reading };
      this.#setLevel(probe);
      return;
    }
    const [low, high] = mode.base.level < reading.level ? [mode.base, reading] : [reading, mode.base];
    const measured = elasticity(low, high);
    if (high.level >= max && mode.base === high) {
      const stillPays = measured !== undefined && measured >= this.#tuning.targetElasticity;
      this.#probeBelowMaxAfter = stillPays ? Math.min(PROBE_BELOW_MAX_AFTER_AT_MOST, this.#probeBelowMaxAfter * 2) : PROBE_BELOW_MAX_AFTER;
    }
    if (measured !== undefined) {
      const { targetElasticity, maxStep, aboveCeilingStep } = this.#tuning;
      const aboveCeiling = this.#ceiling !== undefined && this.#base >= this.#ceiling;
      const step = clamp(measured - targetElasticity, -Math.log(maxStep), Math.log(aboveCeiling ? aboveCeilingStep : maxStep));
      this.#base = clamp(this.#base * Math.exp(step), min, max);
      // Passing the old trouble without new trouble proves the higher level.
      if (this.#ceiling !== undefined && this.#base > this.#ceiling && measured >= targetElasticity) this.#ceiling = this.#base;
    }
    this.#mode = { kind: 'steady' };
    this.#setLevel(this.#base);
  }

  #setLevel(level: number): void {
    this.#level = clamp(Math.round(level), this.#limits.min, this.#limits.max);
    this.#phase += 1;
    this.#measurement = this.#fresh(this.#level);
  }

  #fresh(level: number): Measurement {
    return { level, answers: 0, useful: 0, rttSum: 0, inFlightSum: 0, lastAt: 0, usefulAfterFirst: 0 };
  }
}

/**
 * What the level achieved: the useful answers that came per millisecond, counted between the level's first and last
 * answer. Counted, not derived from the share of failures: against a store that locks, a lost write comes back at
 * once and is sent again, so more in flight can mean more failures and still more users a second (core-behaviour.md,
 * "Under concurrency"). Only when no time passed between the answers (a fake clock) is the figure derived, by Little's
 * law, from what was in flight and the round trips.
 */
function readingOf(measurement: Measurement): Reading {
  const inFlight = measurement.inFlightSum / measurement.answers;
  const span = measurement.lastAt - (measurement.firstAt ?? measurement.lastAt);
  if (span > 0) return { level: measurement.level, inFlight, goodput: measurement.usefulAfterFirst / span };
  // A fake clock can answer in no time; a floor keeps the figure finite and comparable.
  const rtt = Math.max(measurement.rttSum / measurement.answers, 1e-3);
  return { level: measurement.level, inFlight, goodput: ((measurement.useful / measurement.answers) * inFlight) / rtt };
}

/**
 * How much more useful work a higher level brought, per unit of "more in flight" (both as logarithms): 1 while the
 * core keeps up, 0 on a plateau, below 0 when more in flight hurts. Undefined when the two levels did not differ in
 * what was really in flight (nothing to learn) or neither brought anything useful (a core that is down teaches nothing).
 */
function elasticity(low: Reading, high: Reading): number | undefined {
  const spread = Math.log(high.inFlight / low.inFlight);
  if (!(spread > Math.log(1.05))) return undefined;
  if (low.goodput === 0 && high.goodput === 0) return undefined;
  if (low.goodput === 0) return Number.POSITIVE_INFINITY;
  if (high.goodput === 0) return Number.NEGATIVE_INFINITY;
  return Math.log(high.goodput / low.goodput) / spread;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
