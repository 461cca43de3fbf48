import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitingUsersFromFixtures } from '../../support/login-migrate-fixture.js';

const CHILD = fileURLToPath(new URL('./login-serve-child.ts', import.meta.url));
const FAMILIES = ['django_pbkdf2_sha256', 'phpass', 'passlib_bcrypt_sha256', 'sha512_crypt'];
const users = waitingUsersFromFixtures(FAMILIES);
const SERVICE_KEY = 'a-long-service-key-for-the-tests-0123';

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function launch(args: string[], env: NodeJS.ProcessEnv = { LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY }): Omit<Running, 'url'> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, 'login-migration', 'serve', ...args], {
    env: { ...process.env, LOGIN_MIGRATION_SERVICE_KEY: '', ...env, FIXTURE_FAMILIES: FAMILIES.join(',') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Starts the service on a free port of 127.0.0.1 and resolves once it printed its URL. */
async function serve(args: string[] = [], env?: NodeJS.ProcessEnv): Promise<Running> {
  const running = launch(['--port', '0', ...args], env);
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(running.stdout());
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    running.child.stdout?.on('data', look);
    void running.exit.then((code) => reject(new Error(`the service ended (${code}) before listening: ${running.stderr()}`)));
  });
  return { ...running, url };
}

async function signIn(url: string, body: unknown, key = SERVICE_KEY): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/migrate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}

function user(family: string): (typeof users)[number] {
  const found = users.find((candidate) => candidate.family === family);
  if (found === undefined) throw new Error(family);
  return found;
}

describe('core-migrate login-migration serve, as a process over real HTTP', () => {
  it('listens on 127.0.0.1, migrates the right password, refuses a wrong one and a wrong key, and stops cleanly on SIGTERM', async () => {
    const service = await serve();
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const django = user('django_pbkdf2_sha256');
    const phpass = user('phpass');
    expect(await signIn(service.url, { email: django.email, password: 'wrong horse' })).toMatchObject({ status: 200, body: { outcome: 'wrongCredentials' } });
    expect(await signIn(service.url, { email: django.email, password: django.password })).toMatchObject({
      status: 200,
      body: { outcome: 'migrated', userId: django.oldId },
    });
    expect(await signIn(service.url, { email: phpass.email, password: phpass.password })).toMatchObject({ body: { outcome: 'migrated' } });
    expect((await signIn(service.url, { email: phpass.email, password: phpass.password }, 'another-key-of-enough-length')).status).toBe(401);
    expect((await fetch(`${service.url}/health`)).status).toBe(200);

    service.child.kill('SIGTERM');
    expect(await service.exit).toBe(0);
    expect(service.stderr()).toContain('stopped.');
    const logLines = service
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logLines.map((line) => [line['path'], line['status'], line['outcome']])).toEqual([
      ['/migrate', 200, 'wrongCredentials'],
      ['/migrate', 200, 'migrated'],
      ['/migrate', 200, 'migrated'],
      ['/migrate', 401, 'refused'],
      ['/health', 200, undefined],
    ]);
    const everything = service.stdout() + service.stderr();
    for (const secret of [django.password, django.hash, phpass.password, phpass.hash, django.email, phpass.email, 'wrong horse', SERVICE_KEY]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('locks an email out after the wrong passwords its flags allow, with Retry-After', async () => {
    const service = await serve(['--max-failures-per-email', '2', '--failure-window', '60']);
    const crypt = user('sha512_crypt');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await signIn(service.url, { email: crypt.email, password: `guess ${attempt}` })).body['outcome']).toBe('wrongCredentials');
    }
    const locked = await signIn(service.url, { email: crypt.email, password: crypt.password });
    expect(locked).toMatchObject({ status: 429, body: { outcome: 'tryLater', reason: 'tooManyAttempts' } });
    // What is left of the 60-second window that began at the first failure (the process's own clock runs).
    const seconds = Number(locked.body['retryAfterSeconds']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(locked.retryAfter).toBe(String(seconds));
  });

  it('answers concurrent sign-ins each for itself, and refuses bad and huge bodies without echoing them', async () => {
    const service = await serve(['--verifiers', '2']);
    const answers = await Promise.all(users.map((waiting) => signIn(service.url, { email: waiting.email, password: waiting.password })));
    expect(answers.map((answer) => answer.body)).toEqual(users.map((waiting) => ({ outcome: 'migrated', userId: waiting.oldId })));

    const bad = await fetch(`${service.url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
      body: '{"email": "a@example.com", "password": "half-sent-secret"',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain('half-sent-secret');
    const huge = await fetch(`${service.url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(100_000) }),
    }).catch((error: unknown) => error);
    if (!(huge instanceof Error)) expect(huge).toMatchObject({ status: 413 });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect(service.stderr()).not.toContain('half-sent-secret');
  });

  it('reads its own key from --service-key-file, and will not start without a key or with a short one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'login-serve-'));
    dirs.push(dir);
    const keyFile = join(dir, 'service.key');
    await writeFile(keyFile, `${SERVICE_KEY}\n`, { mode: 0o600 });
    const withFile = await serve(['--service-key-file', keyFile], {});
    expect((await fetch(`${withFile.url}/health`)).status).toBe(200);
    expect((await signIn(withFile.url, { email: 'nobody@example.com', password: 'x' })).body).toEqual({ outcome: 'notWaiting' });

    const noKey = launch(['--port', '0'], {});
    expect(await noKey.exit).toBe(2);
    expect(noKey.stderr()).toContain('--service-key-file');
    expect(noKey.stderr()).toContain('LOGIN_MIGRATION_SERVICE_KEY');

    const shortKey = launch(['--port', '0'], { LOGIN_MIGRATION_SERVICE_KEY: 'short' });
    expect(await shortKey.exit).toBe(2);
    expect(shortKey.stderr()).toContain('shorter than 16 characters');
    expect(shortKey.stderr()).not.toContain('short\n');

    const badPort = launch(['--port', 'eighty']);
    expect(await badPort.exit).toBe(2);
    expect(badPort.stderr()).toContain('--port');

    // A port another process holds: a sentence and exit 2, not a crash.
    const taken = launch(['--port', new URL(withFile.url).port]);
    expect(await taken.exit).toBe(2);
    expect(taken.stderr()).toContain('cannot listen on 127.0.0.1');
    expect(taken.stderr()).toContain('EADDRINUSE');
  });
});
