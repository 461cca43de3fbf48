import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSource, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { type SourceError } from '../../../core-client/src/sources/source-error.js';
import type { SourceRecord, SourceUser } from '../../../core-client/src/sources/source-user.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';
import {
  connect,
  createBetterAuthPostgres,
  createBetterAuthSqlite,
  insertSupabaseUsers,
  SUPABASE_SCHEMA,
  type BetterAuthSchemaOptions,
  type BetterAuthUser,
} from '../../support/old-system-databases.js';
import { betterAuthHashes, betterAuthUsers, supabaseUsers } from '../../fixtures/exports/database-users.js';
import { readAll, withTempDir } from './support.js';

let server: TestPostgres;

beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await server.stop();
});

async function postgresWith(options: Omit<BetterAuthSchemaOptions, 'dialect'>, users: readonly BetterAuthUser[]): Promise<string> {
  const url = await server.newDatabase();
  const client = await connect(url);
  try {
    await createBetterAuthPostgres(client, options, users);
  } finally {
    await client.end();
  }
  return url;
}

function byId(records: readonly SourceRecord[]): Map<string, SourceRecord> {
  return new Map(records.map((record) => [record.sourceId ?? '', record]));
}

function user(records: ReadonlyMap<string, SourceRecord>, id: string): SourceUser {
  const record = records.get(id);
  if (record?.kind !== 'user') throw new Error(`${id} is not a user: ${JSON.stringify(record)}`);
  return record;
}

/** The users without the plugins' fields, for a database of Better Auth's core schema alone. */
function coreOnly(users: readonly BetterAuthUser[]): BetterAuthUser[] {
  return users.map(({ id, name, email, emailVerified, image, createdAt, accounts }) => ({
    id,
    name,
    email,
    emailVerified,
    createdAt,
    ...(image === undefined ? {} : { image }),
    ...(accounts === undefined ? {} : { accounts }),
  }));
}

function expectEveryField(records: readonly SourceRecord[], file: string): void {
  const [ada, kim] = betterAuthHashes();
  const read = byId(records);
  expect(records).toHaveLength(8);
  expect(user(read, 'ba-ada')).toEqual({
    kind: 'user',
    location: { file, index: 0, id: 'ba-ada' },
    sourceId: 'ba-ada',
    system: 'better-auth',
    email: 'ada@example.com',
    emailVerified: true,
    passwordHash: ada?.hash,
    roles: 'admin,editor',
    profile: {
      displayName: 'Ada Lovelace',
      photoUrl: 'https://example.com/ada.png',
      signedUpAt: '2024-01-01T00:00:00.000Z',
      username: 'ada',
      displayUsername: 'Ada',
    },
    providers: [],
    signsInByEmailCode: false,
  });
  expect(user(read, 'ba-grace')).toMatchObject({ providers: [{ providerId: 'google', providerUserId: '107735233542344539841' }], signsInByEmailCode: true });
  expect(user(read, 'ba-kim')).toMatchObject({
    emailVerified: false,
    passwordHash: kim?.hash,
    providers: [{ providerId: 'github', providerUserId: '583231' }],
  });
  expect(user(read, 'ba-bcrypt').passwordHash).toMatch(/^\$2b\$04\$/);
  expect(user(read, 'ba-phone')).toMatchObject({ phoneNumber: '+14155550124', profile: { phoneNumber: '+14155550124' } });
  expect(user(read, 'ba-banned')).toMatchObject({ disabled: true, disabledBecause: 'banned' });
  expect(user(read, 'ba-unbanned').disabled).toBeUndefined();
  expect(user(read, 'ba-anonymous')).toMatchObject({ anonymous: true });
}

async function planOf(path: string): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path, { roles: { from: 'roles', rename: {} }, loginTime: true })) planned.push(record);
  return planned;
}

