import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startJunkServer } from '../http/junk-server.js';
import { API_KEY, startPushBench, type PushBench } from './engine-support.js';
import { bcryptOperation, fastRetry, recordsOf } from './plan-fixtures.js';

describe('the push under a hostile Retry-After', () => {
  let bench: PushBench;
  afterEach(async () => {
    await bench.close();
  });

  for (const retryAfter of ['86400', '99999999999']) {
    it(`Retry-After: ${retryAfter} neither freezes the push nor spins: every user is imported`, async () => {
      bench = await startPushBench();
      bench.core.faults.failNext(2, { status: 429, retryAfter });
      const items = Array.from({ length: 6 }, (_, index) => bcryptOperation(index + 1));
      const { summary } = await bench.push(items);
      expect(summary).toMatchObject({ imported: 6, failed: 0, notAttempted: 0 });
    });
  }
});

describe('the first stop returns even with an answer that never ends', () => {
  it('requests stuck in a body that never ends are abandoned after the grace, not journalled', async () => {
    let arrived: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startJunkServer((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
      arrived();
    });
    // A deadline far beyond the test's own timeout: only the stop can end these requests.
    const client = new CoreClient({ baseUrl: server.url, apiKey: new Secret(API_KEY), requestTimeoutMs: 10 * 60_000 });
    const dir = await mkdtemp(join(tmpdir(), 'push-stuck-'));
    try {
      const stop = new AbortController();
      void firstArrived.then(() => stop.abort());
      const summary = await runPush({
        records: recordsOf(Array.from({ length: 4 }, (_, index) => bcryptOperation(index + 1))),
        total: 4,
        client,
        sourceFingerprint: 'sha256:test',
        journalPath: join(dir, 'journal'),
        retryPolicy: fastRetry,
        signal: stop.signal,
        stopGraceMs: 200,
      });
      expect(summary.stoppedEarly?.reason).toBe('interrupted');
      expect(summary).toMatchObject({ imported: 0, failed: 0, notAttempted: 4, total: 4 });
    } finally {
      await client.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
