import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import type { PushRunSettings } from '../../../core-client/src/push/run-options.js';
import type { PlanItem } from '../../../core-client/src/plan/operation.js';
import type { PushEvent } from '../../../core-client/src/push/events.js';
import type { PushSummary } from '../../../core-client/src/summary/push-summary.js';
import { startCoreDouble, type CoreDouble, type CoreDoubleOptions } from '../../core-double/index.js';
import { fastRetry, recordsOf } from './plan-fixtures.js';

export const API_KEY = 'test-api-key-0123456789-abcdefgh';

/** A double, a client for it and a scratch folder, torn down together. */
export interface PushBench {
  core: CoreDouble;
  client: CoreClient;
  dir: string;
  journalPath: string;
  reportPath: string;
  push(items: PlanItem[], options?: Partial<PushRunSettings> & { journalPath?: string | undefined }): Promise<{ summary: PushSummary; events: PushEvent[] }>;
  /** The report's lines, run headers left out. */
  reportLines(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function startPushBench(options: CoreDoubleOptions = {}, apiKey = API_KEY): Promise<PushBench> {
  const core = await startCoreDouble({ apiKeys: [API_KEY], ...options });
  const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(apiKey), requestTimeoutMs: 2_000 });
  const dir = await mkdtemp(join(tmpdir(), 'push-'));
  const journalPath = join(dir, 'push.journal');
  const reportPath = join(dir, 'push.report.ndjson');
  return {
    core,
    client,
    dir,
    journalPath,
    reportPath,
    async push(items, overrides = {}) {
      const events: PushEvent[] = [];
      const summary = await runPush({
        records: recordsOf(items),
        total: items.length,
        client,
        sourceFingerprint: 'sha256:test',
        journalPath,
        reportPath,
        retryPolicy: fastRetry,
        onEvent: (event) => events.push(event),
        ...overrides,
      });
      return { summary, events };
    },
    async reportLines() {
      const text = await readFile(reportPath, 'utf8');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line['stage'] !== 'run');
    },
    async close() {
      await client.close();
      await core.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The operations the double received, as `email` or `thirdPartyId/thirdPartyUserId`. */
export function sentIdentities(core: CoreDouble): string[] {
  return core.requests().map((request) => {
    const body = request.body as { email?: unknown; thirdPartyId?: unknown; thirdPartyUserId?: unknown } | undefined;
    if (typeof body?.thirdPartyId === 'string') return `${body.thirdPartyId}/${String(body.thirdPartyUserId)}`;
    return String(body?.email);
  });
}

/** The store as comparable text: password users with their hash, third-party users with their email. */
export function storeSnapshot(core: CoreDouble): string[] {
  return core
    .users()
    .map((user) =>
      user.kind === 'emailPassword'
        ? `pw ${user.email} ${user.passwordHash} ${user.hashingAlgorithm ?? ''}`
        : user.kind === 'thirdParty'
          ? `tp ${user.thirdPartyId}/${user.thirdPartyUserId} ${user.email} ${String(user.isVerified)}`
          : `pl ${user.phoneNumber ?? ''} ${user.email ?? ''}`,
    )
    .sort();
}

/** Polls until `condition` holds (real time, for a state of the double a test must reach before acting). */
export async function waitFor(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The address of a port nothing listens on (listened on, then closed): a core that is gone. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
