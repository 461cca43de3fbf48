import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool, request } from 'undici';
import { CoreClient } from '../core-client/src/http/core-client.js';
import { CoreHeaders, CorePaths, REQUEST_CONTENT_TYPE } from '../core-client/src/contract/names.js';
import { Secret } from '../core-client/src/secret.js';
import { defaultConcurrencyLimits } from '../core-client/src/push/aimd.js';
import { runPush } from '../core-client/src/push/engine.js';
import type { ImportOperation } from '../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../core-client/src/plan/plan-source.js';

const API_KEY = 'bench-api-key-0123456789-abcdefghij';
const SERVE_FLAG = '--serve-double';

/** N requests per contender at each latency: enough for a steady rate, small enough for a minute or two in all. */
const SCENARIOS = [
  { latencyMs: 0, requests: 20_000, sequentialRequests: 5_000 },
  { latencyMs: 10, requests: 8_000, sequentialRequests: 300 },
] as const;

const WARM_UP_REQUESTS = 1_000;
const ROUNDS = 3;

interface Figure {
  latencyMs: number;
  contender: string;
  requests: number;
  seconds: number;
  perSecond: number;
}

/**
 * Push throughput against the core double, which runs in its own process so it does not share an event loop with
 * the contenders: (1) a naive sequential loop of undici `request`s, (2) a raw load generator (an undici Pool with as
 * many concurrent requests as the engine's ceiling, same bodies), (3) the engine itself, with its journal and report.
 * Every contender sends fresh emails, so every request is a real import.
 */
export async function benchPush(): Promise<Figure[]> {
  const double = await startDoubleProcess();
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-push-'));
  const figures: Figure[] = [];
  let batch = 0;
  const nextEmails = (count: number): ImportOperation[] => {
    batch += 1;
    return importOperations(`b${batch}`, count);
  };
  try {
    for (const scenario of SCENARIOS) {
      await double.setLatency(scenario.latencyMs);
      const contenders: { name: string; requests: number; run: (ops: ImportOperation[]) => Promise<void> }[] = [
        { name: 'sequential loop', requests: scenario.sequentialRequests, run: (ops) => sequentialLoop(double.url, ops) },
        { name: 'raw load generator', requests: scenario.requests, run: (ops) => rawLoad(double.url, ops, defaultConcurrencyLimits.max) },
        { name: 'core-migrate push', requests: scenario.requests, run: (ops) => enginePush(double.url, ops, join(folder, `journal-${batch}`)) },
      ];
      // An unmeasured warm-up each, so JIT compilation and connection set-up count against no one.
      for (const contender of contenders) await contender.run(nextEmails(WARM_UP_REQUESTS));
      // Interleaved rounds, best kept: the machine is shared, and a neighbour's burst should not decide the figure.
      const rates = new Map<string, Figure[]>();
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const contender of contenders) {
          await double.reset();
          const operations = nextEmails(contender.requests);
          const started = performance.now();
          await contender.run(operations);
          const seconds = (performance.now() - started) / 1000;
          const figure = {
            latencyMs: scenario.latencyMs,
            contender: contender.name,
            requests: operations.length,
            seconds,
            perSecond: operations.length / seconds,
          };
          rates.set(contender.name, [...(rates.get(contender.name) ?? []), figure]);
        }
      }
      for (const contender of contenders) {
        const runs = rates.get(contender.name) ?? [];
        const best = runs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
        figures.push(best);
      }
    }
  } finally {
    await double.stop();
    await rm(folder, { recursive: true, force: true });
  }
  printFigures(figures);
  return figures;
}

function importOperations(tag: string, count: number): ImportOperation[] {
  const operations: ImportOperation[] = [];
  for (let line = 1; line <= count; line += 1) {
    const email = `${tag}-user${line}@example.com`;
    operations.push({
      kind: 'passwordImport',
      operationKey: `bench-${tag}:L${line}#pw`,
      location: { file: `bench-${tag}`, line },
      email,
      family: 'bcrypt',
      body: { email, passwordHash: `$2a$10$${String(line).padStart(53, 'N')}` },
      warnings: [],
    });
  }
  return operations;
}

