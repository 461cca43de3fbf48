import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { PushControl } from '../../../core-client/src/push/control.js';
import type { ImportOperation, PlanItem } from '../../../core-client/src/plan/operation.js';
import { API_KEY, sentIdentities, startPushBench, storeSnapshot, type PushBench } from './engine-support.js';
import { bcryptOperation, mixedItems, planRejection, scryptOperation, thirdPartyOperation } from './plan-fixtures.js';

const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';

function expectedStore(items: PlanItem[]): string[] {
  return items
    .filter((item): item is ImportOperation => item.kind !== 'rejection')
    .map((item) =>
      item.kind === 'passwordImport'
        ? `pw ${item.body.email} ${item.body.passwordHash} ${item.body.hashingAlgorithm ?? ''}`
        : item.kind === 'thirdPartySignInUp'
          ? `tp ${item.body.thirdPartyId}/${item.body.thirdPartyUserId} ${item.body.email.id} true`
          : `pl ${JSON.stringify(item.body)}`,
    )
    .sort();
}

/** Requests that can change the core (the journal's check of a sample of users only reads). */
function writes(bench: PushBench): number {
  return bench.core.requests().filter((request) => request.method !== 'GET').length;
}

describe('runPush against the core double', () => {
  let bench: PushBench;
  afterEach(async () => {
    await bench.close();
  });

  it('a mixed plan ends with the double holding exactly the expected users, every operation counted once', async () => {
    bench = await startPushBench();
    const items = mixedItems(120);
    const { summary, events } = await bench.push(items);

    expect(storeSnapshot(bench.core)).toEqual(expectedStore(items));
    const rejected = items.filter((item) => item.kind === 'rejection').length;
    const thirdParty = items.filter((item) => item.kind === 'thirdPartySignInUp').length;
    expect(summary).toMatchObject({
      imported: items.length - rejected - thirdParty,
      thirdPartyCreated: thirdParty,
      rejected,
      failed: 0,
      skipped: 0,
      notAttempted: 0,
      alreadyExisted: 0,
      total: items.length,
    });
    expect(bench.core.requests()).toHaveLength(items.length - rejected);
    expect(events.at(-1)?.type).toBe('finished');
    expect(events.some((event) => event.type === 'progress')).toBe(true);

    const report = await bench.reportLines();
    expect(report).toHaveLength(rejected);
    expect(report[0]).toMatchObject({ stage: 'plan', location: 'users.ndjson, line 11', email: 'broken11@example.com', code: 'unusableHash' });
  });

  it('says when a user already existed (its hash replaced) and when a third-party user existed', async () => {
    bench = await startPushBench();
    await bench.push([bcryptOperation(1), thirdPartyOperation(2)], { journalPath: undefined });
    const { summary } = await bench.push([bcryptOperation(1), thirdPartyOperation(2)], { journalPath: undefined });
    expect(summary).toMatchObject({ alreadyExisted: 1, thirdPartyExisting: 1, imported: 0, thirdPartyCreated: 0, total: 2 });
    const report = await bench.reportLines();
    expect(report.map((line) => line.code)).toEqual(expect.arrayContaining(['alreadyExisted', 'thirdPartyExisting']));
    expect(JSON.stringify(report)).toMatch(/REPLACED its password hash/);
  });

  it('a 400 is final for its record, carries the core text, and is journalled so an unchanged record is not re-sent', async () => {
    bench = await startPushBench();
    const bad: ImportOperation = { ...bcryptOperation(3), body: { email: 'x@example.com', passwordHash: 'not-a-hash' } };
    const items = [bcryptOperation(1), bcryptOperation(2), bad];
    const { summary } = await bench.push(items);
    expect(summary).toMatchObject({ imported: 2, failed: 1, total: 3 });
    const lines = await bench.reportLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ stage: 'core', code: 'recordRejected', location: 'users.ndjson, line 3' });
    expect(String(lines[0]?.reason)).toMatch(/Password hash is in invalid format/);
    expect(bench.core.requests().filter((request) => (request.body as { email?: string }).email === 'x@example.com')).toHaveLength(1);

    const writesBefore = writes(bench);
    const resumed = await bench.push(items);
    expect(resumed.summary).toMatchObject({ skipped: 2, failed: 1, total: 3 });
    expect(writes(bench)).toBe(writesBefore);
    expect(String((await bench.reportLines()).at(-1)?.reason)).toMatch(/earlier run/);

    const fixed: ImportOperation = { ...bcryptOperation(3), body: { email: 'x@example.com', passwordHash: bcryptOperation(9).body.passwordHash } };
    const afterFix = await bench.push([bcryptOperation(1), bcryptOperation(2), fixed]);
    expect(afterFix.summary).toMatchObject({ skipped: 2, imported: 1, failed: 0, total: 3 });
  });

  it('429 storms with Retry-After, 500 bursts, dropped connections and a slow core: every record accounted for', async () => {
    bench = await startPushBench();
    const items = mixedItems(200);
    bench.core.faults.setLatencyMs(3);
    bench.core.faults.failNext(30, { status: 429, retryAfterSeconds: 1 });
    bench.core.faults.failRequestNumber(80, { status: 500 });
    bench.core.faults.failRequestNumber(81, { status: 503 });
    bench.core.faults.failRequestNumber(82, { status: 502 });
    bench.core.faults.failRequestNumber(120, { drop: true });
    bench.core.faults.failRequestNumber(121, { drop: true });
    // From 16 in flight, as this scenario was written: the 30 answers of 429 come in two waves. (From the default
    // start of 4 they come in eight and more, each held 1 s by its Retry-After: the same ends, seconds later.)
    const { summary, events } = await bench.push(items, { concurrency: { initial: 16, min: 1, max: 64 } });

    expect(storeSnapshot(bench.core)).toEqual(expectedStore(items));
    expect(summary.failed).toBe(0);
    expect(summary.notAttempted).toBe(0);
    expect(summary.total).toBe(items.length);
    const pushBacks = events.filter((event) => event.type === 'pushBack');
    expect(pushBacks.some((event) => event.type === 'pushBack' && event.retryAfterMs === 1_000)).toBe(true);
    // The limit was cut below its starting point at least once.
    expect(Math.min(...pushBacks.map((event) => (event.type === 'pushBack' ? event.concurrency : Infinity)))).toBeLessThan(16);

    // Retry-After was honoured: after the storm, no request came sooner than ~1 s after the first 429.
    const requests = bench.core.requests();
    expect(requests.length).toBeGreaterThan(items.length);
  });

  it('a slow body beyond the timeout is retried like any transient failure', async () => {
    bench = await startPushBench();
    bench.core.faults.slowBodyNext(1, 2_500);
    const items = [bcryptOperation(1), bcryptOperation(2), bcryptOperation(3)];
    const { summary } = await bench.push(items, { concurrency: { initial: 1, min: 1, max: 1 } });
    // The core did the first import before its answer stalled: the retry finds the user there (imports are
    // idempotent). That user was created by this migration, so it is counted imported, never "hash replaced".
    expect(summary).toMatchObject({ imported: 3, alreadyExisted: 0, failed: 0, total: 3 });
    expect(storeSnapshot(bench.core)).toEqual(expectedStore(items));
    const lines = await bench.reportLines();
    expect(lines).toHaveLength(1);
    expect(String(lines[0]?.reason)).toMatch(/earlier request of this migration for it was sent and its answer lost/);
  });

  it('a 401 stops the whole run at once', async () => {
    bench = await startPushBench({}, 'a-wrong-api-key-0123456789-abcdef');
    const items = mixedItems(300);
    const { summary, events } = await bench.push(items, { concurrency: { initial: 4, min: 1, max: 4 } });
    expect(summary.stoppedEarly?.reason).toBe('authRejected');
    expect(summary.stoppedEarly?.message).toMatch(/api-key/);
    expect(events.some((event) => event.type === 'authRejected')).toBe(true);
    expect(bench.core.requests().length).toBeLessThanOrEqual(4);
    expect(summary.total).toBe(items.length);
    expect(summary.imported + summary.failed).toBe(0);
    expect(JSON.stringify(events)).not.toContain('a-wrong-api-key');
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it('the first scrypt user goes alone; without a signer key the push stops after that one request', async () => {
    bench = await startPushBench();
    const items = [scryptOperation(1), bcryptOperation(2), scryptOperation(3), bcryptOperation(4)];
    const { summary, events } = await bench.push(items);
    expect(bench.core.requests()).toHaveLength(1);
    expect(summary.stoppedEarly?.reason).toBe('signerKeyMissing');
    expect(summary.stoppedEarly?.message).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(events.some((event) => event.type === 'signerKeyMissing')).toBe(true);
    expect(summary).toMatchObject({ notAttempted: 4, total: 4 });
  });

  it('drains what is in flight before the scrypt probe, and goes on when the core has the signer key', async () => {
    bench = await startPushBench({ signerKey: SIGNER_KEY });
    const items = [bcryptOperation(1), bcryptOperation(2), scryptOperation(3), scryptOperation(4), thirdPartyOperation(5)];
    const { summary, events } = await bench.push(items);
    expect(summary).toMatchObject({ imported: 4, thirdPartyCreated: 1, total: 5 });
    expect(events.filter((event) => event.type === 'probe')).toHaveLength(1);
    expect(storeSnapshot(bench.core)).toEqual(expectedStore(items));
  });

  it('stops taking operations on interrupt, journals what was answered, and a resume sends only the rest', async () => {
    bench = await startPushBench();
    bench.core.faults.setLatencyMs(5);
    const items = mixedItems(400);
    const interrupt = new AbortController();
    const first = await bench.push(items, {
      signal: interrupt.signal,
      concurrency: { initial: 4, min: 1, max: 4 },
      onEvent: (event) => {
        if (event.type === 'progress' && event.done >= 40) interrupt.abort();
      },
      progressIntervalMs: 10,
    });
    expect(first.summary.stoppedEarly?.reason).toBe('interrupted');
    expect(first.summary.notAttempted).toBeGreaterThan(0);
    expect(first.summary.total).toBe(items.length);
    const sentBefore = new Set(sentIdentities(bench.core));

    bench.core.faults.setLatencyMs(0);
    const countBefore = bench.core.requests().length;
    const second = await bench.push(items);
    const sentAfter = sentIdentities(bench.core).slice(countBefore);
    for (const identity of sentAfter) expect(sentBefore.has(identity)).toBe(false);
    expect(second.summary.skipped).toBe(sentBefore.size);
    expect(storeSnapshot(bench.core)).toEqual(expectedStore(items));
    expect(second.summary.total).toBe(items.length);
  });

  it('pauses and resumes on request', async () => {
    bench = await startPushBench();
    const control = new PushControl();
    control.pause();
    const running = bench.push(mixedItems(20), { control });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bench.core.requests()).toHaveLength(0);
    control.resume();
    const { summary } = await running;
    expect(summary.imported + summary.thirdPartyCreated).toBe(bench.core.requests().length);
  });

  it('a dry run reads the journal and sends nothing', async () => {
    bench = await startPushBench();
    const items = [bcryptOperation(1), bcryptOperation(2), planRejection(3)];
    await bench.push(items.slice(0, 1));
    const writesBefore = writes(bench);
    const { summary } = await bench.push(items, { dryRun: true });
    expect(writes(bench)).toBe(writesBefore);
    expect(summary).toMatchObject({ dryRun: true, skipped: 1, notAttempted: 1, rejected: 1, total: 3 });
  });

  it('never writes a hash, a password or the api-key to the journal or the report', async () => {
    bench = await startPushBench();
    const items = mixedItems(60);
    bench.core.faults.failNext(3, { status: 400, body: 'Password hash is in invalid format\n' });
    await bench.push(items);
    const written = `${await readFile(bench.journalPath, 'utf8')}\n${await readFile(bench.reportPath, 'utf8')}`;
    expect(written).not.toContain(API_KEY);
    for (const item of items) {
      if (item.kind === 'passwordImport') {
        expect(written).not.toContain(item.body.passwordHash);
        expect(written).not.toContain(item.body.passwordHash.slice(7));
      }
    }
    expect(written).not.toContain('$2a$');
  });
});
