import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, jsonOf, runCli, signIn } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const SERVICE_KEY = 'the-login-service-key-of-this-test-0123';
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));
const Answer = z.looseObject({ outcome: z.string(), userId: z.string().optional() });

/**
 * Issue 28 with the installed command alone, as an operator runs it: a push parks the users whose hashes the core cannot
 * import, `login-migration serve` (the binary's own, on the push's store and core) migrates them at their first
 * sign-in, and `login-migration status` counts them.
 */
describe('core-migrate login-migration serve on the store a push wrote', () => {
  let core: CoreDouble;
  let dir: string;
  let service: ChildProcess | undefined;
  let output = '';

  async function startService(...extra: string[]): Promise<string> {
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url, '--port', '0', ...extra], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = child;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    return new Promise((resolve, reject) => {
      const seen = (): void => {
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url !== undefined) resolve(url);
      };
      child.stdout.on('data', seen);
      child.once('exit', (code) => reject(new Error(`the service ended (${String(code)}) before listening:\n${output}`)));
    });
  }

  async function migrate(url: string, email: string, password: string): Promise<z.infer<typeof Answer>> {
    const answer = await fetch(`${url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${SERVICE_KEY}` },
      body: JSON.stringify({ email, password }),
    });
    return Answer.parse(await answer.json());
  }

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'login-migration-binary-'));
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', isVerified: true, passwordHash: django.hash },
      { id: 'wp-2', email: 'wp@example.com', passwordHash: phpass.hash },
    ];
    await writeFile(join(dir, 'users.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    output = '';
  });
  afterEach(async () => {
    if (service !== undefined && service.exitCode === null) {
      const exited = once(service, 'exit');
      service.kill('SIGTERM');
      await exited;
    }
    service = undefined;
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a parked Django PBKDF2 user and a phpass user arrive at their first sign-in with their old id; a wrong password changes nothing', async () => {
    const push = await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir);
    expect(jsonOf(push), push.stderr).toMatchObject({ parkedForLogin: 2, failed: 0 });
    // The push says how to start the service, on its own store and core.
    expect(push.stderr).toContain(`login-migration serve --store waiting.sqlite --core ${core.url}`);
    const url = await startService();

    expect(await migrate(url, 'nobody@example.com', 'whatever')).toEqual({ outcome: 'notWaiting' });
    expect(await migrate(url, 'ada@example.com', phpass.wrongPassword)).toEqual({ outcome: 'wrongCredentials' });
    expect(core.emailPasswordUsers()).toEqual([]);

    expect(await migrate(url, 'ada@example.com', django.password)).toEqual({ outcome: 'migrated', userId: 'dj-1' });
    expect(await migrate(url, 'wp@example.com', phpass.password)).toEqual({ outcome: 'migrated', userId: 'wp-2' });
    // The backend signs in again on the core, with the same password: the core hashed it with its own algorithm.
    expect(await signIn(core, 'ada@example.com', django.password)).toBe('OK');
    expect(await signIn(core, 'wp@example.com', phpass.password)).toBe('OK');
    const ada = core.emailPasswordUsers().find((user) => user.email === 'ada@example.com');
    expect(core.identity.externalIdOf(ada?.id ?? '')).toBe('dj-1');
    expect(core.identity.isVerified('dj-1', 'ada@example.com')).toBe(true);

    const status = await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--json'], dir);
    expect(jsonOf(status), status.stderr).toMatchObject({ waiting: 0, migrated: 2 });

    // Neither the passwords nor the legacy hashes were ever printed.
    for (const secret of [django.password, django.hash, phpass.password, phpass.hash, SERVICE_KEY, API_KEY]) expect(output).not.toContain(secret);
  });

  it("the push's closing hint runs as printed: its key line makes the service's key once, and its serve line starts the service with it", async () => {
    // A `core-migrate` on PATH, as an installed one: the hint then names it so.
    await mkdir(join(dir, 'bin'));
    await writeFile(join(dir, 'bin', 'core-migrate'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
    const path = `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}`;
    const push = await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite'], dir, { PATH: path });
    const hint = push.stdout.split('\n');
    const at = hint.findIndex((line) => line.includes('wait in the login-time store'));
    const [keyLine, serveLine] = [hint[at + 1]?.trim() ?? '', hint[at + 2]?.trim() ?? ''];
    expect(serveLine, push.stdout).toMatch(/^core-migrate login-migration serve /);
    const shell = { cwd: dir, env: { ...process.env, PATH: path, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: '' } };
    const made = spawn('sh', ['-c', keyLine], shell);
    expect((await once(made, 'exit'))[0]).toBe(0);
    const key = await readFile(join(dir, 'service.key'), 'utf8');
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(join(dir, 'service.key'))).mode & 0o777).toBe(0o600);
    // Run again, it keeps the key the backend was given.
    const again = spawn('sh', ['-c', keyLine], shell);
    expect((await once(again, 'exit'))[0]).toBe(0);
    expect(await readFile(join(dir, 'service.key'), 'utf8')).toBe(key);

    // The serve line exactly as printed; only a free port is added, as the default one may be taken on this machine.
    const child = spawn('sh', ['-c', `exec ${serveLine} --port 0`], { ...shell, stdio: ['ignore', 'pipe', 'pipe'] });
    service = child;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (found !== undefined) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`the printed command ended (${String(code)}) before listening:\n${output}`)));
    });
    const answer = await fetch(`${url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.trim()}` },
      body: JSON.stringify({ email: 'ada@example.com', password: django.password }),
    });
    expect(Answer.parse(await answer.json())).toEqual({ outcome: 'migrated', userId: 'dj-1' });
  });

  it('a mistyped --store is refused with a sentence and exit 2, before listening, and no store is created', async () => {
    const push = await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite'], dir);
    expect(push.exitCode, push.stderr).toBe(0);
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'wating.sqlite', '--core', core.url, '--port', '0'], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, printed).toBe(2);
    expect(printed).toContain(`core-migrate login-migration serve: the waiting store ${join(dir, 'wating.sqlite')} does not exist`);
    expect(printed).not.toContain('listening');
    await expect(stat(join(dir, 'wating.sqlite'))).rejects.toThrow();
  });

  it('a store that is not there (here from LOGIN_MIGRATION_STORE, as the infra gives it) is a sentence and exit 2, before listening', async () => {
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--core', core.url, '--port', '0'], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY, LOGIN_MIGRATION_STORE: 'postgresql://127.0.0.1:1/none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/the waiting store postgresql:\/\/127\.0\.0\.1:1\/none cannot be opened/);
  });

  it('without --port it listens on LOGIN_MIGRATION_PORT (the image sets it, and its health check reads it)', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const address = free.address();
    await new Promise((resolve) => free.close(resolve));
    const port = address !== null && typeof address === 'object' ? address.port : 0;
    await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir);
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY, LOGIN_MIGRATION_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = child;
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => printed.includes('listening on') && resolve());
      child.once('exit', (code) => reject(new Error(`the service ended (${String(code)}) before listening:\n${printed}`)));
    });
    expect(printed).toContain(`listening on http://127.0.0.1:${port} `);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it("the core's api-key as the service's key is refused: a sentence and exit 2, the key never printed", async () => {
    const child = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url, '--port', '0'], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, printed).toBe(2);
    expect(printed).toContain("the service's key is the core's api-key");
    expect(printed).not.toContain(API_KEY);
  });
});
