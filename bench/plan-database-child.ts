// Runs under plain Node with --expose-gc, on the compiled core-client (as the CLI runs it): plans the users of a
// database by URL and samples the live heap (after a full GC) as it goes, besides the process's peak RSS.
import { summarisePlan } from 'core-client';

const url = process.argv[2];
if (url === undefined) throw new Error('usage: plan-database-child.ts <postgresql:// URL>');
const collect = (globalThis as { gc?: () => void }).gc;
const liveHeapMiB: number[] = [];
const started = performance.now();
const summary = await summarisePlan(
  url,
  {},
  () => {
    collect?.();
    liveHeapMiB.push(Math.round(process.memoryUsage().heapUsed / 2 ** 20));
  },
  50_000,
);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ records: summary.records, seconds, peakRssKiB: process.resourceUsage().maxRSS, liveHeapMiB }));
