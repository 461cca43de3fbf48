import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BENCH_API_KEY = 'bench-api-key-0123456789-abcdefghij';
const SERVE_FLAG = '--serve-double';

/** How a simulated core behaves: added latency, a store that locks, a limit of requests served at once. */
export interface DoubleSettings {
  latencyMs: number;
  contention?: boolean;
  capacity?: number;
}

export interface DoubleProcess {
  url: string;
  setLatency(ms: number): Promise<void>;
  /** Sets every setting at once (those not given are off). */
  configure(settings: DoubleSettings): Promise<void>;
  /** Forgets users and recorded requests, keeping the settings. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The core double in its own process, so that it does not share an event loop with the push it answers. It takes
 * `latency <ms>`, `contention on|off`, `capacity <n>|off` and `reset` lines on stdin and answers `ok` to each.
 */
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
  let settings: DoubleSettings = { latencyMs: 0 };
  const send = async (line: string): Promise<void> => {
    child.stdin!.write(`${line}\n`);
    await nextLine();
  };
  const apply = async (): Promise<void> => {
    await send(`latency ${settings.latencyMs}`);
    await send(`contention ${settings.contention === true ? 'on' : 'off'}`);
    await send(`capacity ${settings.capacity ?? 'off'}`);
  };
  return {
    url,
    async setLatency(ms) {
      settings = { ...settings, latencyMs: ms };
      await send(`latency ${ms}`);
    },
    async configure(next) {
      settings = { ...next };
      await apply();
    },
    async reset() {
      await send('reset');
      await apply();
    },
    async stop() {
      child.stdin!.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function serveDouble(): Promise<void> {
  const { startCoreDouble } = await import('../test/core-double/index.js');
  const { defaultContention } = await import('../test/core-double/contention.js');
  // Nobody reads the requests back: counters only, so memory stays flat however many the bench sends.
  const double = await startCoreDouble({ apiKeys: [BENCH_API_KEY], keepRequests: 0 });
  process.stdout.write(`${double.url}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, value] = line.split(' ');
    if (command === 'latency') double.faults.setLatencyMs(Number(value));
    if (command === 'contention') double.faults.setContention(value === 'on' ? defaultContention : undefined);
    if (command === 'capacity') double.faults.setCapacity(value === 'off' ? undefined : Number(value));
    if (command === 'reset') double.reset();
    process.stdout.write('ok\n');
  }
  await double.close();
}

if (process.argv.includes(SERVE_FLAG)) await serveDouble();