const headers = { [CoreHeaders.apiKey]: API_KEY, [CoreHeaders.contentType]: REQUEST_CONTENT_TYPE };

async function sequentialLoop(url: string, operations: ImportOperation[]): Promise<void> {
  for (const operation of operations) {
    const response = await request(`${url}${CorePaths.passwordHashImport}`, { method: 'POST', headers, body: JSON.stringify(operation.body) });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`sequential loop: status ${response.statusCode}`);
  }
}

async function rawLoad(url: string, operations: ImportOperation[], concurrency: number): Promise<void> {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < operations.length; index = next++) {
      const operation = operations[index];
      if (operation === undefined) return;
      const response = await pool.request({ method: 'POST', path: CorePaths.passwordHashImport, headers, body: JSON.stringify(operation.body) });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`raw load: status ${response.statusCode}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
}

async function enginePush(url: string, operations: ImportOperation[], journalPath: string): Promise<void> {
  const client = new CoreClient({ baseUrl: url, apiKey: new Secret(API_KEY), connections: defaultConcurrencyLimits.max });
  async function* records(): AsyncGenerator<PlannedRecord> {
    for (const operation of operations) yield { location: operation.location, items: [operation] };
  }
  try {
    const summary = await runPush({
      records: records(),
      total: operations.length,
      client,
      sourceFingerprint: 'sha256:bench',
      journalPath,
      reportPath: `${journalPath}.report`,
    });
    if (summary.imported !== operations.length) throw new Error(`engine: ${summary.imported} of ${operations.length} imported`);
  } finally {
    await client.close();
  }
}

function printFigures(figures: Figure[]): void {
  console.log(`\npush: bcrypt imports against the core double (own process), requests per second, best of ${ROUNDS} interleaved rounds`);
  console.table(
    figures.map((figure) => {
      const same = figures.filter((other) => other.latencyMs === figure.latencyMs);
      const raw = same.find((other) => other.contender === 'raw load generator');
      const sequential = same.find((other) => other.contender === 'sequential loop');
      return {
        'latency ms': figure.latencyMs,
        contender: figure.contender,
        requests: figure.requests,
        seconds: figure.seconds.toFixed(2),
        'req/s': Math.round(figure.perSecond),
        'vs raw': raw === undefined ? '' : `${((figure.perSecond / raw.perSecond) * 100).toFixed(0)}%`,
        'vs sequential': sequential === undefined ? '' : `${(figure.perSecond / sequential.perSecond).toFixed(1)}x`,
      };
    }),
  );
}

interface DoubleProcess {
  url: string;
  setLatency(ms: number): Promise<void>;
  /** Forgets users and recorded requests (and faults: set the latency again after it). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs this file as the double's process; it takes `latency <ms>` and `reset` lines on stdin and answers `ok`. */
export async function startDoubleProcess(): Promise<DoubleProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url), SERVE_FLAG], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done === true) throw new Error('the bench double exited');
    return line.value;
  };
  const url = await nextLine();
  let latencyMs = 0;
  const send = async (line: string): Promise<void> => {
    child.stdin!.write(`${line}\n`);
    await nextLine();
  };
  return {
    url,
    async setLatency(ms) {
      latencyMs = ms;
      await send(`latency ${ms}`);
    },
    async reset() {
      await send('reset');
      await send(`latency ${latencyMs}`);
    },
    async stop() {
      child.stdin!.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function serveDouble(): Promise<void> {
  const { startCoreDouble } = await import('../test/core-double/index.js');
  const double = await startCoreDouble({ apiKeys: [API_KEY] });
  process.stdout.write(`${double.url}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, value] = line.split(' ');
    if (command === 'latency') double.faults.setLatencyMs(Number(value));
    if (command === 'reset') double.reset();
    process.stdout.write('ok\n');
  }
  await double.close();
}

if (process.argv.includes(SERVE_FLAG)) await serveDouble();
