import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';
import { legacyHashVector } from './hash-vectors.js';

const SIGN_IN_PROCESS = fileURLToPath(new URL('./sign-in-process.ts', import.meta.url));
const API_KEY = 'two-processes-api-key-0123456789';
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

let postgres: TestPostgres;
let core: CoreDouble;

beforeAll(async () => {
  postgres = await startTestPostgres();
  core = await startCoreDouble({ apiKeys: [API_KEY] });
}, 120_000);

afterAll(async () => {
  await core.close();
  await postgres.stop();
});

/** Starts a backend server process and resolves once it is ready to ask; `answer` resolves with what it printed last. */
async function backendServer(store: string, email: string, password: string): Promise<{ child: ChildProcessWithoutNullStreams; answer: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SIGN_IN_PROCESS, store, core.url, API_KEY, email], {
    env: { ...process.env, SIGN_IN_PASSWORD: password },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.startsWith('ready\n')) resolve();
    });
  });
  const answer = new Promise<unknown>((resolve, reject) => {
    child.on('exit', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last));
      else reject(new Error(`the backend process ended with ${String(code)}: ${stderr}`));
    });
  });
  await Promise.race([ready, answer]);
  return { child, answer };
}

describe('two backend servers on one PostgreSQL store', () => {
  it('create a user signing in on both at the same moment once, and both answer migrated', async () => {
    const url = await postgres.newDatabase();
    const store = await openWaitingStore(url);
    await store.park({ email: 'wp@example.com', sourceId: 'wp-7', mapSourceId: true, emailVerified: false, family: 'phpass', legacyHash: phpass.hash });
    core.faults.setLatencyMs(30);
    const servers = await Promise.all([backendServer(url, 'wp@example.com', phpass.password), backendServer(url, 'wp@example.com', phpass.password)]);
    for (const server of servers) server.child.stdin.end('go\n');
    const answers = await Promise.all(servers.map((server) => server.answer));
    expect(answers).toEqual([
      { outcome: 'migrated', userId: 'wp-7' },
      { outcome: 'migrated', userId: 'wp-7' },
    ]);
    expect(core.requests().filter((request) => request.path.endsWith('/recipe/signup'))).toHaveLength(1);
    expect(core.emailPasswordUsers()).toHaveLength(1);
    expect(await store.find('wp@example.com')).toMatchObject({ state: 'migrated', coreUserId: 'wp-7' });
    await store.close();
  });
});
