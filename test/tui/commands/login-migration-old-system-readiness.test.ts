import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HealthAnswerSchema } from '../../../core-client/src/login-time/service/readiness.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startScriptedServer, type ScriptedServer } from '../../core-client/login-time/old-system/scripted-server.js';
import { startService, SERVICE_KEY, type RunningService } from './old-system-service.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const PASSWORD = 'the password the old backend knows';
const TOKEN = 'old-backend-token-never-sent-by-a-probe';

/**
 * `login-migration serve --verify-with` when the old system is not there: at its start (it does not start, exit 3) and
 * while it runs (`/health` says so). The old system is a plain-HTTP endpoint of the test's own on 127.0.0.1 that knows
 * one password, and answers a GET (the readiness probe) 405 as a POST-only route does.
 */
describe('core-migrate login-migration serve, when the old system it asks cannot be reached', () => {
  let core: CoreDouble;
  let oldSystem: ScriptedServer;
  let dir: string;
  let service: RunningService | undefined;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    oldSystem = await startScriptedServer((request) => {
      if (request.method !== 'POST') return { status: 405 };
      const body: unknown = JSON.parse(request.body);
      const right = typeof body === 'object' && body !== null && 'password' in body && body.password === PASSWORD;
      return { status: right ? 200 : 401 };
    });
    dir = await mkdtemp(join(tmpdir(), 'old-system-readiness-'));
    await writeFile(
      join(dir, 'users.ndjson'),
      `${JSON.stringify({ id: 'u-1', email: 'ann@example.com' })}\n${JSON.stringify({ id: 'u-2', email: 'bob@example.com' })}\n`,
    );
    await writeFile(join(dir, 'old-system.json'), JSON.stringify({ kind: 'http', url: `${oldSystem.url}/check`, bearerToken: { env: 'OLD_BACKEND_TOKEN' } }));
    const push = await runCli(
      ['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--verify-with', 'old-system.json', '--json'],
      dir,
      { OLD_BACKEND_TOKEN: TOKEN },
    );
    expect(jsonOf(push), push.stderr).toMatchObject({ parkedForLogin: 2 });
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    await oldSystem.close();
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('does not start when the old system does not answer at all: one sentence naming it, exit 3', async () => {
    await oldSystem.close();
    const serve = ['login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url, '--port', '0', '--verify-with', 'old-system.json'];
    const run = await runCli(serve, dir, { OLD_BACKEND_TOKEN: TOKEN, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY });
    expect(run.exitCode, run.stderr).toBe(3);
    expect(run.stderr).toContain(`--verify-with: the old system (http, ${oldSystem.url}/check) cannot be reached, the service does not start`);
    expect(run.stdout).not.toContain('listening');
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it('answers /health notReady oldSystemUnreachable once the old system stops, and ok again when it is back', async () => {
    service = await startService(dir, core.url, ['--verify-with', 'old-system.json'], { OLD_BACKEND_TOKEN: TOKEN });
    const health = async (): Promise<{ status: number; body: unknown }> => {
      const answer = await fetch(`${service?.url ?? ''}/health`);
      return { status: answer.status, body: HealthAnswerSchema.parse(await answer.json()) };
    };
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await service.migrate('ann@example.com', PASSWORD)).toMatchObject({ status: 200, body: { outcome: 'migrated' } });

    const first = oldSystem;
    await first.close();
    expect(await health()).toEqual({ status: 503, body: { status: 'notReady', reasons: ['oldSystemUnreachable'] } });
    expect(await service.migrate('bob@example.com', PASSWORD)).toMatchObject({ status: 503, body: { outcome: 'tryLater', reason: 'oldSystemUnreachable' } });

    // Back on the same address: ready again, without a restart.
    oldSystem = await startScriptedServer((request) => (request.method === 'POST' ? { status: 200 } : { status: 405 }), Number(new URL(first.url).port));
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });

    // Every probe was a bare GET: never a password, an email or the backend's token.
    const probes = [...first.received, ...oldSystem.received].filter((request) => request.method === 'GET');
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((request) => request.body === '' && request.headers.authorization === undefined)).toBe(true);
  });
});
