import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcryptjs from 'bcryptjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const bcrypt = bcryptjs.hashSync('cat password', 4);
const TOKEN = 'old-backend-token-never-shown';

describe('core-migrate plan/push --login-time --verify-with park the password users without a usable hash', () => {
  let core: CoreDouble;
  let dir: string;
  let exportPath: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'old-system-park-'));
    exportPath = join(dir, 'users.ndjson');
    const lines = [
      { id: 'u-1', email: 'Ann@Example.com', isVerified: true, roles: ['admin'] },
      // A hash of no family anyone can check: the old system can.
      { id: 'u-2', email: 'bob@example.com', passwordHash: 'zz$not-a-known-hash$abc' },
      { id: 'u-3', email: 'cat@example.com', passwordHash: bcrypt },
      { id: 'u-4', email: 'dan@example.com', passwordHash: django.hash },
      { id: 'u-5', email: 'eve@example.com', thirdPartyId: 'google', thirdPartyUserId: 'g-5' },
    ];
    await writeFile(exportPath, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    await writeFile(join(dir, 'old-system.json'), JSON.stringify({ kind: 'http', url: 'http://127.0.0.1:9/check', bearerToken: { env: 'OLD_BACKEND_TOKEN' } }));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts them in the plan by how each will be checked; importable and legacy hashes keep their way', async () => {
    const flags = ['--login-time', 'waiting.sqlite', '--verify-with', 'old-system.json'];
    const plan = jsonOf(await runCli(['plan', exportPath, ...flags, '--json'], dir));
    expect(plan['loginTime']).toEqual({ parked: 3, byFamily: { django_pbkdf2_sha256: 1 }, byOldSystem: { http: 2 } });
    expect(plan).toMatchObject({ passwordImports: 1, thirdPartySignInUps: 1, rejected: 0 });
    const text = await runCli(['plan', exportPath, ...flags], dir);
    expect(text.stdout).toContain("3 users will migrate at their first login: asked of the old backend's endpoint (2), Django PBKDF2-SHA256 (1)");

    // Without an old system the same users are refused, or become what they were before.
    const without = jsonOf(await runCli(['plan', exportPath, '--login-time', 'waiting.sqlite', '--json'], dir));
    expect(without['loginTime']).toEqual({ parked: 1, byFamily: { django_pbkdf2_sha256: 1 } });
  });

  it('refuses --verify-with without --login-time, and a settings file with a secret in it, without echoing it', async () => {
    const alone = await runCli(['plan', exportPath, '--verify-with', 'old-system.json'], dir);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--verify-with needs --login-time');
    await writeFile(join(dir, 'inline.json'), JSON.stringify({ kind: 'http', url: 'https://old.example.com/check', bearerToken: TOKEN }));
    const inline = await runCli(['plan', exportPath, '--login-time', 'waiting.sqlite', '--verify-with', 'inline.json'], dir);
    expect(inline.exitCode).toBe(2);
    expect(inline.stderr).toMatch(/--verify-with: .*inline\.json: bearerToken: a secret is never written in this file/);
    expect(inline.stdout + inline.stderr).not.toContain(TOKEN);
  });

  it('parks them with everything a pushed user keeps, and no secret reaches the store, the journal or the report', async () => {
    const run = await runCli(
      [
        'push',
        exportPath,
        '--core',
        core.url,
        '--login-time',
        'waiting.sqlite',
        '--verify-with',
        'old-system.json',
        '--roles-from',
        'roles',
        '--report',
        'report.ndjson',
        '--json',
      ],
      dir,
      { OLD_BACKEND_TOKEN: TOKEN },
    );
    expect(jsonOf(run)).toMatchObject({ parkedForLogin: 3, imported: 1, thirdPartyCreated: 1, rejected: 0, total: 5 });
    expect(core.emailPasswordUsers().map((user) => user.email)).toEqual(['cat@example.com']);
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    try {
      expect(await store.find('ann@example.com')).toMatchObject({
        sourceId: 'u-1',
        mapSourceId: true,
        emailVerified: true,
        roles: ['admin'],
        metadata: { migratedFrom: { sourceId: 'u-1' } },
        oldSystem: 'http',
        state: 'waiting',
      });
      expect(await store.find('bob@example.com')).toMatchObject({ sourceId: 'u-2', oldSystem: 'http' });
      expect(await store.find('dan@example.com')).toMatchObject({ family: 'django_pbkdf2_sha256', legacyHash: django.hash });
    } finally {
      await store.close();
    }
    for (const file of ['waiting.sqlite', 'report.ndjson', 'users.ndjson.push-journal.ndjson']) {
      expect((await readFile(join(dir, file))).toString('latin1')).not.toContain(TOKEN);
    }
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    // The service the push prints to start serves the same old system.
    expect(run.stderr + run.stdout).toContain('--verify-with');
  });

  it('login-migration serve refuses an old system whose secret cannot be read, before listening, without a secret printed', async () => {
    const serve = ['login-migration', 'serve', '--store', 'waiting.sqlite', '--core', core.url, '--port', '0', '--verify-with', 'old-system.json'];
    const unset = await runCli(serve, dir, { LOGIN_MIGRATION_SERVICE_KEY: 'service-key-0123456789abcdef' });
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toMatch(/--verify-with: the old backend token is read from OLD_BACKEND_TOKEN, which is not set/);
    expect(unset.stdout).not.toContain('listening');
  });
});
