import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { OldSystemKind } from '../core-client/src/choices.js';
import { readOldSystemSettings } from '../core-client/src/login-time/old-system/old-system-settings.js';
import { openOldSystemVerifier } from '../core-client/src/login-time/old-system/open-old-system.js';
import type { OldSystemVerifier } from '../core-client/src/login-time/old-system/old-system-verifier.js';
import { openWaitingStore } from '../core-client/src/login-time/store/open-store.js';
import { Problem } from '../core-client/src/problem.js';
import { Secret } from '../core-client/src/secret.js';
import { startCognitoLocal, startFirebaseEmulator, type RunningOldSystem } from '../test/support/old-systems.js';
import { BENCH_API_KEY, startDoubleProcess, type DoubleProcess } from './double-process.js';
import { median } from './medians.js';

const CLI = fileURLToPath(new URL('./core-migrate-source.ts', import.meta.url));
/** tsx by its own address: the service runs in the old system's folder, where no node_modules is. */
const TSX = import.meta.resolve('tsx');
const SERVICE_KEY = 'bench-old-systems-service-key-0123456789';
const PASSWORD = 'Bench-old-Passw0rd!';
const FIREBASE_KEY_ENV = 'BENCH_FIREBASE_WEB_API_KEY';
/** Sign-ins at once: one (what a sign-in adds, with nothing waiting beside it), and a few as a busy backend sends. */
const LEVELS = [1, 4] as const;
/** Users signed in before each measure, to open connections and warm the code: never counted. */
const WARM_UP = 4;

interface Measured {
  perSecond: number;
  p50Ms: number;
}

/** The old system under way, with its users made (each with PASSWORD) and the `--verify-with` file that names it. */
interface PreparedOldSystem {
  kind: OldSystemKind;
  name: string;
  running: RunningOldSystem;
  emails: string[];
  env: NodeJS.ProcessEnv;
  cleanUp(): Promise<void>;
}

const email = (index: number): string => `user${index}@bench.example`;

/** Runs `work` for each item, `concurrency` at once, timing each: items per second and the median time of one. */
async function timed<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<Measured> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        const sent = performance.now();
        await work(item);
        times.push(performance.now() - sent);
      }
    }),
  );
  const elapsed = performance.now() - started;
  return { perSecond: (items.length * 1000) / elapsed, p50Ms: median(times) };
}

/** Many at once, a few at a time: the emulators take their admin calls one by one anyway. */
async function inBatches(count: number, make: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += 8) {
    await Promise.all(Array.from({ length: Math.min(8, count - start) }, (_unused, offset) => make(start + offset)));
  }
}

/** The Firebase Auth emulator of a `demo-` project, its users made through its own accounts:signUp. */
async function prepareFirebase(dir: string, users: number): Promise<PreparedOldSystem> {
  const running = await startFirebaseEmulator(dir, `demo-core-migrate-bench-${process.pid}`);
  await inBatches(users, async (index) => {
    const answer = await fetch(`${running.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: email(index), password: PASSWORD }),
    });
    if (!answer.ok) throw new Error(`the emulator's signUp answered ${answer.status}`);
  });
  const endpoint = `${running.url}/identitytoolkit.googleapis.com`;
  await writeFile(join(dir, 'verify.json'), JSON.stringify({ kind: 'firebase', apiKey: { env: FIREBASE_KEY_ENV }, endpoint }));
  const emails = Array.from({ length: users }, (_unused, index) => email(index));
  return {
    kind: 'firebase',
    name: 'Firebase (Auth emulator)',
    running,
    emails,
    env: { [FIREBASE_KEY_ENV]: 'bench-web-api-key' },
    cleanUp: () => running.stop(),
  };
}

/** cognito-local: a pool signing users in by email, an app client with a secret (each call carries its SECRET_HASH). */
async function prepareCognito(dir: string, users: number): Promise<PreparedOldSystem> {
  const running = await startCognitoLocal(join(dir, 'cognito'));
  const admin = new CognitoIdentityProviderClient({
    region: 'eu-west-1',
    endpoint: running.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const pool = await admin.send(new CreateUserPoolCommand({ PoolName: 'bench', UsernameAttributes: ['email'] }));
    const poolId = pool.UserPool?.Id ?? '';
    const client = await admin.send(
      new CreateUserPoolClientCommand({ UserPoolId: poolId, ClientName: 'web', GenerateSecret: true, ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }),
    );
    await inBatches(users, async (index) => {
      const Username = email(index);
      await admin.send(
        new AdminCreateUserCommand({ UserPoolId: poolId, Username, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: Username }] }),
      );
      await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username, Password: PASSWORD, Permanent: true }));
    });
    await writeFile(join(dir, 'cognito-client-secret'), client.UserPoolClient?.ClientSecret ?? '');
    const settings = {
      kind: 'cognito',
      region: 'eu-west-1',
      clientId: client.UserPoolClient?.ClientId,
      clientSecret: { file: 'cognito-client-secret' },
      endpoint: running.url,
    };
    await writeFile(join(dir, 'verify.json'), JSON.stringify(settings));
  } finally {
    admin.destroy();
  }
  const emails = Array.from({ length: users }, (_unused, index) => email(index));
  return { kind: 'cognito', name: 'AWS Cognito (cognito-local)', running, emails, env: {}, cleanUp: () => running.stop() };
}

