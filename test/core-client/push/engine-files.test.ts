import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanItem } from '../../../core-client/src/plan/operation.js';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { API_KEY, startPushBench, waitFor, type PushBench } from './engine-support.js';
import { bcryptOperation, mixedItems, thirdPartyOperation } from './plan-fixtures.js';

function writes(bench: PushBench): number {
  return bench.core.requests().filter((request) => request.method !== 'GET').length;
}

describe('the push engine and its files', () => {
  let bench: PushBench;
  afterEach(async () => {
    await bench.close();
  });

  it('stops (journalNotOnCore) instead of skipping everything when the core at the address was restarted empty', async () => {
    bench = await startPushBench();
    const items = mixedItems(40);
    const first = await bench.push(items);
    const created = first.summary.imported + first.summary.thirdPartyCreated;
    // An in-memory core restarted empty at the same address.
    bench.core.reset();
    const { summary } = await bench.push(items);
    expect(summary.stoppedEarly?.reason).toBe('journalNotOnCore');
    expect(summary.stoppedEarly?.message).toMatch(
      new RegExp(`records ${created} users created by this migration, but the core has only 0: .*restarted empty.*pass a new --journal`),
    );
    expect(summary).toMatchObject({ skipped: 0, imported: 0, total: items.length, notAttempted: items.length - summary.rejected });
    // Read-only: one count, nothing written.
    expect(bench.core.requests().map((request) => `${request.method} ${request.path}`)).toEqual(['GET /users/count']);
  });

  it('a journal of third-party users only is checked too: the core must hold as many users as the journal created', async () => {
    bench = await startPushBench();
    const items = Array.from({ length: 12 }, (_, index) => thirdPartyOperation(index + 1));
    await bench.push(items);
    bench.core.reset();
    const { summary } = await bench.push(items);
    expect(summary.stoppedEarly?.reason).toBe('journalNotOnCore');
    expect(summary).toMatchObject({ skipped: 0, thirdPartyCreated: 0, notAttempted: 12, total: 12 });
    expect(bench.core.users()).toHaveLength(0);
  });

  it('another core with as many users of its own behind the address: a journalled user looked up is missing', async () => {
    bench = await startPushBench();
    const items = mixedItems(40);
    await bench.push(items);
    // Another host now answers at this address; it has more users than the journal created, none of them ours.
    bench.core.reset();
    await bench.push(
      Array.from({ length: 60 }, (_, index) => bcryptOperation(1_000 + index, `stranger${index}@example.com`)),
      { journalPath: undefined },
    );
    const before = bench.core.requests().length;
    const { summary } = await bench.push(items);
    expect(summary.stoppedEarly?.reason).toBe('journalNotOnCore');
    expect(summary.stoppedEarly?.message).toMatch(/records user1@example\.com .* as imported, but the core has no such user.*pass a new --journal/);
    expect(summary).toMatchObject({ skipped: 0, total: items.length });
    expect(
      bench.core
        .requests()
        .slice(before)
        .map((request) => `${request.method} ${request.path}`),
    ).toEqual(['GET /users/count', 'GET /recipe/user?email=user1%40example.com']);
  });

  it('resumes against the same core: the users are counted, a sample of journalled users is looked up, found, and the rest skipped unread', async () => {
    bench = await startPushBench();
    const items = Array.from({ length: 30 }, (_, index) => bcryptOperation(index + 1));
    await bench.push(items);
    bench.core.faults.clearFaults();
    const before = bench.core.requests().length;
    const { summary } = await bench.push(items);
    expect(summary).toMatchObject({ skipped: 30, total: 30 });
    expect(summary.stoppedEarly).toBeUndefined();
    // The count, then the 1st, 2nd, 3rd and 10th journalled users: read-only calls only.
    const reads = bench.core.requests().slice(before);
    expect(reads.map((request) => request.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);
    expect(reads[0]?.path).toBe('/users/count');
    expect(writes(bench)).toBe(30);
  });

  it('a user created by an earlier run whose answer was lost is counted imported on resume, not "hash replaced"', async () => {
    bench = await startPushBench();
    const items: PlanItem[] = [bcryptOperation(1), thirdPartyOperation(2)];
    // The core does both, but both answers stall, and the run is stopped while it waits for them: they are lost.
    bench.core.faults.slowBodyNext(2, 2_500);
    const stop = new AbortController();
    const pushing = bench.push(items, { signal: stop.signal, stopGraceMs: 100 });
    await waitFor(() => bench.core.users().length === 2, 'both users at the core');
    stop.abort();
    const first = await pushing;
    expect(first.summary).toMatchObject({ notAttempted: 2 });
    expect(bench.core.users()).toHaveLength(2);

    const { summary } = await bench.push(items);
    expect(summary).toMatchObject({ imported: 1, thirdPartyCreated: 1, alreadyExisted: 0, thirdPartyExisting: 0, total: 2 });
    const notes = (await bench.reportLines()).filter((line) => line['stage'] === 'core' && line['code'] !== 'transient');
    expect(notes.map((line) => line['code'])).toEqual(expect.arrayContaining(['imported', 'thirdPartyCreated']));
    expect(notes.every((line) => /earlier request of this migration for it was sent and its answer lost/.test(String(line['reason'])))).toBe(true);
  });

  it('a user that truly existed before is still reported as "hash replaced"', async () => {
    bench = await startPushBench();
    await bench.push([bcryptOperation(1)], { journalPath: undefined });
    const { summary } = await bench.push([bcryptOperation(1)]);
    expect(summary).toMatchObject({ alreadyExisted: 1, imported: 0 });
  });

  it("keeps every run's report lines: a resume and a dry run append after a run header", async () => {
    bench = await startPushBench();
    await bench.push([bcryptOperation(1)], { journalPath: undefined });
    await bench.push([bcryptOperation(1), bcryptOperation(2)]);
    await bench.push([bcryptOperation(1), bcryptOperation(2)]);
    await bench.push([bcryptOperation(1), bcryptOperation(2)], { dryRun: true });
    const lines = (await readFile(bench.reportPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line['stage'] === 'run').map((line) => line['dryRun'])).toEqual([false, false, false, true]);
    // The replaced hash of run 2 is still listed after runs 3 and 4.
    expect(lines.filter((line) => line['code'] === 'alreadyExisted')).toHaveLength(1);
  });

  it('stops with sourceChanged when the source check reports a change, and counts every planned operation', async () => {
    bench = await startPushBench();
    const items = Array.from({ length: 50 }, (_, index) => bcryptOperation(index + 1));
    let checks = 0;
    const { summary } = await bench.push(items, {
      concurrency: { initial: 1, min: 1, max: 1 },
      sourceCheck: async () => (++checks >= 1 ? '/data/users.ndjson changed during the push (it was modified).' : undefined),
    });
    expect(summary.stoppedEarly?.reason).toBe('sourceChanged');
    expect(summary.stoppedEarly?.message).toMatch(/changed during the push.*push stopped/);
    expect(summary.total).toBe(50);
  });

  it('stops with sourceChanged when the records end before the count the plan gave, the rest counted not attempted', async () => {
    bench = await startPushBench();
    const items = Array.from({ length: 10 }, (_, index) => bcryptOperation(index + 1));
    const { summary } = await bench.push(items, { total: 25 });
    expect(summary.stoppedEarly).toMatchObject({ reason: 'sourceChanged' });
    expect(summary.stoppedEarly?.message).toMatch(/The plan counted 25 operations but the push read 10/);
    expect(summary).toMatchObject({ imported: 10, notAttempted: 15, total: 25 });
  });
});

/** A core without the user lookup: everything is passed to the double, but `GET /recipe/user` and `GET /users/count` answer 404 as such a core does. */
async function withoutLookup(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    if (incoming.method === 'GET' && ((incoming.url ?? '').startsWith('/recipe/user?') || incoming.url === '/users/count')) {
      outgoing.writeHead(404, { 'content-type': 'text/html;charset=UTF-8' }).end('Not found\n');
      return;
    }
    const forwarded = httpRequest(`${target}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a core without the user lookup', () => {
  it('resumes unchecked, and says so once', async () => {
    const bench = await startPushBench();
    const proxy = await withoutLookup(bench.core.url);
    const client = new CoreClient({ baseUrl: proxy.url, apiKey: new Secret(API_KEY), requestTimeoutMs: 2_000 });
    try {
      const items = Array.from({ length: 12 }, (_, index) => bcryptOperation(index + 1));
      await bench.push(items, { client });
      const { summary, events } = await bench.push(items, { client });
      expect(summary).toMatchObject({ skipped: 12, total: 12 });
      expect(summary.stoppedEarly).toBeUndefined();
      const notes = events.filter((event) => event.type === 'note');
      expect(notes).toEqual([
        { type: 'note', message: expect.stringMatching(/offers no user count \(GET \/users\/count answered 404\)/) },
        { type: 'note', message: expect.stringMatching(/offers no user lookup \(GET \/recipe\/user answered 404\)/) },
      ]);
    } finally {
      await client.close();
      await proxy.close();
      await bench.close();
    }
  });
});
