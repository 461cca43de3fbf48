import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));

describe('core-migrate rollback --login-time', () => {
  let core: CoreDouble;
  let dir: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'login-time-rollback-'));
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash },
      { id: 'dj-2', email: 'grace@example.com', passwordHash: django.hash },
      { id: 'bc-3', email: 'bob@example.com', passwordHash: await bcryptHashOf('bob-password') },
    ];
    await writeFile(join(dir, 'users.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const push = jsonOf(await runCli(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir));
    expect(push).toMatchObject({ imported: 1, parkedForLogin: 2 });
    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
    const login = await openLoginMigration({ store: join(dir, 'waiting.sqlite'), core: client });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(django.password) })).toMatchObject({ outcome: 'migrated' });
    await login.close();
    await client.close();
    expect(core.emailPasswordUsers()).toHaveLength(2);
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('removes the users created at their first sign-in with those the push created, and empties the store', async () => {
    const dryRun = await runCli(
      ['rollback', '--journal', 'users.ndjson.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--dry-run'],
      dir,
    );
    expect(dryRun.stdout).toContain('login-time migration        1 created at their first sign-in would be removed, 1 still waiting would leave the store');
    expect(core.emailPasswordUsers()).toHaveLength(2);

    const run = await runCli(
      ['rollback', '--journal', 'users.ndjson.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'],
      dir,
    );
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ removed: 1, loginTime: { dryRun: false, arrivalsRemoved: 1, arrivalsFailed: 0, waitingDropped: 1 } });
    expect(core.users()).toEqual([]);
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    try {
      expect(await store.counts()).toEqual({ waiting: 0, migrating: 0, migrated: 0, arrivalsPerDay: [] });
    } finally {
      await store.close();
    }
  });

  it('removes a role the push created that only an arrival held, in the same run', async () => {
    const lines = [
      { id: 'dj-r', email: 'rita@example.com', passwordHash: django.hash, roles: ['arrival-only'] },
      { id: 'bc-r', email: 'rob@example.com', passwordHash: await bcryptHashOf('rob-password'), roles: ['member'] },
    ];
    await writeFile(join(dir, 'roles.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const push = ['push', 'roles.ndjson', '--core', core.url, '--login-time', 'roles.sqlite', '--roles-from', 'roles', '--journal', 'roles.journal'];
    expect(jsonOf(await runCli([...push, '--json'], dir))).toMatchObject({ imported: 1, parkedForLogin: 1 });
    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
    const login = await openLoginMigration({ store: join(dir, 'roles.sqlite'), core: client });
    expect(await migrateAtLogin(login, { email: 'rita@example.com', password: new Secret(django.password) })).toMatchObject({ outcome: 'migrated' });
    await login.close();
    expect(await client.roleUsers('arrival-only')).toEqual(['dj-r']);

    const run = await runCli(['rollback', '--journal', 'roles.journal', '--core', core.url, '--login-time', 'roles.sqlite', '--json'], dir);
    expect(run.exitCode, run.stderr).toBe(0);
    const summary = jsonOf(run) as { roles: { removed: string[]; kept: unknown[] }; problems: string[] };
    expect(summary.roles.kept).toEqual([]);
    expect([...summary.roles.removed].sort()).toEqual(['arrival-only', 'member']);
    expect(summary.problems).toEqual([]);
    expect(await client.roleUsers('arrival-only')).toBeUndefined();
    await client.close();
  });

  it('keeps an arrival whose removal failed in the store, so the same command tries again (exit 1)', async () => {
    core.faults.failBodiesContaining('dj-1', { status: 500 });
    const run = await runCli(
      ['rollback', '--journal', 'users.ndjson.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json', '--give-up-after', '1'],
      dir,
    );
    expect(run.exitCode).toBe(1);
    expect(jsonOf(run)).toMatchObject({ loginTime: { arrivalsRemoved: 0, arrivalsFailed: 1, waitingDropped: 1 } });
    core.faults.clearFaults();
    const again = await runCli(
      ['rollback', '--journal', 'users.ndjson.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'],
      dir,
    );
    expect(jsonOf(again)).toMatchObject({ loginTime: { arrivalsRemoved: 1, arrivalsFailed: 0 } });
    expect(core.users()).toEqual([]);
  });
});
