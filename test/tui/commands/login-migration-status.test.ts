import { link, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import type { WaitingStore } from '../../../core-client/src/login-time/store/waiting-store.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';
import { jsonOf, runCli } from './push-support.js';

const HASH = 'pbkdf2_sha256$1000$status-test-salt$c3RhdHVzLXRlc3QtaGFzaC1uZXZlci1zaG93bg==';

async function fill(store: WaitingStore): Promise<void> {
  const users = ['ada@example.com', 'bob@example.com', 'carol@example.com', 'dan,"the man"@example.com', 'eve@example.com'];
  for (const [index, email] of users.entries()) {
    await store.park({
      email,
      ...(index === 4 ? {} : { sourceId: `old-${index}` }),
      mapSourceId: true,
      emailVerified: false,
      family: 'django_pbkdf2_sha256',
      legacyHash: HASH,
    });
  }
  for (const [email, at] of [
    ['ada@example.com', Date.UTC(2026, 10, 24, 9)],
    ['bob@example.com', Date.UTC(2026, 10, 25, 9)],
    ['carol@example.com', Date.UTC(2026, 10, 25, 23, 59)],
  ] as const) {
    await store.claim(email);
    await store.markMigrated(email, `core-${email}`, at);
  }
}

describe('core-migrate login-migration status', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'login-status-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says how many wait and how many arrived per day, and writes those still waiting for a password reset', async () => {
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    await fill(store);
    await store.close();
    const run = await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--waiting-list', 'reset.csv'], dir);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Waiting store ${join(dir, 'waiting.sqlite')}`);
    expect(run.stdout).toMatch(/waiting +2\n/);
    expect(run.stdout).toMatch(/arrived +3\n/);
    expect(run.stdout).toContain('    2026-11-24  1\n    2026-11-25  2\n');
    expect(run.stdout).toContain(`2 users (email, old id) written to ${join(dir, 'reset.csv')}`);
    expect(await readFile(join(dir, 'reset.csv'), 'utf8')).toBe('email,old_id\n"dan,""the man""@example.com",old-3\neve@example.com,\n');
    expect((await stat(join(dir, 'reset.csv'))).mode & 0o777).toBe(0o600);
    expect(run.stdout + run.stderr).not.toContain(HASH);
  });

  it('writes a cell a spreadsheet would take for a formula as text: a leading quote, and quoted', async () => {
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    const risky = [
      ["=cmd|'/c-calc'!a0@x.example", '=1+1'],
      ['+1@x.example', '-1'],
      ['-x@x.example', '@sum'],
      ['@x@x.example', '\tid'],
      ['\rcr@x.example', 'ok-1'],
      ['plain@x.example', '42'],
    ] as const;
    for (const [email, sourceId] of risky) {
      await store.park({ email, sourceId, mapSourceId: true, emailVerified: false, family: 'django_pbkdf2_sha256', legacyHash: HASH });
    }
    await store.close();
    expect((await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--waiting-list', 'reset.csv'], dir)).exitCode).toBe(0);
    expect((await readFile(join(dir, 'reset.csv'), 'utf8')).split('\n')).toEqual([
      'email,old_id',
      '"\'\rcr@x.example",ok-1',
      '"\'+1@x.example","\'-1"',
      '"\'-x@x.example","\'@sum"',
      '"\'=cmd|\'/c-calc\'!a0@x.example","\'=1+1"',
      '"\'@x@x.example","\'\tid"',
      'plain@x.example,42',
      '',
    ]);
  });

  it('answers --json with the counts, and refuses a store that does not exist without creating it', async () => {
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    await fill(store);
    await store.close();
    const status = jsonOf(await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--json'], dir));
    expect(status).toEqual({
      store: join(dir, 'waiting.sqlite'),
      waiting: 2,
      migrating: 0,
      migrated: 3,
      arrivalsPerDay: [
        { day: '2026-11-24', migrated: 1 },
        { day: '2026-11-25', migrated: 2 },
      ],
    });
    const missing = await runCli(['login-migration', 'status', '--store', 'nothing-here.sqlite', '--json'], dir);
    expect(missing.exitCode).toBe(2);
    expect(jsonOf(missing)).toMatchObject({ error: { code: 'waitingStoreUnavailable', setting: 'loginTime', exitCode: 2 } });
    await expect(stat(join(dir, 'nothing-here.sqlite'))).rejects.toThrow();
  });
});

describe('core-migrate login-migration status --waiting-list: checked like every output, before anything is opened', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'login-status-list-'));
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    await fill(store);
    await store.close();
    await writeFile(join(dir, 'users.ndjson'), '{"email":"ada@example.com","passwordHash":"x"}\n');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('never a file SQLite makes beside the store while it is open, though none is there while it is closed: nothing is written, nothing removed', async () => {
    for (const list of ['waiting.sqlite-wal', 'waiting.sqlite-shm', 'waiting.sqlite-journal', './sub/../waiting.sqlite-wal']) {
      const run = await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--waiting-list', list], dir);
      expect(run.exitCode, list).toBe(2);
      expect(run.stderr, list).toMatch(/would overwrite the waiting store .*waiting\.sqlite-(wal|shm|journal): it is the same path/);
      await expect(stat(join(dir, list)), list).rejects.toThrow();
    }
    const status = jsonOf(await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--json'], dir));
    expect(status).toMatchObject({ waiting: 2, migrated: 3 });
  });

  it('never over the store, a file SQLite keeps beside it, a link to it, or an export; nothing is written and the store still counts', async () => {
    const storeBytes = await readFile(join(dir, 'waiting.sqlite'));
    await writeFile(join(dir, 'waiting.sqlite-journal'), '');
    await symlink(join(dir, 'waiting.sqlite'), join(dir, 'link.csv'));
    await link(join(dir, 'waiting.sqlite'), join(dir, 'hard.csv'));
    for (const [list, refusal] of [
      ['waiting.sqlite', /would overwrite the waiting store .*waiting\.sqlite: it is the same path/],
      ['hard.csv', /would overwrite the waiting store .*waiting\.sqlite: it is the same file \(through a link\)/],
      ['waiting.sqlite-journal', /would overwrite the waiting store .*waiting\.sqlite-journal/],
      ['link.csv', /is a symbolic link/],
      ['users.ndjson', /users\.ndjson exists and is not a waiting list \(its first line is not email,old_id\): nothing was written/],
      ['.', /is a folder/],
    ] as const) {
      const run = await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--waiting-list', list], dir);
      expect(run.exitCode, list).toBe(2);
      expect(run.stderr, list).toMatch(refusal);
      expect(run.stdout, list).toBe('');
    }
    expect(await readFile(join(dir, 'waiting.sqlite'))).toEqual(storeBytes);
    expect(await readFile(join(dir, 'users.ndjson'), 'utf8')).toBe('{"email":"ada@example.com","passwordHash":"x"}\n');
    const status = jsonOf(await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--json'], dir));
    expect(status).toMatchObject({ waiting: 2, migrated: 3 });
  });

  it('writes a new list, and writes an earlier list (or an empty file) anew', async () => {
    await writeFile(join(dir, 'empty.csv'), '');
    for (const list of ['reset.csv', 'reset.csv', 'empty.csv']) {
      const run = await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--waiting-list', list], dir);
      expect(run.exitCode, run.stderr).toBe(0);
      expect((await readFile(join(dir, list), 'utf8')).split('\n')[0]).toBe('email,old_id');
    }
  });
});

describe('core-migrate login-migration status on a PostgreSQL store', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await postgres.stop();
  });

  it('reads it the same, and never shows its password', async () => {
    const url = await postgres.newDatabase();
    const store = await openWaitingStore(url);
    await fill(store);
    await store.close();
    const parsed = new URL(url);
    const password = parsed.password;
    parsed.password = '';
    const run = await runCli(['login-migration', 'status', '--store', parsed.toString(), '--json'], process.cwd(), { PGPASSWORD: password });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ waiting: 2, migrated: 3 });
    expect(run.stdout + run.stderr).not.toContain(password);
  });

  it('refuses a database no push wrote a store in (exit 2), and creates nothing there', async () => {
    const url = await postgres.newDatabase();
    const parsed = new URL(url);
    const password = parsed.password;
    parsed.password = '';
    const run = await runCli(['login-migration', 'status', '--store', parsed.toString()], process.cwd(), { PGPASSWORD: password });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("does not exist: its database has no waiting users' table");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    await client.end();
    expect(tables.rows).toEqual([]);
  });
});
