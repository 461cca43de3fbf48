import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { Problem } from '../../../core-client/src/problem.js';
import { prepareMigration, type MigrationCommand } from '../../../core-client/src/run/prepare-migration.js';
import { runPrepared } from '../../../core-client/src/run/run-prepared.js';
import { Secret } from '../../../core-client/src/secret.js';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import type { PushSummary } from '../../../core-client/src/summary/push-summary.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';
import { connect, createBetterAuthPostgres, insertSupabaseUsers, SUPABASE_SCHEMA, withoutPassword } from '../../support/old-system-databases.js';
import { betterAuthHashes, betterAuthUsers, PASSWORD, SUPABASE_IDS as ids, supabaseUsers } from '../../fixtures/exports/database-users.js';

const apiKey = randomBytes(24).toString('hex');
let server: TestPostgres;
let core: CoreDouble;
let client: CoreClient;
let folder: string;

beforeAll(async () => {
  [server, core] = await Promise.all([startTestPostgres(), startCoreDouble({ apiKeys: [apiKey] })]);
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(apiKey), retry: false });
}, 120_000);

afterAll(async () => {
  await client.close();
  await Promise.all([server.stop(), core.close()]);
});

beforeEach(async () => {
  core.reset();
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-database-push-'));
  return () => rm(folder, { recursive: true, force: true });
});

/** A push or sync of a database as an operator runs it: the URL without its password, the password in PGPASSWORD. */
async function migrate(database: string, command: MigrationCommand, settings: Record<string, unknown> = {}): Promise<PushSummary> {
  const { url, env } = withoutPassword(database);
  const parsed = MigrationSettingsSchema.parse({ file: url, core: [core.url], journal: 'run.journal.ndjson', ...settings });
  const prepared = await prepareMigration(parsed, { cwd: folder, env: { ...env, CORE_API_KEY: apiKey }, command });
  if (prepared instanceof Problem) throw new Error(prepared.message);
  try {
    const summary = await runPrepared(prepared);
    if (summary instanceof Problem) throw new Error(summary.message);
    return summary;
  } finally {
    await prepared.client.close();
  }
}

async function supabaseDatabase(): Promise<string> {
  const url = await server.newDatabase();
  const writer = await connect(url);
  await writer.query(SUPABASE_SCHEMA);
  await insertSupabaseUsers(writer, supabaseUsers());
  await writer.end();
  return url;
}

const idOf = (email: string): string => core.emailPasswordUsers().find((user) => user.email === email)?.id ?? '';

