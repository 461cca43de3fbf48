import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, isTenantProbe, jsonOf, runCli } from './push-support.js';

// Small costs, made by the families' own reference implementations (test/fixtures/hash-vectors/legacy/README.md).
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

describe('core-migrate push --login-time parks the users whose hash the core cannot import', () => {
  let core: CoreDouble;
  let dir: string;
  let exportPath: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'login-time-park-'));
    exportPath = join(dir, 'users.ndjson');
    const lines = [
      { id: 'dj-1', email: 'Ada@Example.com', isVerified: true, passwordHash: django.hash },
      { id: 'wp-2', email: 'wp@example.com', passwordHash: phpass.hash },
      { id: 'dj-3', email: 'grace@example.com', passwordHash: django.hash },
      // A hash of no family core-migrate knows: refused with a sentence, parked or not.
      { id: 'x-4', email: 'odd@example.com', passwordHash: 'zz$not-a-known-hash$abc' },
    ];
    await writeFile(exportPath, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts them by family in the plan, and without --login-time refuses them naming the flag', async () => {
    const parked = await runCli(['plan', exportPath, '--login-time', 'waiting.sqlite', '--json'], dir);
    const plan = jsonOf(parked);
    expect(plan['loginTime']).toEqual({ parked: 3, byFamily: { django_pbkdf2_sha256: 2, phpass: 1 } });
    expect(plan['rejected']).toBe(1);
    const text = await runCli(['plan', exportPath, '--login-time', 'waiting.sqlite'], dir);
    expect(text.stdout).toContain('3 users will migrate at their first login: Django PBKDF2-SHA256 (2), phpass (WordPress, phpBB) (1)');
    expect(text.stdout).toContain('+ 3 parked for login +');
    // The plan writes nothing: no store yet.
    expect(await readdir(dir)).not.toContain('waiting.sqlite');

    const refused = jsonOf(await runCli(['plan', exportPath, '--json'], dir));
    expect(refused['loginTime']).toBeUndefined();
    expect(refused['rejected']).toBe(4);
    const reasons = JSON.stringify(refused['rejections']);
    expect(reasons).toContain('Django PBKDF2-SHA256: the core cannot import this family; with --login-time <store> the user migrates at its first login');
    expect(reasons).not.toContain(django.hash);
  });

  it('refuses a report or a journal that is the store, and a store that is the export, sending and writing nothing (exit 2)', async () => {
    const first = await runCli(['push', exportPath, '--core', core.url, '--login-time', 'waiting.sqlite'], dir);
    // 1: the record of no known family is refused; the three others are parked.
    expect(first.exitCode, first.stderr).toBe(1);
    const storeBytes = await readFile(join(dir, 'waiting.sqlite'));
    const exportBytes = await readFile(exportPath);
    const requests = core.requests().length;
    for (const [args, refusal] of [
      [['--login-time', 'waiting.sqlite', '--report', 'waiting.sqlite'], /The waiting store .*waiting\.sqlite would overwrite the report/],
      [['--login-time', 'waiting.sqlite', '--report', 'waiting.sqlite', '--dry-run'], /The report .*waiting\.sqlite would overwrite the waiting store/],
      [['--login-time', 'waiting.sqlite', '--journal', 'waiting.sqlite'], /The waiting store .*waiting\.sqlite would overwrite the journal/],
      [['--login-time', 'users.ndjson'], /The waiting store .*users\.ndjson would overwrite the export/],
    ] as const) {
      const run = await runCli(['push', exportPath, '--core', core.url, ...args], dir);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(refusal);
    }
    expect(await readFile(join(dir, 'waiting.sqlite'))).toEqual(storeBytes);
    expect(await readFile(exportPath)).toEqual(exportBytes);
    expect(core.requests()).toHaveLength(requests);
  });

  it('writes them to the store with no core request, counts them, and a resume does not write them again', async () => {
    const run = await runCli(['push', exportPath, '--core', core.url, '--login-time', 'waiting.sqlite', '--report', 'report.ndjson', '--json'], dir);
    const summary = jsonOf(run);
    expect(summary).toMatchObject({ parkedForLogin: 3, rejected: 1, imported: 0, total: 4 });
    // The progress line counts them too (its last one, on standard error beside --json).
    expect(run.stderr).toMatch(/push 4\/4 .* parked 3\n/);
    // Only the pre-flight's probes (the tenant's, the scrypt variant's name): imports no core carries out.
    const sent = core.requests().filter((request) => request.path.endsWith('/passwordhash/import') || request.path.endsWith('/signup'));
    expect(sent.filter((request) => !isTenantProbe(request))).toEqual([]);
    expect(core.emailPasswordUsers()).toEqual([]);

    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    try {
      expect(await store.counts()).toMatchObject({ waiting: 3, migrated: 0 });
      expect(await store.find('ada@example.com')).toMatchObject({
        sourceId: 'dj-1',
        mapSourceId: true,
        emailVerified: true,
        family: 'django_pbkdf2_sha256',
        legacyHash: django.hash,
        metadata: { migratedFrom: { sourceId: 'dj-1' } },
      });
      expect(await store.find('wp@example.com')).toMatchObject({ emailVerified: false, family: 'phpass' });
    } finally {
      await store.close();
    }
    // Nothing but the store holds a legacy hash: not the output, the report or the journal.
    for (const file of ['report.ndjson', 'users.ndjson.push-journal.ndjson']) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text).not.toContain(django.hash);
      expect(text).not.toContain(phpass.hash);
    }
    expect(run.stdout + run.stderr).not.toContain(django.hash);

    const again = jsonOf(await runCli(['push', exportPath, '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir));
    expect(again).toMatchObject({ parkedForLogin: 0, skipped: 3, total: 4 });
  });

  it('parks users who then arrive at their first sign-in with everything the push gives', async () => {
    await runCli(['push', exportPath, '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir);
    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
    const login = await openLoginMigration({ store: join(dir, 'waiting.sqlite'), core: client });
    try {
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(django.password) })).toEqual({ outcome: 'migrated', userId: 'dj-1' });
      expect(await migrateAtLogin(login, { email: 'wp@example.com', password: new Secret(phpass.password) })).toEqual({ outcome: 'migrated', userId: 'wp-2' });
      const ada = core.emailPasswordUsers().find((user) => user.email === 'ada@example.com');
      expect(core.identity.isVerified(ada?.id ?? '', 'ada@example.com')).toBe(true);
      expect(await client.signIn({ email: 'wp@example.com', password: new Secret(phpass.password) })).toEqual({ outcome: 'signedIn' });
    } finally {
      await login.close();
      await client.close();
    }
  });

  it('refuses a PostgreSQL URL that carries its password', async () => {
    const run = await runCli(['plan', exportPath, '--login-time', 'postgresql://someone:hunter2@127.0.0.1/db'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('PGPASSWORD');
    expect(run.stderr).not.toContain('hunter2');
  });
});
