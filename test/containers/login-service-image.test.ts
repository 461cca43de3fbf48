import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';
import { legacyHashVector } from '../core-client/login-time/hash-vectors.js';
import { openWaitingStore } from '../../core-client/src/login-time/store/open-store.js';
import { API_KEY, signIn } from '../tui/commands/push-support.js';
import { docker } from './support/docker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = 'core-migrate-under-test:latest';
const STORE_DIRECTORY = '/var/lib/core-migrate';
/** The image's default LOGIN_MIGRATION_STORE, which `serve` reads; `push` and `status` are given it. */
const STORE = `${STORE_DIRECTORY}/login-store.sqlite`;
const SERVICE_KEY = 'the-login-service-key-of-the-image-test';
/** The grace `docker stop` gives before SIGKILL: an exit code of 0 (not 137) says the service ended itself within it. */
const STOP_GRACE_SECONDS = 30;
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

const Answer = z.looseObject({ outcome: z.string(), userId: z.string().optional() });
const ImageConfig = z.object({
  User: z.string(),
  Entrypoint: z.array(z.string()),
  Cmd: z.array(z.string()),
  StopSignal: z.string(),
  Volumes: z.record(z.string(), z.unknown()),
  Healthcheck: z.object({ Test: z.array(z.string()) }),
});

/** A port free on the host's loopback now, for a service that cannot take port 0 (its health check must know it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Issue 42: the project's image, built from the repository's Dockerfile on the suite's own engine (on a base made from
 * Debian, as no registry can be reached), running `login-migration serve` with its SQLite store on a named volume.
 *
 * Every container here runs on the host's network: the core double listens on the host's 127.0.0.1, and traffic may go
 * only to loopback, never to a private-range address such as a bridge network's gateway (the engine has no bridge).
 */