describe('a database URL as the export', () => {
  it('is refused with a password in it, which the command line repeating the run would show', () => {
    const parsed = MigrationSettingsSchema.safeParse({ file: 'postgresql://postgres:secret@db.example.com:5432/postgres' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('give the password in PGPASSWORD');
    expect(JSON.stringify(parsed.error?.issues)).not.toContain('secret');
    expect(MigrationSettingsSchema.safeParse({ file: 'postgresql://postgres@db.example.com:5432/postgres' }).success).toBe(true);
  });
});

describe('a Supabase database pushed from its URL', () => {
  it('brings its users over under their old ids: bcrypt users sign in with their passwords, social and phone users, roles', async () => {
    const database = await supabaseDatabase();
    const summary = await migrate(database, 'push', { rolesFrom: 'appMetadata.roles' });
    expect(summary).toMatchObject({ imported: 4, disabledSkipped: 2 });
    expect(summary.stoppedEarly).toBeUndefined();
    expect(await client.signIn({ email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'signedIn' });
    expect(await client.signIn({ email: 'ada@example.com', password: new Secret('not the password') })).toEqual({ outcome: 'wrongCredentials' });
    expect(core.identity.externalIdOf(idOf('ada@example.com'))).toBe(ids.ada);
    expect(core.identity.isVerified(idOf('ada@example.com'), 'ada@example.com')).toBe(true);
    expect(core.identity.isVerified(idOf('unconfirmed@example.com'), 'unconfirmed@example.com')).toBe(false);
    expect(core.identity.metadataOf(idOf('ada@example.com'))).toMatchObject({
      displayName: 'Ada Lovelace',
      migratedFrom: { system: 'supabase', sourceId: ids.ada },
    });
    expect(await client.userRoles(ids.ada)).toEqual(['admin', 'editor']);
    // Grace's Google account carries her old id; Alan's GitHub account, beside his password, is a linked account of his.
    const social = core
      .thirdPartyUsers()
      .map((user) => [user.thirdPartyId, core.identity.externalIdOf(user.id), core.identity.metadataOf(user.id)['migratedFrom']]);
    expect(social).toEqual(
      expect.arrayContaining([
        ['google', ids.grace, { system: 'supabase', sourceId: ids.grace }],
        ['github', undefined, { system: 'supabase', sourceId: ids.alan, separateAccountOf: ids.alan }],
      ]),
    );
    expect(core.passwordlessUsers().map((user) => core.identity.externalIdOf(user.id))).toEqual(expect.arrayContaining([ids.phone, ids.link]));
    // Banned and deleted users stay out; nobody signs in as them.
    expect(await client.signIn({ email: 'banned@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'wrongCredentials' });
    expect(await client.signIn({ email: 'deleted@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'wrongCredentials' });
  });

  it('stays exact against a database that changes between runs: a push again sends only the new user, a sync only what changed', async () => {
    const database = await supabaseDatabase();
    const first = await migrate(database, 'push');
    expect(first.imported).toBe(4);
    const journal = join(folder, 'run.journal.ndjson');
    const header = JSON.parse((await import('node:fs')).readFileSync(journal, 'utf8').split('\n')[0] ?? '{}') as { source: string };
    expect(header.source).toMatch(/^database:sha256:[0-9a-f]{64}$/);
    const writer = await connect(database);
    // A user whose id sorts before every other: a key by place would move every row after it.
    await insertSupabaseUsers(writer, [
      {
        id: '00000000-0000-4000-8000-000000000001',
        email: 'new@example.com',
        encrypted_password: supabaseUsers()[0]?.encrypted_password ?? '',
        email_confirmed_at: '2025-01-01 00:00:00+00',
        raw_app_meta_data: {},
      },
    ]);
    const before = core.requestCount();
    const again = await migrate(database, 'push');
    // Every operation done before is skipped by its row's id, wherever the row now stands; only the new user is sent.
    expect(again).toMatchObject({ imported: 1, skipped: first.imported + first.thirdPartyCreated + first.passwordlessCreated });
    const imports = core
      .requests()
      .slice(before)
      .filter((request) => request.path.includes('import') && !JSON.stringify(request.body).includes('core-migrate-probe'));
    expect(imports.map((request) => request.body)).toEqual([expect.objectContaining({ email: 'new@example.com' })]);
    // Meanwhile in Supabase: Ada is banned, Alan has a new email.
    await writer.query("UPDATE auth.users SET banned_until = '2999-01-01' WHERE id = $1", [ids.ada]);
    await writer.query("UPDATE auth.users SET email = 'alan.turing@example.com' WHERE id = $1", [ids.alan]);
    await writer.end();
    const sync = await migrate(database, 'sync');
    expect(sync.sync).toMatchObject({ disabled: 1, changed: 1, new: 0 });
  });
});

describe('a Better Auth database pushed from its URL', () => {
  it('parks its scrypt users for their first sign-in, which creates them under their old id; bcrypt users sign in at once', async () => {
    const database = await server.newDatabase();
    const writer = await connect(database);
    await createBetterAuthPostgres(writer, { naming: 'camel', plugins: true }, betterAuthUsers());
    await writer.end();
    const store = join(folder, 'waiting.sqlite');
    const summary = await migrate(database, 'push', { loginTime: store, rolesFrom: 'roles' });
    expect(summary).toMatchObject({ imported: 1, parkedForLogin: 3, disabledSkipped: 1 });
    expect(await client.signIn({ email: 'brook@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'signedIn' });
    expect(core.identity.externalIdOf(idOf('brook@example.com'))).toBe('ba-bcrypt');
    const [ada] = betterAuthHashes();
    const login = await openLoginMigration({ store, core: client });
    try {
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret('wrong') })).toEqual({ outcome: 'wrongCredentials' });
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(ada?.password ?? '') })).toEqual({
        outcome: 'migrated',
        userId: 'ba-ada',
      });
    } finally {
      await login.close();
      await login.store.close();
    }
    expect(await client.signIn({ email: 'ada@example.com', password: new Secret(ada?.password ?? '') })).toEqual({ outcome: 'signedIn' });
    expect(core.identity.externalIdOf(idOf('ada@example.com'))).toBe('ba-ada');
    expect(await client.userRoles('ba-ada')).toEqual(['admin', 'editor']);
  });
});
