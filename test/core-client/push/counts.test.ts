import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushEvent } from '../../../core-client/src/push/events.js';
import { LOCKED_TABLE_TEXT } from '../../core-double/contention.js';
import { startPushBench, type PushBench } from './engine-support.js';
import { bcryptOperation, planRejection } from './plan-fixtures.js';

type Progress = Extract<PushEvent, { type: 'progress' }>;

describe('counts that mean one thing (issue 25, item 4)', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
  });
  afterEach(async () => {
    await bench.close();
  });

  it('a push stopped part-way counts the plan rejections it never read as rejected, and its progress does not reach 100 %', async () => {
    const items = [...Array.from({ length: 20 }, (_, index) => bcryptOperation(index + 1)), ...[21, 22, 23, 24, 25].map(planRejection)];
    bench.core.faults.setLatencyMs(20);
    const stop = new AbortController();
    const { summary } = await bench.push(items, {
      plannedRejections: { rejected: 5, disabledSkipped: 0 },
      concurrency: { initial: 1, min: 1, max: 1 },
      progressIntervalMs: 5,
      onEvent: (event) => {
        if (event.type === 'progress' && event.counts.imported >= 3) stop.abort();
      },
      signal: stop.signal,
    });
    expect(summary.stoppedEarly?.reason).toBe('interrupted');
    expect(summary.rejected).toBe(5);
    expect(summary.imported).toBeLessThan(20);
    expect(summary.notAttempted).toBe(20 - summary.imported);
    expect(summary.total).toBe(25);
  });

  it('the last progress after a stop says how many operations ended, not the whole plan', async () => {
    const items = Array.from({ length: 20 }, (_, index) => bcryptOperation(index + 1));
    bench.core.faults.setLatencyMs(20);
    const stop = new AbortController();
    const progress: Progress[] = [];
    const { summary } = await bench.push(items, {
      concurrency: { initial: 1, min: 1, max: 1 },
      progressIntervalMs: 5,
      onEvent: (event) => {
        if (event.type !== 'progress') return;
        progress.push(event);
        if (event.counts.imported >= 3) stop.abort();
      },
      signal: stop.signal,
    });
    const last = progress.at(-1);
    expect(summary.notAttempted).toBeGreaterThan(0);
    expect(last?.done).toBe(summary.total - summary.notAttempted);
    expect(last?.done).toBeLessThan(20);
  });

  it('requests sent again after a lock conflict are counted as retries, each operation still once', async () => {
    bench.core.faults.failNext(3, { status: 500, body: LOCKED_TABLE_TEXT });
    const { summary } = await bench.push([bcryptOperation(1), bcryptOperation(2)], { concurrency: { initial: 1, min: 1, max: 1 } });
    expect(summary).toMatchObject({ imported: 2, failed: 0, total: 2, retries: 3 });
  });
});
