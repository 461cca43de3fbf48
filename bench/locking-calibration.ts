import { defaultContention } from '../test/core-double/contention.js';
import { BENCH_API_KEY, startDoubleProcess } from './double-process.js';
import { median } from './medians.js';
import { rawLoad } from './raw-load.js';
import { REAL_CORE_API_KEY, startRealCore, stopRealCore } from './real-core.js';

/** What a locking store does at one level: the raw load's figures, imports only (every request a write). */
interface LockingFigures {
  importsPerSecond: number;
  /** Share of the writes sent that answered 500 (a lost lock). */
  lockedShare: number;
  lockedMs: number;
  writtenMs: number;
}

/** What a store answers one user at a time (the lookup, then the import) once it holds some users. */
interface FilledFigures {
  readMs: number;
  writtenMs: number;
}

const CALIBRATION_LEVELS = [1, 2, 4, 8, 16] as const;
/** The double's latency: a real core's request apart from its store, on this machine (docs/performance.md). */
export const CALIBRATED_LATENCY_MS = 6;

interface Store {
  url: string;
  apiKey: string;
}

/**
 * Issue 29: the double's locking model against a real in-memory core, side by side in one run. For each level (1, 2,
 * 4, 8, 16 in flight; imports only, each 500 sent again after 20 ms; `rounds` rounds, medians): imports a second,
 * the share of writes that answered 500, how long a lost and a written import took; then, as each fills to `holding`
 * users, how long a lookup and an import take one at a time. The double runs in its own process with the model
 * `defaultContention` and `CALIBRATED_LATENCY_MS`.
 */
export async function benchLockingCalibration(options: { seconds?: number; rounds?: number; holding?: number } = {}): Promise<void> {
  const seconds = options.seconds ?? 3;
  const rounds = options.rounds ?? 3;
  const holding = options.holding ?? 20_000;
  const real = await startRealCore({ postgresql: false });
  let realLevels: Map<number, LockingFigures>;
  let realFilled: Map<number, FilledFigures>;
  try {
    const store = { url: real, apiKey: REAL_CORE_API_KEY };
    await rawLoad(real, REAL_CORE_API_KEY, 'warm', 4, { ms: 3_000, steps: 'lookup' });
    realLevels = await measureLevels(store, 'real', seconds, rounds);
    realFilled = await measureFilling(store, 'real', holding);
  } finally {
    await stopRealCore({ postgresql: false });
  }
  const double = await startDoubleProcess();
  let doubleLevels: Map<number, LockingFigures>;
  let doubleFilled: Map<number, FilledFigures>;
  try {
    await double.configure({ latencyMs: CALIBRATED_LATENCY_MS, contention: true });
    const store = { url: double.url, apiKey: BENCH_API_KEY };
    doubleLevels = await measureLevels(store, 'double', seconds, rounds);
    await double.reset();
    doubleFilled = await measureFilling(store, 'double', holding);
  } finally {
    await double.stop();
  }
  const shown = (value: number | undefined, digits = 0): string => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
  console.log(
    `\nlocking model: a real in-memory core and the double (${JSON.stringify(defaultContention)}, latency ${CALIBRATED_LATENCY_MS} ms), imports only, median of ${rounds} rounds of ${seconds} s, measured ${new Date().toISOString()}`,
  );
  console.table(
    CALIBRATION_LEVELS.map((level) => {
      const [r, d] = [realLevels.get(level), doubleLevels.get(level)];
      return {
        'in flight': level,
        'real imports/s': shown(r?.importsPerSecond),
        'double imports/s': shown(d?.importsPerSecond),
        'real 500s %': shown((r?.lockedShare ?? Number.NaN) * 100, 1),
        'double 500s %': shown((d?.lockedShare ?? Number.NaN) * 100, 1),
        'real lost ms': shown(r?.lockedMs, 1),
        'double lost ms': shown(d?.lockedMs, 1),
        'real written ms': shown(r?.writtenMs, 1),
        'double written ms': shown(d?.writtenMs, 1),
      };
    }),
  );
  console.log(`locking model: best level, real ${bestLevel(realLevels)}, double ${bestLevel(doubleLevels)}`);
  console.log('locking model: as the store fills (one user at a time: the lookup, then the import)');
  console.table(
    [...realFilled.keys()].map((held) => ({
      'users held': held,
      'real lookup ms': shown(realFilled.get(held)?.readMs, 1),
      'double lookup ms': shown(doubleFilled.get(held)?.readMs, 1),
      'real import ms': shown(realFilled.get(held)?.writtenMs, 1),
      'double import ms': shown(doubleFilled.get(held)?.writtenMs, 1),
    })),
  );
}

async function measureLevels(store: Store, tag: string, seconds: number, rounds: number): Promise<Map<number, LockingFigures>> {
  const measured = new Map<number, LockingFigures[]>(CALIBRATION_LEVELS.map((level) => [level, []]));
  for (let round = 0; round < rounds; round += 1) {
    // Every other round runs the levels the other way round: a store that fills or a neighbour weighs on all alike.
    const order = round % 2 === 0 ? CALIBRATION_LEVELS : [...CALIBRATION_LEVELS].reverse();
    for (const level of order) {
      const figures = await rawLoad(store.url, store.apiKey, `${tag}-r${round}-${level}`, level, { ms: seconds * 1000, steps: 'import' });
      measured.get(level)?.push({
        importsPerSecond: figures.perSecond,
        lockedShare: figures.writes === 0 ? 0 : figures.locked / figures.writes,
        lockedMs: figures.lockedMs,
        writtenMs: figures.writtenMs,
      });
    }
  }
  return new Map(
    [...measured].map(([level, rows]) => [
      level,
      {
        importsPerSecond: median(rows.map((row) => row.importsPerSecond)),
        lockedShare: median(rows.map((row) => row.lockedShare)),
        lockedMs: median(rows.map((row) => row.lockedMs).filter((ms) => !Number.isNaN(ms))),
        writtenMs: median(rows.map((row) => row.writtenMs)),
      },
    ]),
  );
}

/** Fills the store in five steps (8 in flight, imports only); after each, one user at a time for 2 s. */
async function measureFilling(store: Store, tag: string, holding: number): Promise<Map<number, FilledFigures>> {
  const figures = new Map<number, FilledFigures>();
  const step = Math.round(holding / 5);
  for (let held = 0; held <= holding; held += step) {
    if (held > 0) await rawLoad(store.url, store.apiKey, `${tag}-fill${held}`, 8, { users: step, steps: 'import' });
    const probe = await rawLoad(store.url, store.apiKey, `${tag}-probe${held}`, 1, { ms: 2_000, steps: 'lookup' });
    figures.set(held, { readMs: probe.readMs, writtenMs: probe.writtenMs });
  }
  return figures;
}

function bestLevel(levels: Map<number, LockingFigures>): number {
  return [...levels].reduce((best, entry) => (entry[1].importsPerSecond > best[1].importsPerSecond ? entry : best))[0];
}
