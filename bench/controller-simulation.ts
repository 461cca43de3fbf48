import { type ControllerTuning, defaultConcurrencyLimits, fixedConcurrency } from '../core-client/src/push/concurrency.js';
import { mean } from './medians.js';
import { defaultContention } from '../test/core-double/contention.js';
import { type CoreModel, simulatePush } from '../test/core-client/push/simulated-core.js';

const SWEEP = [1, 2, 3, 4, 6, 8, 16, 32];
const SEEDS = [1, 2, 3, 4, 5, 6];
const NOISE = { periodMs: 500, spread: 0.35 };

const models: { name: string; model: CoreModel }[] = [
  ...[0, 20_000].flatMap((usersHeld) =>
    [false, true].map((noisy) => ({
      name: `locking store, ${usersHeld} held${noisy ? ', noisy' : ''}`,
      model: { latencyMs: 6, lockingStore: defaultContention, usersHeld, ...(noisy ? { noise: NOISE } : {}) },
    })),
  ),
  { name: 'serves 8 at once', model: { latencyMs: 10, capacity: 8 } },
  { name: 'serves 8 at once, noisy', model: { latencyMs: 10, capacity: 8, noise: NOISE } },
  { name: '429 above 12', model: { latencyMs: 10, pushBackAbove: 12 } },
];

/**
 * The controller's tunings side by side on the fake-clock cores of the tests (`simulatePush`): for each model and
 * push length, the mean over six seeds of the default push's useful answers a second ÷ the best fixed level's, its
 * lowest, and the mean limit. How a change of the controller was judged before it met a real core
 * (docs/performance.md, issue 29's third pass).
 */
export function benchControllerSimulation(tunings: Record<string, Partial<ControllerTuning>> = defaultTunings()): void {
  const rows: Record<string, string>[] = [];
  for (const answers of [3_000, 12_000]) {
    for (const { name, model } of models) {
      const best = Math.max(...SWEEP.map((level) => simulatePush(model, fixedConcurrency(level), answers).rate));
      const row: Record<string, string> = { model: name, answers: String(answers) };
      for (const [tuningName, tuning] of Object.entries(tunings)) {
        const runs = SEEDS.map((seed) => simulatePush(model, defaultConcurrencyLimits, answers, seed, tuning));
        const ratios = runs.map((run) => run.rate / best);
        const meanRatio = mean(ratios);
        const meanLimit = mean(runs.map((run) => run.meanLimit));
        row[tuningName] = `${meanRatio.toFixed(3)} (lowest ${Math.min(...ratios).toFixed(2)}, limit ${meanLimit.toFixed(1)})`;
      }
      rows.push(row);
    }
  }
  console.log('\ncontroller-simulation: default push ÷ best fixed level on simulated cores, mean of 6 seeds');
  console.table(rows);
}

function defaultTunings(): Record<string, Partial<ControllerTuning>> {
  return {
    default: {},
    'start-up 150 ms': { startupMinMs: 150 },
    'start-up 400 ms': { startupMinMs: 400 },
  };
}
