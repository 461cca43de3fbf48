import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportOperation } from '../core-client/src/plan/operation.js';
import { defaultConcurrencyLimits } from '../core-client/src/push/concurrency.js';
import { type DoubleProcess, type DoubleSettings, startDoubleProcess } from './double-process.js';
import { type Measured, bestOfRounds, enginePush, importOperations } from './push.js';
import { startRoundRobinProxy } from './round-robin-proxy.js';

const REPLICAS = [1, 2, 4] as const;
/**
 * Each simulated core serves 4 requests at once, 50 ms each: about 80 a second. Slow enough that the cores, not the
 * machine's two shared CPUs (which the push, the proxy and every core share), are what four of them are limited by.
 */
const CORE: DoubleSettings = { latencyMs: 50, capacity: 4 };

export interface ServiceSpreadFigures {
  rows: Record<string, string | number>[];
}

/**
 * The push (engine, journal and report, default adaptive concurrency) against N cores behind one address, as a
 * Kubernetes Service puts them: a loopback proxy gives each new connection to the next core. Beside it the same N cores
 * given as N URLs (`--core` again, or a Docker stack's coreUrls), where the client spreads the requests itself. Each
 * core is its own process with its own store (fresh emails: every user is created once, wherever it lands).
 */
export async function benchServiceSpread(options: { quick?: boolean } = {}): Promise<ServiceSpreadFigures> {
  const quick = options.quick === true;
  const rounds = quick ? 1 : 3;
  // About 15 s a push at full speed whatever N, so the controller's climb weighs the same in each.
  const perCore = quick ? 300 : 1_200;
  const cores: DoubleProcess[] = [];
  for (let index = 0; index < Math.max(...REPLICAS); index += 1) cores.push(await startDoubleProcess());
  const folder = await mkdtemp(join(tmpdir(), 'core-migrate-bench-spread-'));
  let batch = 0;
  const fresh = (count: number): ImportOperation[] => importOperations(`s${(batch += 1)}`, count);
  let journals = 0;
  const journal = (): string => join(folder, `journal-${(journals += 1)}`);
  const rows: Record<string, string | number>[] = [];
  try {
    for (const core of cores) await core.configure(CORE);
    // Warm-up: JIT and connections count against no one.
    await enginePush([cores[0]?.url ?? ''], fresh(1_000), journal(), defaultConcurrencyLimits);
    for (const replicas of REPLICAS) {
      const used = cores.slice(0, replicas);
      const operations = perCore * replicas;
      const proxy = await startRoundRobinProxy(used.map((core) => core.url));
      try {
        const contenders = [
          { name: 'one address (round-robin per connection)', run: () => enginePush([proxy.url], fresh(operations), journal(), defaultConcurrencyLimits) },
          {
            name: `${replicas} URL${replicas === 1 ? '' : 's'} (the client spreads)`,
            run: () =>
              enginePush(
                used.map((core) => core.url),
                fresh(operations),
                journal(),
                defaultConcurrencyLimits,
              ),
          },
        ];
        const best: Map<string, Measured> = await bestOfRounds(contenders, rounds, async () => {
          for (const core of used) await core.reset();
        });
        for (const contender of contenders) {
          const figure = best.get(contender.name);
          if (figure === undefined) continue;
          const viaProxy = contender === contenders[0];
          rows.push({
            cores: replicas,
            push: contender.name,
            operations: figure.operations,
            'users/s': Math.round(figure.perSecond),
            'mean limit': figure.meanLimit?.toFixed(1) ?? '',
            // Over every round: what matters is that each core got its share.
            'requests a core': viaProxy ? proxy.requests.join(' / ') : '',
            'connections a core': viaProxy ? proxy.connections.join(' / ') : '',
          });
        }
      } finally {
        await proxy.close();
      }
    }
  } finally {
    await Promise.all(cores.map((core) => core.stop()));
    await rm(folder, { recursive: true, force: true });
  }
  console.log(
    `\nservice-spread: bcrypt imports against N core doubles (own processes, each ${CORE.capacity} at once, ${CORE.latencyMs} ms), users per second, best of ${rounds} interleaved round(s)`,
  );
  console.table(rows);
  return { rows };
}
