import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControllerReading, type ControllerTuning, defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { mean } from './medians.js';
import { rawLoad } from './raw-load.js';
import { type BenchLine, pushFor, REAL_CORE_API_KEY, startRealCore, stopRealCore, warmCore, warmLine } from './real-core.js';

export interface RealCoreTuningsOptions {
  postgresql?: boolean;
  line?: BenchLine;
  /** Pairs of the two tunings, in the order ABBA, each pair followed by a raw figure at the next of `rawLevels`. */
  pairs?: number;
  seconds?: number;
  rawLevels?: number[];
  /** The tuning compared with the default (the default is what a push runs). */
  tuning?: Partial<ControllerTuning>;
}

/**
 * Two tunings of the controller side by side on one live core (REAL_CORE_URL, or REAL_CORE_PG_URL), in the order ABBA so that a
 * core whose speed drifts (a PostgreSQL one through its first minutes, an in-memory one as it fills) weighs on both
 * alike, with a raw load at fixed levels between the pairs: how a change of the controller was judged on a real core
 * (docs/performance.md, issue 29's fourth pass). Prints every figure, each tuning's mean, and each push's start-up
 * readings (the levels it doubled through, and where it stopped).
 */
export async function benchRealCoreTunings(options: RealCoreTuningsOptions = {}): Promise<void> {
  const postgresql = options.postgresql ?? true;
  const line = options.line ?? 'lookup';
  const pairs = options.pairs ?? 4;
  const ms = (options.seconds ?? 8) * 1000;
  const rawLevels = options.rawLevels ?? [8, 16];
  const tunings: [string, Partial<ControllerTuning>][] = [
    ['default', {}],
    [JSON.stringify(options.tuning ?? { startupMinMs: 150 }), options.tuning ?? { startupMinMs: 150 }],
  ];
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-tunings-'));
  let batch = 0;
  const tag = (kind: string): string => `${kind}${(batch += 1)}`;
  const rows: Record<string, string | number>[] = [];
  const perTuning = new Map<string, number[]>(tunings.map(([name]) => [name, []]));
  const url = await startRealCore({ postgresql });
  try {
    await warmCore(url, { postgresql }, tag);
    await warmLine(url, line, tag);
    for (let pair = 0; pair < pairs; pair += 1) {
      const order = pair % 2 === 0 ? tunings : [...tunings].reverse();
      for (const [name, tuning] of order) {
        const readings: ControllerReading[] = [];
        const pushTag = tag('push');
        const result = await pushFor(url, { tag: pushTag, line, ms, limits: defaultConcurrencyLimits, journalPath: join(folder, pushTag), readings, tuning });
        perTuning.get(name)?.push(result.perSecond);
        const startUp = readings.filter((reading) => reading.mode === 'startup').map((reading) => `${reading.level}: ${Math.round(reading.usefulPerSecond)}/s`);
        rows.push({ figure: name, 'users/s': Math.round(result.perSecond), 'mean limit': result.meanLimit.toFixed(1), 'start-up': startUp.join(', ') });
      }
      const level = rawLevels[pair % rawLevels.length] ?? 8;
      const raw = await rawLoad(url, REAL_CORE_API_KEY, tag('raw'), level, { ms, steps: line });
      rows.push({ figure: `raw ${level}`, 'users/s': Math.round(raw.perSecond), 'mean limit': '', 'start-up': '' });
    }
  } finally {
    await stopRealCore({ postgresql });
    await rm(folder, { recursive: true, force: true });
  }
  console.log(`\nreal-core-tunings: ${postgresql ? 'PostgreSQL' : 'in-memory'} core, ${line} line, ${ms / 1000} s a figure, in the order run`);
  console.table(rows);
  console.table(
    [...perTuning].map(([name, figures]) => ({ tuning: name, 'mean users/s': Math.round(mean(figures)), figures: figures.map(Math.round).join(', ') })),
  );
}
