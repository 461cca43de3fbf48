import { Pool } from 'undici';
import { type CoreTarget, describeTarget } from './target.js';

/** One core of several that share a database: its own connection pool, and its own health. */
export interface Upstream {
  readonly target: CoreTarget;
  readonly pool: Pool;
  /** e.g. `http://10.0.0.2:3567 (tenant public)`. */
  readonly description: string;
  inFlight: number;
  requests: number;
  /** Failures to reach it in a row (no answer at all, or a gateway's 502/504). */
  failures: number;
  /** It is not chosen before this time (performance.now() ms) unless every core is resting. */
  restUntil: number;
}

/** What a caller may see of each core: for a bench or a status line, never a key. */
export interface UpstreamState {
  url: string;
  inFlight: number;
  requests: number;
  failures: number;
  resting: boolean;
}

/** A core that could not be reached rests this long, doubled with each failure in a row, up to REST_MAX_MS. */
const REST_BASE_MS = 500;
const REST_MAX_MS = 30_000;

/**
 * Spreads requests over cores that share one database (undici's BalancedPool does this by weight; here the rule is
 * "fewest requests in flight", which sends more to a faster core and keeps a capacity-limited one from queueing
 * while another idles). A core that cannot be reached rests for a while (longer each time in a row) and others take
 * its share; one answer of any kind makes it healthy again. When every core rests, the one that rested longest is
 * tried: the push's own retries and give-up time decide what happens then.
 */
export class Upstreams {
  readonly all: readonly Upstream[];
  #next = 0;

  constructor(targets: readonly CoreTarget[], poolOptions: Pool.Options) {
    this.all = targets.map((target) => ({
      target,
      pool: new Pool(target.origin, poolOptions),
      description: describeTarget(target),
      inFlight: 0,
      requests: 0,
      failures: 0,
      restUntil: 0,
    }));
  }

  /** The core for the next request (`pinned`: that one, for a check of each core). */
  pick(now: number, pinned?: number): Upstream {
    if (pinned !== undefined) {
      const upstream = this.all[pinned];
      if (upstream === undefined) throw new RangeError(`There is no core number ${pinned} (${this.all.length} given).`);
      return upstream;
    }
    const count = this.all.length;
    const start = this.#next;
    this.#next = (this.#next + 1) % count;
    let best: Upstream | undefined;
    let fallback = this.all[start] as Upstream;
    for (let offset = 0; offset < count; offset += 1) {
      const upstream = this.all[(start + offset) % count] as Upstream;
      if (upstream.restUntil < fallback.restUntil) fallback = upstream;
      if (upstream.restUntil > now) continue;
      if (best === undefined || upstream.inFlight < best.inFlight) best = upstream;
    }
    return best ?? fallback;
  }

  /** The core answered (whatever it said): it is reachable. */
  answered(upstream: Upstream): void {
    upstream.failures = 0;
    upstream.restUntil = 0;
  }

  /** The core could not be reached: it rests, longer with each failure in a row. */
  unreachable(upstream: Upstream, now: number): void {
    upstream.failures += 1;
    upstream.restUntil = now + Math.min(REST_MAX_MS, REST_BASE_MS * 2 ** (upstream.failures - 1));
  }

  states(now: number): UpstreamState[] {
    return this.all.map((upstream) => ({
      url: upstream.target.baseUrl,
      inFlight: upstream.inFlight,
      requests: upstream.requests,
      failures: upstream.failures,
      resting: upstream.restUntil > now,
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((upstream) => (upstream.pool.closed ? undefined : upstream.pool.close())));
  }
}
