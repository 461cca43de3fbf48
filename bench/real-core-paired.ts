import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { medianAndSpread } from './medians.js';
import { rawLoad } from './raw-load.js';
import { type BenchLine, pushFor, REAL_CORE_API_KEY, startRealCore, stopRealCore } from './real-core.js';

const LEVELS = [1, 2, 4, 8, 16] as const;

interface PairedCore {
  name: string;
  postgresql: boolean;
  holding: number;
}

/**
 * Issue 29, on a machine whose speed changes by ×2 and more from one second to the next (other work on its 2 cores):
 * two identical real cores, and the default push on one while the raw load at a fixed level runs on the other, at
 * the same time, then the other way round. Both sides meet the same neighbours, so their ratio holds where the
 * figures themselves do not. For each level, push ÷ raw; the push's ratio to the best raw level is the smallest of
 * them (the raw level that did best against the push running beside it). Cores: REAL_CORE_URL and REAL_CORE_URL_2 (PostgreSQL: REAL_CORE_PG_URL and REAL_CORE_PG_URL_2).
 */
export async function benchRealCorePaired(
  options: { seconds?: number; holding?: number; rounds?: number; only?: string[]; lines?: BenchLine[] } = {},
): Promise<void> {
  const seconds = options.seconds ?? 6;
  const rounds = options.rounds ?? 1;
  const holding = options.holding ?? 20_000;
  const lines = options.lines ?? ['lookup', 'identity'];
  const kinds: PairedCore[] = [
    { name: 'real in-memory, empty', postgresql: false, holding: 0 },
    { name: `real in-memory, holding ${holding}`, postgresql: false, holding },
    { name: 'real PostgreSQL', postgresql: true, holding: 0 },
  ].filter((kind) => options.only === undefined || options.only.some((part) => kind.name.includes(part)));
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-paired-'));
  const rows: Record<string, string>[] = [];
  let batch = 0;
  const tag = (kind: string): string => `${kind}${(batch += 1)}`;
  try {
    for (const kind of kinds) {
      const sides = [{ postgresql: kind.postgresql }, { postgresql: kind.postgresql, second: true }] as const;
      try {
        const urls = await Promise.all(sides.map((side) => startRealCore(side)));
        await Promise.all(urls.map((url) => rawLoad(url, REAL_CORE_API_KEY, tag('warm'), 4, { ms: 3_000, steps: 'lookup' })));
        if (kind.holding > 0) await Promise.all(urls.map((url) => rawLoad(url, REAL_CORE_API_KEY, tag('fill'), 8, { users: kind.holding, steps: 'import' })));
        for (const line of lines) {
          const ratios = new Map<number, number[]>(LEVELS.map((level) => [level, []]));
          const limits: number[] = [];
          for (let round = 0; round < rounds; round += 1) {
            for (const level of LEVELS) {
              for (const [pushSide, rawSide] of [
                [0, 1],
                [1, 0],
              ] as const) {
                const pushTag = tag('push');
                const [push, raw] = await Promise.all([
                  pushFor(urls[pushSide] ?? '', {
                    tag: pushTag,
                    line,
                    ms: seconds * 1000,
                    limits: defaultConcurrencyLimits,
                    journalPath: join(folder, `journal-${pushTag}`),
                    readings: [],
                  }),
                  rawLoad(urls[rawSide] ?? '', REAL_CORE_API_KEY, tag('raw'), level, {
                    ms: seconds * 1000,
                    steps: line,
                  }),
                ]);
                ratios.get(level)?.push(push.perSecond / raw.perSecond);
                limits.push(push.meanLimit);
              }
            }
          }
          const perLevel = LEVELS.map((level) => ratios.get(level) ?? []);
          // Each pair of runs (one each way) gives a ratio per level; the best raw level is the one with the lowest.
          const pairs = perLevel[0]?.length ?? 0;
          const againstBest = Array.from({ length: pairs }, (_, index) => Math.min(...perLevel.map((values) => values[index] ?? Number.POSITIVE_INFINITY)));
          rows.push({
            core: kind.name,
            line,
            ...Object.fromEntries(LEVELS.map((level, index) => [`push ÷ raw ${level}`, medianAndSpread(perLevel[index] ?? [], 2)])),
            'mean limit': medianAndSpread(limits, 1),
            'push ÷ best raw': medianAndSpread(againstBest, 2),
          });
          console.log(JSON.stringify(rows.at(-1)));
        }
      } finally {
        await Promise.all(sides.map((side) => stopRealCore(side)));
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log(
    `\nreal-core paired: the default push on one core while the raw load runs on its twin, at the same time, then swapped; push ÷ raw, median (min-max) of ${2 * rounds} runs of ${seconds} s; measured ${new Date().toISOString()}`,
  );
  console.table(rows);
}
