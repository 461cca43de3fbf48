import { planSource, type PlanOptions } from './plan-source.js';
import { PlanTally, type PlanSummary } from './summary.js';

/** Reads the whole source once and counts its plan; `onProgress` is called with the tally every `progressEvery` records. */
export async function summarisePlan(
  path: string,
  options: PlanOptions = {},
  onProgress?: (tally: PlanTally) => void,
  progressEvery = 10_000,
): Promise<PlanSummary> {
  const tally = new PlanTally(options.roles?.from);
  for await (const record of planSource(path, options)) {
    tally.addRecord(record);
    if (onProgress !== undefined && tally.records % progressEvery === 0) onProgress(tally);
  }
  onProgress?.(tally);
  return tally.summary();
}
