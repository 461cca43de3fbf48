import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginMigrationAnswerSchema } from '../../../core-client/src/login-time/login-answer.js';
import { HealthAnswerSchema } from '../../../core-client/src/login-time/service/readiness.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, runCli } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const SERVICE_KEY = 'the-login-service-key-of-the-faults-test';
const WRONG_KEY = 'a-wrong-api-key-0123456789-abcdefgh';
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const LogLine = z.looseObject({ path: z.string(), status: z.number(), outcome: z.string().optional(), reason: z.string().optional() });

interface Service {
  child: ChildProcess;
  printed: () => string;
  exit: Promise<number | null>;
}

/**
 * `login-migration serve` as an operator starts it (the built binary, on a store a push wrote), when what it stands on
 * is wrong at its start or fails under it: issue 39's "the service does not start wrong".
 */
describe('core-migrate login-migration serve when its core or its store is wrong', () => {
  let core: CoreDouble;
  let dir: string;
  const services: ChildProcess[] = [];

  function launch(args: string[], apiKey = API_KEY): Service {
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'waiting.sqlite', '--port', '0', ...args], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: apiKey, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    services.push(child);
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const exit = once(child, 'exit').then(([code]) => (typeof code === 'number' ? code : null));
    return { child, printed: () => printed, exit };
  }

  async function serve(): Promise<Service & { url: string }> {
    const service = launch(['--core', core.url]);
    const url = await new Promise<string>((resolve, reject) => {
      service.child.stdout?.on('data', () => {
        const found = /listening on (http:\/\/\S+)/.exec(service.printed())?.[1];
        if (found !== undefined) resolve(found);
      });
      void service.exit.then((code) => reject(new Error(`the service ended (${String(code)}) before listening:\n${service.printed()}`)));
    });
    return { ...service, url };
  }

  async function signIn(url: string): Promise<{ status: number; body: z.infer<typeof LoginMigrationAnswerSchema> }> {
    const answer = await fetch(`${url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
      body: JSON.stringify({ email: 'ada@example.com', password: django.password }),
    });
    return { status: answer.status, body: LoginMigrationAnswerSchema.parse(await answer.json()) };
  }

  async function health(url: string): Promise<{ status: number; body: z.infer<typeof HealthAnswerSchema> }> {
    const answer = await fetch(`${url}/health`);
    return { status: answer.status, body: HealthAnswerSchema.parse(await answer.json()) };
  }

  function logLines(service: Service): z.infer<typeof LogLine>[] {
    return service
      .printed()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => LogLine.parse(JSON.parse(line)));
  }

  /** Waits for the service to log such a line: it writes each after its answer, on a pipe of its own. */
  async function logged(service: Service, line: Partial<z.infer<typeof LogLine>>): Promise<void> {
    await printed(service, () => logLines(service).some((logLine) => Object.entries(line).every(([key, value]) => logLine[key] === value)));
  }

  async function printed(service: Service, seen: () => boolean): Promise<void> {
    if (!seen()) {
      await new Promise<void>((resolve) => {
        const look = (): void => {
          if (!seen()) return;
          service.child.stderr?.off('data', look);
          resolve();
        };
        service.child.stderr?.on('data', look);
      });
    }
    expect(seen()).toBe(true);
  }

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['tenant-a'] });
    dir = await mkdtemp(join(tmpdir(), 'login-migration-faults-'));
    await writeFile(join(dir, 'users.ndjson'), `${JSON.stringify({ id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash })}\n`);
    const push = await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite'], dir);
    expect(push.exitCode, push.stderr).toBe(0);
  });
  afterEach(async () => {
    for (const child of services.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('does not start on a key the core refuses, a core that does not answer, or a tenant it lacks: the pre-flight sentence, exit 3', async () => {
    const gone = await startCoreDouble({ apiKeys: [API_KEY] });
    await gone.close();
    for (const [service, sentence] of [
      [launch(['--core', core.url], WRONG_KEY), /the pre-flight failed, the service does not start\. The core refused the api-key/],
      [launch(['--core', gone.url]), /the pre-flight failed, the service does not start\. .*is it running and reachable\?/],
      [launch(['--core', core.url, '--tenant', 'tenant-b']), /the pre-flight failed, the service does not start\. .*tenant-b/],
    ] as const) {
      expect(await service.exit, service.printed()).toBe(3);
      expect(service.printed()).toMatch(sentence);
      expect(service.printed()).not.toContain('listening');
      for (const secret of [API_KEY, WRONG_KEY, SERVICE_KEY]) expect(service.printed()).not.toContain(secret);
    }
  });

  it('says on /health that it is not ready, and why, while the core does not answer; ready again once it does', async () => {
    const service = await serve();
    expect(await health(service.url)).toEqual({ status: 200, body: { status: 'ok' } });
    const port = new URL(core.url).port;
    await core.close();
    expect(await health(service.url)).toEqual({ status: 503, body: { status: 'notReady', reasons: ['coreUnreachable'] } });
    expect(await signIn(service.url)).toMatchObject({ status: 503, body: { outcome: 'tryLater', reason: 'coreUnreachable' } });
    core = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['tenant-a'], port: Number(port) });
    expect(await health(service.url)).toEqual({ status: 200, body: { status: 'ok' } });
    await logged(service, { path: '/health', status: 503, reason: 'coreUnreachable' });
  });

  it('stops serving a store whose file was removed: tryLater storeUnavailable, not ready, and no user created in the core', async () => {
    const service = await serve();
    await rm(join(dir, 'waiting.sqlite'));
    expect(await signIn(service.url)).toEqual({ status: 503, body: { outcome: 'tryLater', reason: 'storeUnavailable', retryAfterSeconds: 5 } });
    expect(core.emailPasswordUsers()).toEqual([]);
    expect(await health(service.url)).toEqual({ status: 503, body: { status: 'notReady', reasons: ['storeUnavailable'] } });
    await logged(service, { path: '/migrate', status: 503, outcome: 'tryLater', reason: 'storeUnavailable' });
    // And once, for the operator, what happened to it.
    const why = `the waiting store ${join(dir, 'waiting.sqlite')} stopped, as its file was removed while it was open`;
    await printed(service, () => service.printed().includes(why));
    expect(await signIn(service.url)).toMatchObject({ status: 503 });
    await logged(service, { path: '/health', status: 503 });
    expect(service.printed().split(why)).toHaveLength(2);
  });

  it('stops serving a store whose file was replaced by another (a copy put in its place)', async () => {
    const service = await serve();
    await copyFile(join(dir, 'waiting.sqlite'), join(dir, 'copy.sqlite'));
    await rename(join(dir, 'copy.sqlite'), join(dir, 'waiting.sqlite'));
    expect(await signIn(service.url)).toMatchObject({ status: 503, body: { outcome: 'tryLater', reason: 'storeUnavailable' } });
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('answers tryLater storeUnavailable, rather than dying of SIGBUS, when the -shm file SQLite maps is cut short under it; stops cleanly', async () => {
    const service = await serve();
    // The first sign-in maps the store's shared memory; the wrong password changes nothing.
    const wrong = await fetch(`${service.url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
      body: JSON.stringify({ email: 'ada@example.com', password: 'not the password' }),
    });
    expect(LoginMigrationAnswerSchema.parse(await wrong.json())).toEqual({ outcome: 'wrongCredentials' });
    await truncate(join(dir, 'waiting.sqlite-shm'), 0);
    expect(await signIn(service.url)).toMatchObject({ status: 503, body: { outcome: 'tryLater', reason: 'storeUnavailable' } });
    expect(await health(service.url)).toEqual({ status: 503, body: { status: 'notReady', reasons: ['storeUnavailable'] } });
    expect(core.emailPasswordUsers()).toEqual([]);
    service.child.kill('SIGTERM');
    expect(await service.exit, service.printed()).toBe(0);
  });
});
