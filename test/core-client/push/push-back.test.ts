import { afterEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { fixedConcurrency } from '../../../core-client/src/push/concurrency.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import { Secret } from '../../../core-client/src/secret.js';
import { defaultContention, LOCKED_TABLE_TEXT } from '../../core-double/contention.js';
import { API_KEY, closedPortUrl, startPushBench, storeSnapshot, type PushBench } from './engine-support.js';
import { bcryptOperation, fastRetry, mixedItems, recordsOf } from './plan-fixtures.js';

/**
 * A core that pushes back (issue 11 item 13, issue 14 item 1): a rate-limit storm, a store that locks, an outage.
 * Operations wait rather than fail while the core pushes back; the push gives up only after the give-up time of
 * nothing useful. Outcomes and counts only: no timing is asserted.
 */
describe('a push against a core that pushes back', () => {
  let bench: PushBench;
  afterEach(async () => {
    await bench.close();
  });

  it('a storm of 429s (Retry-After 1) longer than every attempt of an operation ends with every user imported', async () => {
    bench = await startPushBench();
    const items = mixedItems(60);
    // Two attempts a request: before, the storm used both of every operation in flight, and after ten of them the push
    // stopped as "core unreachable" with nothing imported.
    bench.core.faults.failFor(2_500, { status: 429, retryAfterSeconds: 1 });
    const { summary, events } = await bench.push(items, { retryPolicy: { ...fastRetry, maxAttempts: 2 } });
    expect(summary.stoppedEarly).toBeUndefined();
    expect(summary).toMatchObject({ failed: 0, notAttempted: 0, total: items.length });
    expect(summary.imported + summary.thirdPartyCreated + summary.rejected).toBe(items.length);
    expect(events.some((event) => event.type === 'pushBack' && event.status === 429 && event.retryAfterMs === 1_000)).toBe(true);
  });

  it('a store that locks under load (500 "database table is locked") loses no user, even with few attempts', async () => {
    bench = await startPushBench();
    bench.core.faults.setContention(defaultContention);
    bench.core.faults.setLatencyMs(2);
    const items = Array.from({ length: 80 }, (_, index) => bcryptOperation(index + 1));
    // Sixteen in flight: a third of the writes lose the lock, some of them more than once.
    const { summary } = await bench.push(items, { concurrency: fixedConcurrency(16), retryPolicy: { ...fastRetry, maxAttempts: 2 } });
    expect(summary).toMatchObject({ imported: 80, failed: 0, notAttempted: 0, total: 80 });
    expect(bench.core.requests().filter((request) => request.method === 'POST').length).toBeGreaterThan(80);
    expect(storeSnapshot(bench.core)).toHaveLength(80);
  });

  /** Three users, one request in flight, the first import answered 500 with `body` once: the emails imported, in order. */
  const importOrderAfterOne500 = async (body: string): Promise<string[]> => {
    bench = await startPushBench();
    bench.core.faults.failNext(1, { status: 500, body });
    const items = [1, 2, 3].map((line) => bcryptOperation(line));
    // The longest jitter of each wait (9 ms after a lost lock, 19 ms after a server error): the double answers the
    // other users' imports well within it.
    const { summary } = await bench.push(items, { concurrency: fixedConcurrency(1), retryPolicy: { ...fastRetry, baseDelayMs: 20 }, random: () => 0.99 });
    expect(summary).toMatchObject({ imported: 3, failed: 0 });
    return bench.core.requests().map((request) => JSON.stringify(request.body));
  };

  it('an operation that lost the lock keeps its place while it waits: no other user is sent meanwhile, as the store has too many writers', async () => {
    const sent = await importOrderAfterOne500(LOCKED_TABLE_TEXT);
    expect(sent.map((body) => /user(\d)@/.exec(body)?.[1])).toEqual(['1', '1', '2', '3']);
  });

  it('an operation waiting after a server error holds no place: the next user is sent meanwhile', async () => {
    const sent = await importOrderAfterOne500('java.lang.NullPointerException');
    expect(sent.map((body) => /user(\d)@/.exec(body)?.[1])[1]).toBe('2');
  });

  it('a server error that is not a lock uses the attempts of its own operation, which fails; the others are imported', async () => {
    bench = await startPushBench();
    bench.core.faults.failBodiesContaining('user1@example.com', { status: 500, body: 'java.lang.NullPointerException\n' });
    const items = [bcryptOperation(1), bcryptOperation(2), bcryptOperation(3)];
    const { summary } = await bench.push(items, { concurrency: fixedConcurrency(1), retryPolicy: { ...fastRetry, maxAttempts: 3 } });
    expect(bench.core.requests().filter((request) => request.rawBody.includes('user1@example.com'))).toHaveLength(3);
    expect(summary).toMatchObject({ imported: 2, failed: 1, total: 3 });
    const [line] = await bench.reportLines();
    expect(line).toMatchObject({ code: 'transient', location: 'users.ndjson, line 1' });
    expect(String(line?.['reason'])).toMatch(/after 3 attempts.*NullPointerException/);
  });

  it('gives up after the give-up time of nothing but push-backs, with every operation counted and none failed', async () => {
    bench = await startPushBench();
    bench.core.faults.failFor(60_000, { status: 503 });
    const items = mixedItems(30);
    const { summary } = await bench.push(items, { giveUpAfterMs: 1_000 });
    expect(summary.stoppedEarly?.reason).toBe('coreUnreachable');
    expect(summary.stoppedEarly?.message).toMatch(/answered nothing useful for \d+ s .*503/);
    expect(summary).toMatchObject({ failed: 0, imported: 0, total: items.length });
    expect(summary.notAttempted + summary.rejected).toBe(items.length);
  });
});

describe('a push against a core that is gone', () => {
  it('waits instead of failing operations one after another, and gives up after the give-up time', async () => {
    const client = new CoreClient({ baseUrl: await closedPortUrl(), apiKey: new Secret(API_KEY), requestTimeoutMs: 1_000 });
    try {
      const items = Array.from({ length: 20 }, (_, index) => bcryptOperation(index + 1));
      const summary = await runPush({
        records: recordsOf(items),
        total: items.length,
        client,
        sourceFingerprint: 'sha256:test',
        retryPolicy: { ...fastRetry, maxAttempts: 2 },
        giveUpAfterMs: 1_000,
      });
      expect(summary.stoppedEarly?.reason).toBe('coreUnreachable');
      expect(summary.stoppedEarly?.message).toMatch(/ECONNREFUSED/);
      // Not one operation was failed for the core's absence: all of them are left for a resume.
      expect(summary).toMatchObject({ failed: 0, notAttempted: 20, total: 20 });
    } finally {
      await client.close();
    }
  });
});
