import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LegacyVerifierPool } from '../core-client/src/hashes/legacy/verifier-pool.js';
import { inspectLegacyHash } from '../core-client/src/hashes/legacy/verify-legacy.js';
import { measure, usualHashes } from './legacy-hashes.js';

export const BENCH_SERVICE_KEY = 'bench-login-service-key-0123456789';
export const BENCH_PASSWORD = 'password';

const CHILD = fileURLToPath(new URL('./login-service-child.ts', import.meta.url));
/** Sign-ins sent at once: a few more than the verifier threads, as a busy backend would. */
const CLIENTS = 4;
/** The pause between two /health probes. */
const PROBE_PAUSE_MS = 20;

interface ServiceRow {
  hash: string;
  verifying: string;
  'sign-ins/s': number;
  'service CPU ms each': string;
  'service CPU %': string;
  '/health p50 / p99 / max ms': string;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/**
 * Sign-ins per second through the real HTTP service (its own process, the bench's stand-in for the store), CLIENTS
 * at once, with the CPU time the service's process used (all its threads) and the latency of GET /health probed
 * meanwhile: the figure that shows whether requests that are not verifying are still answered while others verify.
 */
async function benchService(family: 'pbkdf2' | 'bcrypt', mode: 'pool' | 'direct', seconds: number): Promise<ServiceRow> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, family, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done === true) throw new Error('the bench login service exited');
    return line.value;
  };
  const [url = '', threads = '0'] = (await nextLine()).split(' ');
  const cpu = async (): Promise<number> => {
    child.stdin.write('cpu\n');
    const used = JSON.parse(await nextLine()) as { user: number; system: number };
    return (used.user + used.system) / 1000;
  };
  const signIn = async (user: number): Promise<string> => {
    const response = await fetch(`${url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_SERVICE_KEY}` },
      body: JSON.stringify({ email: `user${user}@bench.example`, password: BENCH_PASSWORD }),
    });
    return ((await response.json()) as { outcome: string }).outcome;
  };
  for (let warm = 0; warm < CLIENTS; warm += 1) if ((await signIn(warm)) !== 'migrated') throw new Error('the bench sign-in did not migrate');

  const cpuBefore = await cpu();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let signIns = 0;
  const healthMs: number[] = [];
  const probing = (async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      await (await fetch(`${url}/health`)).arrayBuffer();
      healthMs.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
    }
  })();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_unused, client) => {
      for (let user = client; performance.now() < deadline; user += CLIENTS) {
        if ((await signIn(user)) !== 'migrated') throw new Error('a bench sign-in did not migrate');
        signIns += 1;
      }
    }),
  );
  await probing;
  const elapsedMs = performance.now() - started;
  const cpuMs = (await cpu()) - cpuBefore;
  child.stdin.write('stop\n');
  await new Promise((resolve) => child.on('exit', resolve));
  healthMs.sort((a, b) => a - b);
  return {
    hash: family === 'pbkdf2' ? 'Django PBKDF2-SHA256, 600,000 iterations' : 'Django bcrypt_sha256, cost 12',
    verifying: mode === 'pool' ? `verifier pool (${threads} threads)` : 'on the event loop (no pool)',
    'sign-ins/s': Number(((signIns * 1000) / elapsedMs).toFixed(1)),
    'service CPU ms each': (cpuMs / signIns).toFixed(0),
    'service CPU %': ((cpuMs / elapsedMs) * 100).toFixed(0),
    '/health p50 / p99 / max ms': [0.5, 0.99, 1].map((fraction) => percentile(healthMs, fraction).toFixed(1)).join(' / '),
  };
}

/**
 * Each legacy family's verifications per second through the verifier pool (compare with `legacy-hashes`, which
 * checks on the calling thread), with the CPU each took and how late the event loop ran meanwhile.
 */
export async function benchVerifierPool(secondsEach: number): Promise<void> {
  const pool = new LegacyVerifierPool();
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const { family, cost, hash } of await usualHashes()) {
      if (!inspectLegacyHash(hash).usable) throw new Error(`the bench hash of ${family} is unusable`);
      const { perSecond, cpuMsEach, loopDelay } = await measure(hash, secondsEach, pool.verify);
      rows.push({
        family,
        cost,
        'verifications/s': perSecond >= 100 ? Math.round(perSecond) : Number(perSecond.toFixed(1)),
        'CPU ms each': cpuMsEach.toFixed(cpuMsEach >= 10 ? 0 : 2),
        'loop lateness p50 / max ms': loopDelay,
      });
    }
  } finally {
    await pool.close();
  }
  console.log(
    `\nlegacy hash verification through the verifier pool (${pool.size} threads, 4 in flight, ${secondsEach} s each, ${availableParallelism()} CPUs)`,
  );
  console.table(rows);
}

/** The login-time service's sign-ins per second over real HTTP, with and without the verifier pool. */
export async function benchLoginService(seconds: number): Promise<void> {
  const service: ServiceRow[] = [];
  service.push(await benchService('pbkdf2', 'pool', seconds));
  service.push(await benchService('bcrypt', 'pool', seconds));
  service.push(await benchService('bcrypt', 'direct', seconds));
  console.log(`\nlogin-migration service over HTTP (${CLIENTS} sign-ins at once, ${seconds} s each, /health every ${PROBE_PAUSE_MS} ms meanwhile)`);
  console.table(service);
}
