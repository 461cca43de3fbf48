import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Where `start.sh` and `stop.sh` live: `../shared/real-core` beside the repository (as CI lays it out), or
 * `REAL_CORE_DIR` when it is somewhere else.
 */
export const REAL_CORE_DIR = process.env.REAL_CORE_DIR ?? fileURLToPath(new URL('../../../../shared/real-core', import.meta.url));

/** Where start.sh builds the core and keeps each run's files (`run-PORT/`: config, logs). */
const REAL_CORE_HOME = process.env.REAL_CORE_HOME ?? '/tmp/real-core';

/** The storages a real core runs on; `REAL_CORE_STORAGES=memory` narrows a run to one. */
export const STORAGES = ['memory', 'postgresql'] as const;
export type Storage = (typeof STORAGES)[number];

export function storagesToRun(): Storage[] {
  const wanted = process.env.REAL_CORE_STORAGES?.split(',').map((name) => name.trim());
  return wanted === undefined ? [...STORAGES] : STORAGES.filter((storage) => wanted.includes(storage));
}

/** The suite's own key: the core refuses to start with a key shorter than 20 characters. */
export const REAL_CORE_API_KEY = 'real-core-suite-key-0123456789';

export interface RealCore {
  url: string;
  port: number;
  storage: Storage;
  /**
   * Whether the core logged a write refused by its locking store (the in-memory storage's 500 under concurrency), so
   * a test can tell that a push had conflicts to absorb.
   */
  loggedLockConflicts(): Promise<boolean>;
  /** With `logRequests`: every request the core received so far, as `METHOD PATH BODY` (name-proxy.mjs's log). */
  requestsReceived(): Promise<string[]>;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now, chosen by the system, so two runs on one machine never share a core. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('the system gave no port');
  return address.port;
}

/**
 * Starts an empty real core (start.sh; the first start on a machine installs Java with apt and builds, about a
 * minute; later starts about 10 s) on a free port, with the suite's api-key and, when given, the scrypt variant's
 * signer key.
 */
export async function startRealCore(options: { storage: Storage; signerKey?: string; logRequests?: boolean }): Promise<RealCore> {
  const start = `${REAL_CORE_DIR}/start.sh`;
  if (!existsSync(start)) throw new Error(`no real core at ${REAL_CORE_DIR} (set REAL_CORE_DIR to the folder holding start.sh)`);
  // REAL_CORE_PORT: a port of one's own where several runs share a machine (one file at a time uses it).
  const port = process.env.REAL_CORE_PORT === undefined ? await freePort() : Number(process.env.REAL_CORE_PORT);
  const requestLog = `${REAL_CORE_HOME}/requests-${port}.log`;
  const env = {
    ...process.env,
    API_KEY: REAL_CORE_API_KEY,
    SIGNER_KEY: options.signerKey ?? '',
    ...(options.logRequests === true ? { PROXY_LOG: requestLog } : {}),
  };
  const args = options.storage === 'postgresql' ? [String(port), '--postgresql'] : [String(port)];
  const stopCore = async (): Promise<void> => {
    await run(`${REAL_CORE_DIR}/stop.sh`, [String(port)], { timeout: 60_000 });
    await rm(requestLog, { force: true });
  };
  const { stdout } = await run(start, args, { env, timeout: 600_000 }).catch(async (error: unknown) => {
    // A core or proxy a failed start left behind would outlive the suite.
    await stopCore();
    throw error;
  });
  const url = stdout.trim().split('\n').at(-1) ?? '';
  if (url !== `http://127.0.0.1:${port}`) {
    await stopCore();
    throw new Error(`start.sh said ${JSON.stringify(stdout)}, not the core's URL`);
  }
  return {
    url,
    port,
    storage: options.storage,
    loggedLockConflicts: async () => {
      const log = await readFile(`${REAL_CORE_HOME}/run-${port}/error.log`, 'utf8').catch(() => '');
      return log.includes('SQLITE_LOCKED');
    },
    requestsReceived: async () => {
      if (options.logRequests !== true) throw new Error('start the core with logRequests to read what it received');
      const log = await readFile(requestLog, 'utf8').catch(() => '');
      return log.split('\n').filter((line) => line !== '');
    },
    stop: stopCore,
  };
}