describe('Better Auth read from its database', () => {
  it('reads every field from PostgreSQL (its own adapter: camelCase columns, with the plugins)', async () => {
    const url = await postgresWith({ naming: 'camel', plugins: true }, betterAuthUsers());
    const { records, error } = await readAll(readSource(url));
    expect(error).toBeUndefined();
    expectEveryField(records, `${records[0]?.location.file ?? ''}`);
    expect(records[0]?.location.file).toMatch(/ \("user"\)$/);
  });

  it('reads snake_case columns and plural tables alike, and the core schema without any plugin', async () => {
    const snake = await postgresWith({ naming: 'snake', plural: true, plugins: true }, betterAuthUsers());
    const { records, error } = await readAll(readSource(snake, { format: 'better-auth' }));
    expect(error).toBeUndefined();
    expectEveryField(records, records[0]?.location.file ?? '');
    expect(records[0]?.location.file).toMatch(/ \("users"\)$/);
    const core = await postgresWith({ naming: 'camel' }, coreOnly(betterAuthUsers()));
    const plain = await readAll(readSource(core));
    expect(plain.error).toBeUndefined();
    // Without the plugins' columns: no roles, bans, usernames or phone logins, and nobody anonymous.
    expect(user(byId(plain.records), 'ba-ada')).not.toHaveProperty('roles');
    expect(user(byId(plain.records), 'ba-banned')).not.toHaveProperty('disabled');
    expect(user(byId(plain.records), 'ba-phone')).toMatchObject({ providers: [], signsInByEmailCode: true });
  });

  it('reads every field from a SQLite file (its booleans 0/1, its dates as text), detected by its bytes and tables', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'auth.db');
      createBetterAuthSqlite(file, { naming: 'camel', plugins: true }, betterAuthUsers());
      expect(await detectFormat(file)).toBe('better-auth');
      const { records, error } = await readAll(readSource(file));
      expect(error).toBeUndefined();
      expectEveryField(records, file);
    });
  });

  it('plans the users: scrypt parked for login, bcrypt imported, social, phone, roles from the role column, banned and anonymous', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'auth.db');
      createBetterAuthSqlite(file, { naming: 'snake', plugins: true }, betterAuthUsers());
      const planned = await planOf(file);
      const of = (id: string) => planned.find((record) => record.location.id === id)?.items ?? [];
      expect(of('ba-ada')).toMatchObject([
        { kind: 'loginTimeWait', family: 'better_auth_scrypt', identity: { sourceId: 'ba-ada', roles: ['admin', 'editor'] } },
      ]);
      expect(of('ba-bcrypt')).toMatchObject([{ kind: 'passwordImport', family: 'bcrypt' }]);
      expect(of('ba-grace')).toMatchObject([{ kind: 'thirdPartySignInUp', body: { thirdPartyId: 'google' } }]);
      expect(of('ba-kim').map((item) => item.kind)).toEqual(['loginTimeWait', 'thirdPartySignInUp']);
      expect(of('ba-phone')).toMatchObject([
        { kind: 'passwordlessSignInUp', body: { phoneNumber: '+14155550124' }, identity: { emailNotLogin: '14155550124@phone.example.com' } },
      ]);
      expect(of('ba-banned')).toMatchObject([{ kind: 'rejection', code: 'disabledAccount' }]);
      expect(of('ba-unbanned')).toMatchObject([{ kind: 'loginTimeWait' }]);
      expect(of('ba-anonymous')).toMatchObject([{ kind: 'rejection', code: 'anonymousUser', reason: expect.stringContaining('better-auth') }]);
      // Without a login-time migration, Better Auth's scrypt is refused with the flag that parks it.
      const refused: PlannedRecord[] = [];
      for await (const record of planSource(file)) refused.push(record);
      expect(refused.find((record) => record.location.id === 'ba-ada')?.items).toMatchObject([
        { kind: 'rejection', code: 'unsupportedHashFamily', reason: expect.stringContaining('Better Auth scrypt') },
      ]);
    });
  });

  it('names a broken record by its row, id and field, and reads the others', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'auth.db');
      createBetterAuthSqlite(file, { naming: 'snake', plugins: true }, [
        ...betterAuthUsers().slice(0, 2),
        { id: 'ba-odd', name: 'Odd', email: 'odd@example.com', emailVerified: 'maybe', createdAt: '2024-01-01T00:00:00.000Z' },
        { id: 'ba-nobody', name: 'Nobody', email: 'nobody@example.com', emailVerified: true, createdAt: 'last tuesday' },
        {
          id: 'ba-social',
          name: 'Social',
          email: 'social@example.com',
          emailVerified: true,
          createdAt: '2024-01-01T00:00:00.000Z',
          accounts: [{ id: 'acc-social', providerId: 'github', accountId: '' }],
        },
      ]);
      const { records, error } = await readAll(readSource(file));
      expect(error).toBeUndefined();
      // In the order of the ids.
      expect(records.map((record) => record.kind)).toEqual(['user', 'user', 'malformed', 'malformed', 'malformed']);
      expect(records.slice(2)).toEqual([
        {
          kind: 'malformed',
          location: { file, index: 2, id: 'ba-nobody', field: 'created_at' },
          sourceId: 'ba-nobody',
          reason: 'field "created_at": is not a time (a timestamp such as 2024-01-02 03:04:05+00)',
        },
        {
          kind: 'malformed',
          location: { file, index: 3, id: 'ba-odd', field: 'email_verified' },
          sourceId: 'ba-odd',
          reason: 'field "email_verified": must be true or false',
        },
        {
          kind: 'malformed',
          location: { file, index: 4, id: 'ba-social', field: 'accounts[0].account_id' },
          sourceId: 'ba-social',
          reason: 'field "accounts[0].account_id": the github account has no account id',
        },
      ]);
    });
  });

  it('checks the columns before reading: every missing required column named, in PostgreSQL and SQLite', async () => {
    const url = await postgresWith({ naming: 'camel', without: ['emailVerified'] }, []);
    const { error } = await readAll(readSource(url, { format: 'better-auth' }));
    expect(error).toMatchObject({ code: 'source.missing-column' });
    expect((error as SourceError).detail).toBe(
      'the table "user" has no column "emailVerified" or "email_verified", which core-migrate needs to read Better Auth\'s users: is it Better Auth\'s user table?',
    );
    await withTempDir(async (dir) => {
      const file = join(dir, 'auth.db');
      const database = new DatabaseSync(file);
      database.exec('CREATE TABLE user (id text primary key, name text); CREATE TABLE account (id text primary key, providerId text)');
      database.close();
      const { error: sqlite } = await readAll(readSource(file));
      expect((sqlite as SourceError).detail).toBe(
        'the table "user" has no columns "email" and "emailVerified" or "email_verified", which core-migrate needs to read Better Auth\'s users: is it Better Auth\'s user table?',
      );
    });
  });

  it('refuses a database or file of another system with a sentence', async () => {
    const supabase = await server.newDatabase();
    const client = await connect(supabase);
    await client.query(SUPABASE_SCHEMA);
    await insertSupabaseUsers(client, supabaseUsers().slice(0, 1));
    await client.end();
    const { error } = await readAll(readSource(supabase, { format: 'better-auth' }));
    expect((error as SourceError).detail).toBe(
      'the database has no "user" or "users" table, so it is not a Better Auth database (a Supabase project\'s is read with --format supabase)',
    );
    await withTempDir(async (dir) => {
      const notSqlite = join(dir, 'users.json');
      await writeFile(notSqlite, '{"users": []}');
      const { error: file } = await readAll(readSource(notSqlite, { format: 'better-auth' }));
      expect(file).toMatchObject({ code: 'source.wrong-format' });
      expect((file as SourceError).detail).toContain('not a SQLite database');
      const otherSqlite = join(dir, 'other.db');
      const database = new DatabaseSync(otherSqlite);
      database.exec('CREATE TABLE customers (id integer primary key)');
      database.close();
      expect(await detectFormat(otherSqlite)).toMatchObject({ code: 'source.unknown-format' });
      const { error: noTables } = await readAll(readSource(otherSqlite, { format: 'better-auth' }));
      expect((noTables as SourceError).detail).toBe('the SQLite database has no "user" or "users" table, so it is not a Better Auth database');
    });
  });
});