describe('the core-migrate image on a real Docker engine', () => {
  const host = inject('dockerHost');
  const volume = `core-migrate-store-${process.pid}`;
  const containers: string[] = [];
  let core: CoreDouble;
  let exportDir: string;
  let port: number;
  let url: string;
  const secrets = { CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY };

  const inspect = async (target: string, format: string): Promise<string> => (await docker(host, ['inspect', '--format', format, target])).stdout.trim();

  /** `login-migration serve` in a new container on the volume, the image's own command and health check. */
  async function startService(name: string): Promise<void> {
    containers.push(name);
    await docker(
      host,
      [
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        '--volume',
        `${volume}:${STORE_DIRECTORY}`,
        '--env',
        'CORE_API_KEY',
        '--env',
        'LOGIN_MIGRATION_SERVICE_KEY',
        '--env',
        `LOGIN_MIGRATION_PORT=${port}`,
        '--env',
        `CORE_URL=${core.url}`,
        // The image's check, asked every second rather than every ten, so the test does not wait for it.
        '--health-interval',
        '1s',
        '--health-start-period',
        '60s',
        IMAGE,
        // Loopback, not the image's 0.0.0.0: on the host's network that would be every interface of the machine.
        'login-migration',
        'serve',
        '--host',
        '127.0.0.1',
      ],
      { env: secrets },
    );
    let health = '';
    for (let tick = 0; tick < 240; tick += 1) {
      const [now, state] = (await inspect(name, '{{.State.Health.Status}} {{.State.Status}}')).split(' ');
      health = now ?? '';
      if (health === 'healthy' || state === 'exited') break;
      await sleep(250);
    }
    expect(health, (await docker(host, ['logs', name])).stderr).toBe('healthy');
  }

  async function migrate(email: string, password: string): Promise<z.infer<typeof Answer>> {
    const answer = await fetch(`${url}/migrate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${SERVICE_KEY}` },
      body: JSON.stringify({ email, password }),
    });
    return Answer.parse(await answer.json());
  }

  async function status(container: string): Promise<unknown> {
    const { stdout } = await docker(host, ['exec', container, 'core-migrate', 'login-migration', 'status', '--store', STORE, '--json']);
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  }

  beforeAll(async () => {
    // The registry is reached from the build's containers through the host's network (the engine has no bridge).
    await docker(host, ['build', '--network', 'host', '--build-arg', `BASE_IMAGE=${inject('baseImage')}`, '--tag', IMAGE, '.'], { cwd: root });
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    exportDir = await mkdtemp(join(tmpdir(), 'core-migrate-image-export-'));
    // Readable by the image's user, which is not the test's.
    await chmod(exportDir, 0o755);
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', isVerified: true, passwordHash: django.hash },
      { id: 'wp-2', email: 'wp@example.com', passwordHash: phpass.hash },
    ];
    await writeFile(join(exportDir, 'users.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, { mode: 0o644 });
    await docker(host, ['volume', 'create', volume]);
  }, 1_200_000);

  afterAll(async () => {
    if (containers.length > 0) await docker(host, ['rm', '--force', ...containers]).catch(() => undefined);
    await docker(host, ['volume', 'rm', '--force', volume]).catch(() => undefined);
    await core?.close();
    if (exportDir !== undefined) await rm(exportDir, { recursive: true, force: true });
  });

  it('has core-migrate as entrypoint, a user that is not root, SIGTERM as stop signal, the store on a volume, a health check', async () => {
    const config = ImageConfig.parse(JSON.parse(await inspect(IMAGE, '{{json .Config}}')));
    expect(config.Entrypoint).toEqual(['core-migrate']);
    expect(config.Cmd.slice(0, 2)).toEqual(['login-migration', 'serve']);
    expect(config.User).not.toMatch(/^(root|0)?(:|$)/);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(Object.keys(config.Volumes)).toEqual([STORE_DIRECTORY]);
    expect(config.Healthcheck.Test.join(' ')).toContain('/health');
    const { stdout } = await docker(host, ['run', '--rm', '--network', 'none', IMAGE, '--version']);
    expect(stdout.trim()).toBe('0.1.0');
    // Both ids fixed, so a folder can be handed over by number (docs/infra.md).
    const id = await docker(host, ['run', '--rm', '--network', 'none', '--entrypoint', 'id', IMAGE]);
    expect(id.stdout.trim()).toBe('uid=10001(core-migrate) gid=10001(core-migrate) groups=10001(core-migrate)');
  });

  it('serve says why it cannot open a store a push wrote on the host as root (mode 0600), and opens it once handed over', async () => {
    const hostFolder = join(exportDir, 'store-of-root');
    await mkdir(hostFolder, { mode: 0o755 });
    await (await openWaitingStore(join(hostFolder, 'login-store.sqlite'))).close();
    const run = (...command: string[]): Promise<unknown> =>
      docker(
        host,
        [
          'run',
          '--rm',
          '--network',
          'host',
          '--volume',
          `${hostFolder}:${STORE_DIRECTORY}`,
          '--env',
          'CORE_API_KEY',
          '--env',
          'LOGIN_MIGRATION_SERVICE_KEY',
          IMAGE,
          ...command,
        ],
        {
          env: secrets,
        },
      );
    const refused = await run('login-migration', 'serve', '--core', core.url, '--host', '127.0.0.1', '--port', '0').catch((error: unknown) => String(error));
    expect(refused).toContain('permission denied');
    expect(refused).toContain('this process runs as uid 10001, gid 10001');
    expect(refused).toContain(`chown -R 10001:10001 ${STORE_DIRECTORY}`);
    expect(refused).not.toContain('cannot be opened as a SQLite database');
    // As docs/infra.md says: the folder and its files handed to the image's user.
    for (const path of [hostFolder, join(hostFolder, 'login-store.sqlite')]) await chown(path, 10001, 10001);
    expect(await run('login-migration', 'status', '--json')).toMatchObject({ stdout: expect.stringContaining('"waiting":0') });
  });

  it('a push run in the image parks the users whose hashes the core cannot import, on the volume', async () => {
    const { stdout } = await docker(
      host,
      [
        'run',
        '--rm',
        '--network',
        'host',
        '--volume',
        `${volume}:${STORE_DIRECTORY}`,
        '--volume',
        `${exportDir}:/export:ro`,
        '--env',
        'CORE_API_KEY',
        IMAGE,
        'push',
        '/export/users.ndjson',
        '--core',
        core.url,
        '--login-time',
        STORE,
        '--json',
      ],
      { env: secrets },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({ parkedForLogin: 2, failed: 0 });
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('serves as a user that is not root, answers /health, and migrates a parked user at sign-in against the core on the host', async () => {
    await startService('login-service-1');
    const processStatus = (await docker(host, ['exec', 'login-service-1', 'cat', '/proc/1/status'])).stdout;
    expect(/^Uid:\s+(\d+)/m.exec(processStatus)?.[1]).not.toBe('0');
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    expect(await migrate('ada@example.com', django.wrongPassword)).toEqual({ outcome: 'wrongCredentials' });
    expect(await migrate('ada@example.com', django.password)).toEqual({ outcome: 'migrated', userId: 'dj-1' });
    expect(await signIn(core, 'ada@example.com', django.password)).toBe('OK');
    expect(await status('login-service-1')).toMatchObject({ waiting: 1, migrated: 1 });
  });

  it('ends on SIGTERM within its grace time with exit 0', async () => {
    await docker(host, ['stop', '-t', String(STOP_GRACE_SECONDS), 'login-service-1']);
    expect(await inspect('login-service-1', '{{.State.ExitCode}} {{.State.OOMKilled}}')).toBe('0 false');
    const { stderr } = await docker(host, ['logs', 'login-service-1']);
    expect(stderr).toContain('SIGTERM: finishing the sign-ins under way, then stopping.');
    expect(stderr).toContain('stopped.');
  });

  it('keeps the store when the container is replaced: a new container on the same volume migrates the user still waiting', async () => {
    await docker(host, ['rm', 'login-service-1']);
    await startService('login-service-2');
    expect(await status('login-service-2')).toMatchObject({ waiting: 1, migrated: 1 });
    expect(await migrate('wp@example.com', phpass.password)).toEqual({ outcome: 'migrated', userId: 'wp-2' });
    expect(await signIn(core, 'wp@example.com', phpass.password)).toBe('OK');
    expect(await status('login-service-2')).toMatchObject({ waiting: 0, migrated: 2 });
    // Neither the passwords, the legacy hashes nor the keys were ever printed.
    const { stdout, stderr } = await docker(host, ['logs', 'login-service-2']);
    for (const secret of [django.password, django.hash, phpass.password, phpass.hash, SERVICE_KEY, API_KEY]) expect(stdout + stderr).not.toContain(secret);
  });
});
