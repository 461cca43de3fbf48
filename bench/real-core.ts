import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { CoreHeaders, CorePaths, REQUEST_CONTENT_TYPE } from '../core-client/src/contract/names.js';
import { CoreClient } from '../core-client/src/http/core-client.js';
import type { PlannedRecord } from '../core-client/src/plan/plan-source.js';
import { type ControllerReading, defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { runPush } from '../core-client/src/push/engine.js';
import { contractOnlyIdentityOptions } from '../core-client/src/push/identity-options.js';
import { Secret } from '../core-client/src/secret.js';

const run = promisify(execFile);
const REAL_CORE = join(import.meta.dirname, '..', '..', 'shared', 'real-core');
/** The real core's default api-key (../shared/real-core/README.md). */
const API_KEY = 'real-core-api-key-0123456789';
const FIXED_LEVELS = [1, 2, 4, 8] as const;
/** What the raw load waits before sending a 500 again. */
const LOCKED_RETRY_MS = 20;

interface RealCore {
  name: string;
  port: number;
  postgresql: boolean;
  /** Users imported before anything is measured (a store that already holds some). */
  holding: number;
}

/** Ports 3901-3919 are this bench's (the brief of issue 29); BENCH_REAL_CORE_PORT moves the first. */
const firstPort = Number(process.env.BENCH_REAL_CORE_PORT ?? 3901);

/**
 * Issue 29: the default push against real cores (../shared/real-core/: in-memory, empty and holding 20,000 users;
 * PostgreSQL), side by side with a raw load at fixed concurrency that sends what a default push sends per user (the
 * lookup, then the import; prebuilt bodies, keep-alive, each 500 sent again after 20 ms). Each figure runs for
 * `seconds`, in the order push, 1, 2, 4, 8, push (the store fills a little with every figure and slows as it fills).
 * The controller's readings of the first push are printed, one line per measurement.
 */
export async function benchRealCore(options: { seconds?: number; holding?: number } = {}): Promise<void> {
  const seconds = options.seconds ?? 8;
  const cores: RealCore[] = [
    { name: 'real in-memory, empty', port: firstPort, postgresql: false, holding: 0 },
    { name: `real in-memory, holding ${options.holding ?? 20_000}`, port: firstPort + 1, postgresql: false, holding: options.holding ?? 20_000 },
    { name: 'real PostgreSQL', port: firstPort + 2, postgresql: true, holding: 0 },
  ];
  const rows: Record<string, string | number>[] = [];
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-real-'));
  let batch = 0;
  try {
    for (const core of cores) {
      const url = await startCore(core);
      try {
        if (core.holding > 0) await rawLoad(url, `fill${(batch += 1)}`, 8, { users: core.holding, lookup: false });
        // The store slows as it fills, so the push runs both before and after the raw levels; their mean is compared.
        const readings: ControllerReading[] = [];
        const pushBefore = await defaultPushFor(url, `push${(batch += 1)}`, seconds * 1000, join(folder, `journal-${batch}`), readings);
        const fixed = new Map<number, number>();
        for (const level of FIXED_LEVELS) fixed.set(level, (await rawLoad(url, `raw${(batch += 1)}`, level, { ms: seconds * 1000, lookup: true })).perSecond);
        const pushAfter = await defaultPushFor(url, `push${(batch += 1)}`, seconds * 1000, join(folder, `journal-${batch}`), []);
        const best = Math.max(...fixed.values());
        const push = (pushBefore.perSecond + pushAfter.perSecond) / 2;
        rows.push({
          core: core.name,
          'push before': Math.round(pushBefore.perSecond),
          ...Object.fromEntries(FIXED_LEVELS.map((level) => [`raw ${level}`, Math.round(fixed.get(level) ?? 0)])),
          'push after': Math.round(pushAfter.perSecond),
          'mean limit': ((pushBefore.meanLimit + pushAfter.meanLimit) / 2).toFixed(1),
          'push ÷ best raw': (push / best).toFixed(2),
        });
        console.log(`\nreal-core: controller readings of the default push, ${core.name}`);
        console.table(
          readings.map((reading) => ({
            mode: reading.mode,
            level: reading.level,
            'in flight': reading.inFlight.toFixed(2),
            'useful/s': Math.round(reading.usefulPerSecond),
            answers: reading.answers,
            'wasted (500s)': reading.answers - reading.useful,
            'vs level': reading.comparedWith ?? '',
            elasticity: reading.elasticity === undefined ? '' : reading.elasticity.toFixed(2),
            next: reading.next,
          })),
        );
      } finally {
        await run(join(REAL_CORE, 'stop.sh'), [String(core.port)]).catch(() => undefined);
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log(`\nreal-core: users per second (lookup then import, bcrypt), ${seconds} s each, measured ${new Date().toISOString()}`);
  console.table(rows);
}

async function startCore(core: RealCore): Promise<string> {
  const { stdout } = await run(join(REAL_CORE, 'start.sh'), [String(core.port), ...(core.postgresql ? ['--postgresql'] : [])], { timeout: 300_000 });
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`real core on ${core.port} did not start: ${stdout}`);
  return url;
}

function userEmail(tag: string, index: number): string {
  return `${tag}-user${index}@example.com`;
}

function bcryptHash(index: number): string {
  return `$2a$10$${String(index).padStart(53, 'N')}`;
}

const headers = { [CoreHeaders.apiKey]: API_KEY, [CoreHeaders.contentType]: REQUEST_CONTENT_TYPE };

/**
 * The raw load: `inFlight` workers over one keep-alive pool, each user its lookup (unless `lookup` is false) then its
 * import, bodies built before the clock starts, a 500 sent again after 20 ms. Runs `users` users or for `ms`.
 */
async function rawLoad(
  url: string,
  tag: string,
  inFlight: number,
  load: { users?: number; ms?: number; lookup: boolean },
): Promise<{ perSecond: number; users: number }> {
  const planned = load.users ?? 100_000;
  const bodies = Array.from({ length: planned }, (_, index) => ({
    lookup: `${CorePaths.userByEmail}?email=${encodeURIComponent(userEmail(tag, index))}`,
    body: JSON.stringify({ email: userEmail(tag, index), passwordHash: bcryptHash(index) }),
  }));
  const pool = new Pool(url, { connections: inFlight, pipelining: 1 });
  const send = async (method: 'GET' | 'POST', path: string, body?: string): Promise<void> => {
    for (;;) {
      const response = await pool.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
      await response.body.text();
      if (response.statusCode === 200) return;
      if (response.statusCode !== 500) throw new Error(`raw load: ${method} ${path} answered ${response.statusCode}`);
      await sleep(LOCKED_RETRY_MS);
    }
  };
  const started = performance.now();
  const deadline = load.ms === undefined ? Number.POSITIVE_INFINITY : started + load.ms;
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < planned && performance.now() < deadline; index = next++) {
      const user = bodies[index];
      if (user === undefined) return;
      if (load.lookup) await send('GET', user.lookup);
      await send('POST', CorePaths.passwordHashImport, user.body);
      done += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    await pool.close();
  }
  return { perSecond: done / ((performance.now() - started) / 1000), users: done };
}

async function* records(tag: string): AsyncGenerator<PlannedRecord> {
  for (let index = 0; ; index += 1) {
    const email = userEmail(tag, index);
    yield {
      location: { file: `bench-${tag}`, line: index + 1 },
      items: [
        {
          kind: 'passwordImport',
          operationKey: `bench-${tag}:L${index + 1}#pw`,
          location: { file: `bench-${tag}`, line: index + 1 },
          email,
          family: 'bcrypt',
          body: { email, passwordHash: bcryptHash(index) },
          exportedCredential: bcryptHash(index),
          warnings: [],
        },
      ],
    };
  }
}

/** The engine with default concurrency and the lookup a default push makes, stopped after `ms` as a Ctrl-C would. */
async function defaultPushFor(
  url: string,
  tag: string,
  ms: number,
  journalPath: string,
  readings: ControllerReading[],
): Promise<{ perSecond: number; meanLimit: number }> {
  const client = new CoreClient({ baseUrl: [url], apiKey: new Secret(API_KEY), connections: defaultConcurrencyLimits.max });
  const limits: number[] = [];
  try {
    const summary = await runPush({
      records: records(tag),
      client,
      identity: { ...contractOnlyIdentityOptions, existing: 'skip', lookup: true },
      sourceFingerprint: 'sha256:bench',
      journalPath,
      signal: AbortSignal.timeout(ms),
      stopGraceMs: 5_000,
      onControllerReading: (reading) => readings.push(reading),
      onEvent: (event) => {
        if (event.type === 'progress') limits.push(event.concurrency);
      },
    });
    const meanLimit = limits.length === 0 ? Number.NaN : limits.reduce((sum, limit) => sum + limit, 0) / limits.length;
    return { perSecond: summary.imported / (summary.elapsedMs / 1000), meanLimit };
  } finally {
    await client.close();
  }
}
