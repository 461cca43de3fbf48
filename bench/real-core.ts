import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreClient } from '../core-client/src/http/core-client.js';
import type { ImportOperation } from '../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../core-client/src/plan/plan-source.js';
import { type ConcurrencyLimits, type ControllerReading, type ControllerTuning, defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { runPush } from '../core-client/src/push/engine.js';
import { contractOnlyIdentityOptions, defaultIdentityOptions } from '../core-client/src/identity/identity-options.js';
import { Secret } from '../core-client/src/secret.js';
import type { PushCounts } from '../core-client/src/summary/push-summary.js';
import { mean, median, medianAndSpread } from './medians.js';
import { bcryptHash, benchPhoneNumber, rawLoad, type RawUserSteps, userEmail } from './raw-load.js';

import { REAL_CORE_API_KEY, emptyCore, requireEmptyCore } from '../test/real-core/support/real-core.js';

export { REAL_CORE_API_KEY };
/** 16 too: a PostgreSQL-backed core still gains past 8 on some runs (core-behaviour.md: up to about 8-16). */
const FIXED_LEVELS = [1, 2, 4, 8, 16] as const;
/** Lookups and imports a PostgreSQL-backed core gets before anything is measured. */
const POSTGRESQL_WARM_MS = 60_000;
/** How often the bench's pushes report progress: the mark of `countFromMs` is at most this late. */
const PROGRESS_EVERY_MS = 50;
/**
 * Each line's requests before its first figure: the core's JIT compiles the paths of that line's calls. Phone users
 * take longest: on an in-memory core that had served the other two lines, raw 4 rose from 124 to about 220 users a
 * second over their first 12 to 18 s, and a figure of raw 4 right after a 5 s warm-up made 120 against 252 and 261
 * for the next two (2026-11-26, 11:20 UTC): the first figure of the line, a push in every odd round, met a colder core.
 */
const LINE_WARM_MS: Record<BenchLine, number> = { lookup: 5_000, identity: 5_000, passwordless: 20_000 };

export interface RealCore extends LiveCoreKind {
  name: string;
  /** Users imported before anything is measured (a store that already holds some). */
  holding: number;
}

/**
 * A line of the bench: what a user costs. `lookup`: a default push (the lookup, then the import); `identity`: with
 * the identity steps as well (lookup, import, id mapping, verification token and its use, metadata); `passwordless`:
 * phone users (the lookup by number, a code made and consumed at once: three requests, two of them writes).
 */
export type BenchLine = 'lookup' | 'identity' | 'passwordless';

export interface RealCoreBenchOptions {
  /** Seconds a figure. */
  seconds?: number;
  /** Seconds at the start of each figure left out of its settled rate (the push's start-up search). */
  settleSeconds?: number;
  holding?: number;
  /** Rounds of the sweep: each raw level once a round, the order reversed every other round. */
  sweepRounds?: number;
  /** Pairs of a default push and the raw load at the sweep's best level, the order reversed every other pair. */
  pairs?: number;
  /** Parts of core names to run (all when absent). */
  only?: string[];
  lines?: BenchLine[];
}

/**
 * Issue 29: the default push against live cores (REAL_CORE_URL, REAL_CORE_PG_URL: in-memory, empty and holding 20,000 users;
 * PostgreSQL), side by side with a raw load at fixed concurrency that sends what the push sends per user (prebuilt
 * bodies, keep-alive, each 500 sent again after 20 ms). Each core is warmed first (its JIT compiles the import path:
 * the first seconds of a fresh core are several times slower); an in-memory core is emptied (and filled) anew for each
 * line, the PostgreSQL one serves all three. Each line is measured in two steps:
 *
 * - the sweep finds the best fixed level: every raw level once a round, the order reversed every other round, the
 *   level with the highest median;
 * - then pairs: a default push right next to the raw load at that level, the push first in one pair and second in the
 *   next. The ratio is the median of the pairs' push ÷ raw.
 *
 * Pairs cancel what changes through a line (an in-memory store slows as it fills, a PostgreSQL one speeds up through
 * its first minutes), and the pairs' raw figures are not the ones the level was chosen on, so a lucky sweep figure
 * does not lower the ratio. Each figure is counted from its second 2 on, the raw load's as the push's: a push of
 * 10 s spends a good part of it in its start-up search (on a PostgreSQL core 3 to 5 s before it passed 6 in flight,
 * the fifth pass's readings), which a migration of thousands of users a minute or more does once; the row also gives
 * the ratio of the whole figures. The previous design (three pairs at each of five levels, the lowest of the five
 * medians) spent its pairs on levels that do not matter and took the lowest of five noisy medians (docs/performance.md,
 * issue 29's sixth pass).
 */
export async function benchRealCore(options: RealCoreBenchOptions = {}): Promise<void> {
  const seconds = options.seconds ?? 10;
  const settleSeconds = options.settleSeconds ?? 2;
  // A figure varies by ±20% between rounds and a core may stall for seconds (6.6 s once, on an in-memory core, 11:11 UTC
  // 2026-11-26): the ratio is judged on eight pairs, the level chosen on two figures of each. Six pairs left a line's
  // ratio moving by 0.1 to 0.25 between runs (docs/performance.md, issue 29's sixth pass).
  const sweepRounds = options.sweepRounds ?? 2;
  const pairs = options.pairs ?? 8;
  const holding = options.holding ?? 20_000;
  const lines = options.lines ?? ['lookup', 'identity', 'passwordless'];
  const cores: RealCore[] = [
    { name: 'real in-memory, empty', postgresql: false, holding: 0 },
    { name: `real in-memory, holding ${holding}`, postgresql: false, holding },
    { name: 'real PostgreSQL', postgresql: true, holding: 0 },
  ].filter((core) => options.only === undefined || options.only.some((part) => core.name.includes(part)));
  const rows: Record<string, string | number>[] = [];
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-real-'));
  let batch = 0;
  const tag = (kind: string): string => `${kind}${(batch += 1)}`;
  try {
    for (const core of cores) {
      try {
        let url: string | undefined;
        for (const line of lines) {
          // An in-memory store slows as it fills (a lookup line adds some 40,000 users to the empty one), so each line
          // meets it emptied, filled anew; a PostgreSQL core keeps its users and its warmth.
          if (url === undefined || !core.postgresql) {
            url = await startRealCore(core);
            await warmCore(url, core, tag);
            if (core.holding > 0) await fill(url, core.holding, tag);
          }
          await warmLine(url, line, tag);
          const readings: ControllerReading[] = [];
          const { push, raws } = lineFigures(line, url, { ms: seconds * 1000, countFromMs: settleSeconds * 1000 }, folder, tag, readings);
          const measured: LineFigures = { sweep: new Map(), best: 0, pushes: [], pairedRaw: [], cpuPerUser: new Map(), limits: [], failed: new Map() };
          const measure = async (figure: Figure): Promise<Rate> => {
            const cpuBefore = process.cpuUsage();
            const result = await figure.run();
            const cpu = process.cpuUsage(cpuBefore);
            measured.cpuPerUser.set(figure.name, [...(measured.cpuPerUser.get(figure.name) ?? []), (cpu.user + cpu.system) / 1000 / Math.max(1, result.users)]);
            if (result.meanLimit !== undefined) measured.limits.push(result.meanLimit);
            measured.failed.set(figure.name, (measured.failed.get(figure.name) ?? 0) + result.failed);
            return { settled: result.settledPerSecond, whole: result.perSecond };
          };
          for (let round = 0; round < sweepRounds; round += 1) {
            for (const [level, raw] of round % 2 === 0 ? raws : [...raws].reverse())
              measured.sweep.set(level, [...(measured.sweep.get(level) ?? []), (await measure(raw)).settled]);
          }
          measured.best = bestLevel(measured.sweep);
          const bestRaw = raws.find(([level]) => level === measured.best)?.[1];
          if (bestRaw === undefined) throw new Error(`no raw figure at level ${measured.best}`);
          for (let pair = 0; pair < pairs; pair += 1) {
            const pushFirst = pair % 2 === 0;
            const before = await measure(pushFirst ? push : bestRaw);
            const after = await measure(pushFirst ? bestRaw : push);
            measured.pushes.push(pushFirst ? before : after);
            measured.pairedRaw.push(pushFirst ? after : before);
          }
          rows.push(summaryRow(core.name, line, measured));
          printReadings(`${core.name}, ${line}`, readings);
          // Each row as soon as it is measured: a run cut short still tells what it measured.
          console.log(JSON.stringify(rows.at(-1)));
          const eachFigure = {
            ...Object.fromEntries([...measured.sweep].map(([level, values]) => [`sweep, raw ${level}`, values.map(Math.round)])),
            push: measured.pushes.map((rate) => Math.round(rate.settled)),
            [`raw ${measured.best}, beside each push`]: measured.pairedRaw.map((rate) => Math.round(rate.settled)),
            'push, whole figures': measured.pushes.map((rate) => Math.round(rate.whole)),
            [`raw ${measured.best}, whole figures`]: measured.pairedRaw.map((rate) => Math.round(rate.whole)),
          };
          console.log(JSON.stringify({ core: core.name, line, 'each figure, in the order run': eachFigure }));
        }
      } finally {
        await stopRealCore(core);
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log(
    `\nreal-core: users per second from ${settleSeconds} s into each figure of ${seconds} s ("whole": from its start), median (min-max); sweep: ${sweepRounds} figures a raw level; then ${pairs} pairs of a push and the best level; measured ${new Date().toISOString()}`,
  );
  console.table(rows);
  console.log(
    'real-core: a login-time migration sends nothing during the push (its users are parked in a local store): its cost is at sign-in, measured by `npm run bench -- real-core-login-time`.',
  );
}

/** The level whose sweep figures have the highest median (the lower level when two tie). */
export function bestLevel(sweep: ReadonlyMap<number, readonly number[]>): number {
  let best: { level: number; median: number } | undefined;
  for (const [level, figures] of sweep) {
    const middle = median(figures);
    if (best === undefined || middle > best.median) best = { level, median: middle };
  }
  if (best === undefined) throw new Error('the sweep measured no level');
  return best.level;
}

/** Users a second of one figure: `settled` from the settling time on, `whole` from its start. */
interface Rate {
  settled: number;
  whole: number;
}

interface Figure {
  name: string;
  run: () => Promise<{ perSecond: number; settledPerSecond: number; users: number; failed: number; meanLimit?: number }>;
}

/** One line's figures as they are measured: the sweep's by level, the level chosen, then the pairs. */
interface LineFigures {
  sweep: Map<number, number[]>;
  best: number;
  pushes: Rate[];
  /** The raw load at the best level, each measured right next to the push of the same index. */
  pairedRaw: Rate[];
  cpuPerUser: Map<string, number[]>;
  limits: number[];
  /** Users not made, by figure name (the push's failures; the raw load's phone users whose codes were all used up). */
  failed: Map<string, number>;
}

function lineFigures(
  line: BenchLine,
  url: string,
  length: { ms: number; countFromMs: number },
  folder: string,
  tag: (kind: string) => string,
  readings: ControllerReading[],
): { push: Figure; raws: [number, Figure][] } {
  const steps: RawUserSteps = line;
  const push: Figure = {
    name: 'push',
    run: async () => {
      const batch = tag('push');
      // Only the first push of a line logs its controller's readings (one table a line, not one a round).
      const log = readings.length === 0 ? readings : [];
      return pushFor(url, { tag: batch, line, ...length, limits: defaultConcurrencyLimits, journalPath: join(folder, `journal-${batch}`), readings: log });
    },
  };
  const raws = FIXED_LEVELS.map((level): [number, Figure] => [
    level,
    { name: `raw ${level}`, run: () => rawLoad(url, REAL_CORE_API_KEY, tag('raw'), level, { ...length, steps }) },
  ]);
  return { push, raws };
}

/**
 * One line's row: the sweep's median a level, the level chosen, the pushes and the raw figures beside them (settled
 * rates), and the median of the pairs' push ÷ raw, settled and whole. The CPU columns are this process's time a user
 * (the engine's or the raw load's own work; the core runs in its own process).
 */
function summaryRow(core: string, line: BenchLine, figures: LineFigures): Record<string, string | number> {
  const ratios = (of: keyof Rate): number[] => figures.pushes.map((push, index) => push[of] / (figures.pairedRaw[index]?.[of] ?? Number.NaN));
  const cpu = (name: string): string => median(figures.cpuPerUser.get(name) ?? []).toFixed(2);
  return {
    core,
    line,
    ...Object.fromEntries(FIXED_LEVELS.map((level) => [`sweep, raw ${level}`, medianAndSpread(figures.sweep.get(level) ?? [])])),
    'best level': figures.best,
    push: medianAndSpread(figures.pushes.map((rate) => rate.settled)),
    'raw at the best level, beside the pushes': medianAndSpread(figures.pairedRaw.map((rate) => rate.settled)),
    'mean limit': medianAndSpread(figures.limits, 1),
    'push ÷ best level': medianAndSpread(ratios('settled'), 2),
    'push ÷ best level, whole figures': medianAndSpread(ratios('whole'), 2),
    'CPU ms a user, push / raw': `${cpu('push')} / ${cpu(`raw ${figures.best}`)}`,
    'users not made': [...figures.failed].flatMap(([name, failed]) => (failed > 0 ? [`${name}: ${failed}`] : [])).join(', ') || 'none',
  };
}

function printReadings(title: string, readings: ControllerReading[]): void {
  console.log(`\nreal-core: controller readings of the first default push, ${title}`);
  console.table(
    readings.map((reading) => ({
      mode: reading.mode,
      level: reading.level,
      'in flight': reading.inFlight.toFixed(2),
      'useful/s': Math.round(reading.usefulPerSecond),
      answers: reading.answers,
      'wasted (500s)': reading.answers - reading.useful,
      'vs level': reading.comparedWith ?? '',
      elasticity: reading.elasticity === undefined ? '' : reading.elasticity.toFixed(2),
      next: reading.next,
    })),
  );
}

/** Imports `users` users, 8 in flight, no lookup, and prints the rate of each tenth: how the store slows as it fills. */
/**
 * A PostgreSQL-backed core keeps getting faster through its first minute of load (its lookups went from 246 to 709
 * users a second over eight figures of 8 s, 10:00 UTC 2026-11-26), an in-memory one within seconds.
 */
export async function warmCore(url: string, core: Pick<RealCore, 'postgresql'>, tag: (kind: string) => string): Promise<void> {
  await rawLoad(url, REAL_CORE_API_KEY, tag('warm'), 4, { ms: core.postgresql ? POSTGRESQL_WARM_MS : 3_000, steps: 'lookup' });
}

/**
 * A fresh core's first seconds on calls it has not served yet are slower (measured: a PostgreSQL core's passwordless
 * figures went from 87 to 202 users a second between two figures in a row, the first line's warm-up having been
 * lookups and imports only): warmed with the line's own requests, no round starts cold.
 */
export async function warmLine(url: string, line: BenchLine, tag: (kind: string) => string): Promise<void> {
  await rawLoad(url, REAL_CORE_API_KEY, tag('warm'), 4, { ms: LINE_WARM_MS[line], steps: line });
}

export async function fill(url: string, users: number, tag: (kind: string) => string): Promise<{ held: number; perSecond: number }[]> {
  const step = Math.max(1, Math.round(users / 10));
  const curve: { held: number; perSecond: number }[] = [];
  for (let held = 0; held < users; held += step) {
    const figures = await rawLoad(url, REAL_CORE_API_KEY, tag('fill'), 8, { users: Math.min(step, users - held), steps: 'import' });
    curve.push({ held: held + figures.users, perSecond: Math.round(figures.perSecond) });
  }
  console.log(`real-core: filling ${url} (imports a second, 8 in flight, no lookup, by users held)`);
  console.table(curve);
  return curve;
}

/**
 * Which live core a figure runs on: `REAL_CORE_URL` (in-memory) or `REAL_CORE_PG_URL` (PostgreSQL), and for the paired
 * bench's second core of a kind `REAL_CORE_URL_2` / `REAL_CORE_PG_URL_2`. Nothing here starts a core: run one yourself
 * (docs/contributing.md, "Tests against a real core").
 */
export interface LiveCoreKind {
  postgresql: boolean;
  second?: boolean;
}

const benchCoresSeen = new Set<string>();

function liveCoreUrl(kind: LiveCoreKind): string {
  const variable = `${kind.postgresql ? 'REAL_CORE_PG_URL' : 'REAL_CORE_URL'}${kind.second === true ? '_2' : ''}`;
  const url = process.env[variable]?.trim() ?? '';
  if (url === '' || REAL_CORE_API_KEY === '')
    throw new Error(`The real-core bench needs ${variable} and REAL_CORE_API_KEY: a live core of your own (docs/performance.md).`);
  return url.replace(/\/+$/, '');
}

/**
 * The live core of a kind, as a fresh one: empty. The first time, it must be empty already (the bench measures no one
 * else's users, and removes none of them); after that the bench removes the users it made itself.
 */
export async function startRealCore(kind: LiveCoreKind): Promise<string> {
  const url = liveCoreUrl(kind);
  if (benchCoresSeen.has(url)) await emptyCore(url);
  else {
    await requireEmptyCore(url);
    benchCoresSeen.add(url);
  }
  return url;
}

/** Leaves the live core empty, as the bench found it. */
export async function stopRealCore(kind: LiveCoreKind): Promise<void> {
  await emptyCore(liveCoreUrl(kind));
}

function operation(tag: string, index: number, line: BenchLine): ImportOperation {
  const email = userEmail(tag, index);
  if (line === 'passwordless') {
    return {
      kind: 'passwordlessSignInUp',
      operationKey: `bench-${tag}:L${index + 1}#pl`,
      location: { file: `bench-${tag}`, line: index + 1 },
      body: { phoneNumber: benchPhoneNumber(tag, index) },
    };
  }
  return {
    kind: 'passwordImport',
    operationKey: `bench-${tag}:L${index + 1}#pw`,
    location: { file: `bench-${tag}`, line: index + 1 },
    email,
    family: 'bcrypt',
    body: { email, passwordHash: bcryptHash(index) },
    exportedCredential: bcryptHash(index),
    warnings: [],
    ...(line === 'identity'
      ? {
          identity: {
            sourceId: `old-${email}`,
            system: 'bench',
            carriesSourceId: true,
            emailVerified: true,
            disabled: false,
            profile: { displayName: email },
          },
        }
      : {}),
  };
}

async function* records(tag: string, line: BenchLine): AsyncGenerator<PlannedRecord> {
  for (let index = 0; ; index += 1) {
    const item = operation(tag, index, line);
    yield { location: item.location, items: [item] };
  }
}

/**
 * The engine (default concurrency unless `limits` says), stopped after `ms` as a Ctrl-C would. `settledPerSecond`
 * counts from `countFromMs` on (from the first progress after it; progress comes every 50 ms here), or from the start
 * when the push ended before.
 */
export async function pushFor(
  url: string,
  run: {
    tag: string;
    line: BenchLine;
    ms: number;
    limits: ConcurrencyLimits;
    journalPath: string;
    readings: ControllerReading[];
    tuning?: Partial<ControllerTuning>;
    countFromMs?: number;
  },
): Promise<{ perSecond: number; settledPerSecond: number; users: number; failed: number; meanLimit: number }> {
  const client = new CoreClient({ baseUrl: [url], apiKey: new Secret(REAL_CORE_API_KEY), connections: defaultConcurrencyLimits.max });
  const limits: number[] = [];
  const createdOf = (counts: PushCounts): number => (run.line === 'passwordless' ? counts.passwordlessCreated : counts.imported);
  const started = performance.now();
  let mark = { at: started, created: 0 };
  let marked = run.countFromMs === undefined;
  try {
    const summary = await runPush({
      records: records(run.tag, run.line),
      client,
      identity: run.line === 'identity' ? defaultIdentityOptions : { ...contractOnlyIdentityOptions, existing: 'skip', lookup: true },
      concurrency: run.limits,
      sourceFingerprint: 'sha256:bench',
      journalPath: run.journalPath,
      signal: AbortSignal.timeout(run.ms),
      stopGraceMs: 5_000,
      progressIntervalMs: PROGRESS_EVERY_MS,
      onControllerReading: (reading) => run.readings.push(reading),
      ...(run.tuning === undefined ? {} : { controllerTuning: run.tuning }),
      onEvent: (event) => {
        if (event.type !== 'progress') return;
        limits.push(event.concurrency);
        const now = performance.now();
        if (!marked && now - started >= (run.countFromMs ?? 0)) {
          marked = true;
          mark = { at: now, created: createdOf(event.counts) };
        }
      },
    });
    const ended = performance.now();
    const meanLimit = mean(limits);
    const created = createdOf(summary);
    return {
      perSecond: created / (summary.elapsedMs / 1000),
      settledPerSecond: (created - mark.created) / ((ended - mark.at) / 1000),
      users: created,
      failed: summary.failed,
      meanLimit,
    };
  } finally {
    await client.close();
  }
}
