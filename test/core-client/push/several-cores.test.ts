import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { runPreflight } from '../../../core-client/src/connection/preflight.js';
import { journalFitsTarget } from '../../../core-client/src/journal/journal-target.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import type { PushRunSettings } from '../../../core-client/src/push/run-options.js';
import { JournalError } from '../../../core-client/src/journal/journal.js';
import type { PlanItem } from '../../../core-client/src/plan/operation.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, closedPortUrl, storeSnapshot } from './engine-support.js';
import { fastRetry, mixedItems, recordsOf } from './plan-fixtures.js';

describe('a push over several cores that share one database', () => {
  let first: CoreDouble;
  let second: CoreDouble;
  let dir: string;
  const clients: CoreClient[] = [];
  const clientFor = (...urls: string[]): CoreClient => {
    const client = new CoreClient({ baseUrl: urls, apiKey: new Secret(API_KEY), requestTimeoutMs: 2_000 });
    clients.push(client);
    return client;
  };
  const push = (client: CoreClient, items: PlanItem[], options: Partial<PushRunSettings> & { journalPath?: string | undefined } = {}) =>
    runPush({
      records: recordsOf(items),
      total: items.length,
      client,
      sourceFingerprint: 'sha256:test',
      journalPath: join(dir, 'push.journal'),
      retryPolicy: fastRetry,
      ...options,
    });

  beforeEach(async () => {
    first = await startCoreDouble({ apiKeys: [API_KEY] });
    second = await startCoreDouble({ apiKeys: [API_KEY], shareStoreWith: first });
    dir = await mkdtemp(join(tmpdir(), 'push-cores-'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await first.close();
    await second.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('spreads the requests over both cores, and every user ends in the one database exactly once', async () => {
    first.faults.setLatencyMs(2);
    second.faults.setLatencyMs(2);
    const items = mixedItems(150);
    const client = clientFor(first.url, second.url);
    const summary = await push(client, items);
    const sent = items.filter((item) => item.kind !== 'rejection').length;
    expect(summary).toMatchObject({ failed: 0, notAttempted: 0, total: items.length });
    expect(summary.imported + summary.thirdPartyCreated).toBe(sent);
    expect(storeSnapshot(first)).toHaveLength(sent);
    expect(first.requestCount() + second.requestCount()).toBe(sent);
    expect(first.requestCount()).toBeGreaterThan(sent / 4);
    expect(second.requestCount()).toBeGreaterThan(sent / 4);
    expect(client.coreStates().map((state) => state.requests)).toEqual([first.requestCount(), second.requestCount()]);
  });

  it('a core that cannot be reached rests while the other takes every request: nothing fails', async () => {
    const gone = await closedPortUrl();
    const items = mixedItems(60);
    const client = clientFor(gone, first.url);
    const summary = await push(client, items, { retryPolicy: { ...fastRetry, maxAttempts: 2 } });
    expect(summary).toMatchObject({ failed: 0, notAttempted: 0, total: items.length });
    expect(first.requestCount()).toBe(items.filter((item) => item.kind !== 'rejection').length);
    expect(client.coreStates()[0]).toMatchObject({ url: gone, failures: expect.any(Number) as number });
    expect(client.coreStates()[0]?.failures).toBeGreaterThan(0);
  });

  it('the pre-flight checks each core, and fails naming the one that does not answer', async () => {
    const gone = await closedPortUrl();
    const report = await runPreflight(clientFor(first.url, gone));
    expect(report.ok).toBe(false);
    expect(report.steps.map((step) => `${step.core} ${step.name} ${step.status}`)).toEqual([
      `${first.url} reachable ok`,
      `${first.url} keyAccepted ok`,
      `${first.url} tenantExists ok`,
      `${first.url} scryptName ok`,
      `${gone} reachable failed`,
      `${gone} keyAccepted skipped`,
      `${gone} tenantExists skipped`,
      `${gone} scryptName skipped`,
    ]);
    expect(report.failure?.sentence).toContain(gone);
    const both = await runPreflight(clientFor(first.url, second.url));
    expect(both).toMatchObject({ ok: true, target: `${first.url}, ${second.url} (tenant public)` });
  });

  it('one journal: a run over the same cores in another order, fewer or more of them goes on with it; other cores do not', async () => {
    const items = mixedItems(20);
    await push(clientFor(first.url, second.url), items);
    const done = items.filter((item) => item.kind !== 'rejection').length;
    expect((await push(clientFor(second.url, first.url), items)).skipped).toBe(done);
    expect((await push(clientFor(second.url), items)).skipped).toBe(done);
    const third = await startCoreDouble({ apiKeys: [API_KEY], shareStoreWith: first });
    try {
      expect((await push(clientFor(third.url, first.url), items)).skipped).toBe(done);
      const refused = await push(clientFor(third.url), items).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(JournalError);
      expect((refused as JournalError).message).toMatch(/records a push to .*, not to .*any set that includes one of the journal's/);
    } finally {
      await third.close();
    }
  });
});

describe('journalFitsTarget', () => {
  const a = 'http://10.0.0.1:3567';
  const b = 'http://10.0.0.2:3567';
  it('needs the same tenant and app, and at least one core in common', () => {
    expect(journalFitsTarget(`${a} (tenant public)`, `${a} (tenant public)`)).toBe(true);
    expect(journalFitsTarget(`${a}, ${b} (tenant public)`, `${b}, ${a} (tenant public)`)).toBe(true);
    expect(journalFitsTarget(`${a} (tenant public)`, `${a}, ${b} (tenant public)`)).toBe(true);
    expect(journalFitsTarget(`${a}, ${b} (tenant public)`, `${b} (tenant public)`)).toBe(true);
    expect(journalFitsTarget(`${a} (tenant public)`, `${b} (tenant public)`)).toBe(false);
    expect(journalFitsTarget(`${a} (tenant public)`, `${a} (tenant acme)`)).toBe(false);
    expect(journalFitsTarget(`${a} (app shop, tenant public)`, `${a} (tenant public)`)).toBe(false);
    expect(journalFitsTarget('not a description', `${a} (tenant public)`)).toBe(false);
  });
});