/** The old system as the service opens it, from the same `--verify-with` file. */
async function openVerifier(dir: string, env: NodeJS.ProcessEnv): Promise<OldSystemVerifier> {
  const settings = await readOldSystemSettings('verify.json', dir);
  if (settings instanceof Problem) throw settings;
  const verifier = await openOldSystemVerifier(settings, { cwd: dir, env });
  if (verifier instanceof Problem) throw verifier;
  return verifier;
}

/** `login-migration serve --verify-with` from the sources, in its own process, as an operator starts it. */
async function startServe(dir: string, core: DoubleProcess, env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<void> }> {
  const args = ['login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url, '--port', '0', '--verify-with', 'verify.json'];
  const child = spawn(process.execPath, ['--conditions=source', '--import', TSX, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, ...env, CORE_API_KEY: BENCH_API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // One log line a sign-in: only the last few kilobytes are kept, for a start that fails.
  let printed = '';
  child.stderr.on('data', (chunk: Buffer) => (printed = (printed + chunk.toString('utf8')).slice(-4096)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`login-migration serve ended (${String(code)}) before listening:\n${printed}`)));
  });
  return {
    url,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function signIn(url: string, address: string): Promise<void> {
  const answer = await fetch(`${url}/migrate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
    body: JSON.stringify({ email: address, password: PASSWORD }),
  });
  const body = (await answer.json()) as { outcome?: string; reason?: string };
  if (body.outcome !== 'migrated') throw new Error(`a bench sign-in was answered ${body.outcome ?? answer.status} ${body.reason ?? ''}`);
}

/**
 * One old system: each level's users are first asked of the old system alone (the verifier the service uses, in this
 * process), then signed in through the service, which asks the old system again and creates them in the core.
 */
async function measureOldSystem(
  prepared: PreparedOldSystem,
  dir: string,
  core: DoubleProcess,
  perLevel: number,
): Promise<Array<Record<string, string | number>>> {
  const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
  try {
    for (const [index, address] of prepared.emails.entries()) {
      await store.park({ email: address, sourceId: `old-${index}`, mapSourceId: true, emailVerified: true, oldSystem: prepared.kind });
    }
  } finally {
    await store.close();
  }
  const verifier = await openVerifier(dir, prepared.env);
  const service = await startServe(dir, core, prepared.env).catch(async (error: unknown) => {
    await verifier.close();
    throw error;
  });
  const rows: Array<Record<string, string | number>> = [];
  try {
    const check = async (address: string): Promise<void> => {
      const verdict = await verifier.check({ email: address, password: new Secret(PASSWORD) });
      if (verdict.outcome !== 'right') throw new Error(`the old system answered ${JSON.stringify(verdict)}`);
    };
    const warm = prepared.emails.slice(0, WARM_UP);
    await timed(warm, WARM_UP, check);
    await timed(warm, WARM_UP, (address) => signIn(service.url, address));
    for (const [level, concurrency] of LEVELS.entries()) {
      const users = prepared.emails.slice(WARM_UP + level * perLevel, WARM_UP + (level + 1) * perLevel);
      const alone = await timed(users, concurrency, check);
      const through = await timed(users, concurrency, (address) => signIn(service.url, address));
      rows.push({
        'old system': prepared.name,
        'at once': concurrency,
        'old system alone /s': Math.round(alone.perSecond),
        'alone p50 ms': alone.p50Ms.toFixed(1),
        'sign-ins through serve /s': Math.round(through.perSecond),
        'sign-in p50 ms': through.p50Ms.toFixed(1),
        'added p50 ms': (through.p50Ms - alone.p50Ms).toFixed(1),
      });
    }
  } finally {
    await service.stop();
    await verifier.close();
  }
  return rows;
}

/**
 * Issue 39: sign-ins of users parked without a hash, through `login-migration serve --verify-with` (its own process,
 * from the sources), against the Firebase Auth emulator and cognito-local (each in its own process, started as the
 * tests start them), the core double in a process of its own. For each, the old system's answer to a right password
 * measured alone (the service's own verifier, from this process) beside the whole sign-in: what the service adds is
 * the claim in the store, the user's creation in the core and its identity steps, and the HTTP hop.
 */
export async function benchOldSystems(options: { perLevel: number }): Promise<void> {
  const users = WARM_UP + LEVELS.length * options.perLevel;
  const core = await startDoubleProcess();
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const prepare of [prepareFirebase, prepareCognito]) {
      const dir = await mkdtemp(join(tmpdir(), 'core-migrate-bench-old-systems-'));
      const prepared = await prepare(dir, users);
      try {
        rows.push(...(await measureOldSystem(prepared, dir, core, options.perLevel)));
      } finally {
        await prepared.cleanUp();
        await rm(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await core.stop();
  }
  console.log(
    `\nlogin-time migration asking the old system (${options.perLevel} users a level, each signed in once; core double; ${availableParallelism()} CPUs)`,
  );
  console.table(rows);
}
