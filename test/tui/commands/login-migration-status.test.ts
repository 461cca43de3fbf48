import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
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
    expect(missing.stderr).toContain('does not exist');
    await expect(stat(join(dir, 'nothing-here.sqlite'))).rejects.toThrow();
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
    expect(run.stderr).toContain("does not exist: its database has no waiting users' table (a push with --login-time creates it)");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    await client.end();
    expect(tables.rows).toEqual([]);
  });
});
