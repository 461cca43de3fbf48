import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSource, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { PostgresSnapshot } from '../../../core-client/src/sources/database/postgres-snapshot.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import type { SourceRecord, SourceUser } from '../../../core-client/src/sources/source-user.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';
import { connect, createBetterAuthPostgres, insertSupabaseUsers, SUPABASE_SCHEMA, type SupabaseRow } from '../../support/old-system-databases.js';
import { SUPABASE_IDS as ids, supabaseUsers } from '../../fixtures/exports/database-users.js';
import { readAll, withTempDir } from './support.js';

let server: TestPostgres;
/** A Supabase project's database with the fixture's users. */
let supabase: string;

async function databaseWith(sql: string, rows: readonly SupabaseRow[] = []): Promise<string> {
  const url = await server.newDatabase();
  const client = await connect(url);
  try {
    await client.query(sql);
    await insertSupabaseUsers(client, rows);
  } finally {
    await client.end();
  }
  return url;
}

beforeAll(async () => {
  server = await startTestPostgres();
  supabase = await databaseWith(SUPABASE_SCHEMA, supabaseUsers());
}, 120_000);

afterAll(async () => {
  await server.stop();
});

function byId(records: readonly SourceRecord[]): Map<string, SourceRecord> {
  return new Map(records.map((record) => [record.sourceId ?? '', record]));
}

function user(records: ReadonlyMap<string, SourceRecord>, id: string): SourceUser {
  const record = records.get(id);
  if (record?.kind !== 'user') throw new Error(`${id} is not a user: ${JSON.stringify(record)}`);
  return record;
}

async function planOf(path: string, options: Parameters<typeof planSource>[1] = {}): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path, options)) planned.push(record);
  return planned;
}

/** What every form of the rows (the database, its CSV, its JSON) reads alike: all but where each record is. */
function withoutLocation(record: SourceRecord): unknown {
  const { location, ...rest } = record;
  return { ...rest, field: location.field };
}

describe('Supabase read from its database (a postgresql:// URL)', () => {
  it('reads every user with its id, email, verification, bcrypt hash, identities, phone, ban, deletion and profile', async () => {
    const { records, error } = await readAll(readSource(supabase));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(12);
    const read = byId(records);
    const ada = user(read, ids.ada);
    expect(ada).toMatchObject({
      sourceId: ids.ada,
      system: 'supabase',
      email: 'ada@example.com',
      emailVerified: true,
      passwordHash: expect.stringMatching(/^\$2a\$04\$/),
      providers: [],
      signsInByEmailCode: false,
      profile: {
        displayName: 'Ada Lovelace',
        photoUrl: 'https://example.com/ada.png',
        signedUpAt: '2024-01-01T00:00:00.000Z',
        lastSignedInAt: '2025-06-01T12:00:00.000Z',
        userMetadata: { full_name: 'Ada Lovelace', avatar_url: 'https://example.com/ada.png' },
        appMetadata: { provider: 'email', providers: ['email'], roles: ['admin', 'editor'] },
      },
    });
    // Read in the order of the ids, each row keyed by its id wherever it stands.
    expect(ada.location).toEqual({
      file: expect.stringMatching(/^postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/waiting_1 \(auth\.users\)$/),
      index: 0,
      id: ids.ada,
    });
    expect(user(read, ids.grace)).toMatchObject({
      email: 'grace@example.com',
      providers: [{ providerId: 'google', providerUserId: '107735233542344539841', email: 'grace@example.com' }],
      profile: { displayName: 'Grace Hopper', photoUrl: 'https://example.com/grace.png' },
    });
    expect(user(read, ids.grace).passwordHash).toBeUndefined();
    expect(user(read, ids.alan)).toMatchObject({
      passwordHash: expect.stringMatching(/^\$2a\$/),
      providers: [{ providerId: 'github', providerUserId: '583231' }],
    });
    // Supabase keeps a phone number without its plus: the login is written in E.164.
    expect(user(read, ids.phone)).toMatchObject({ phoneNumber: '+14155550123', providers: [], profile: { phoneNumber: '14155550123' } });
    expect(user(read, ids.phone).email).toBeUndefined();
    expect(user(read, ids.banned)).toMatchObject({ disabled: true, disabledBecause: 'banned until 2999-01-01T00:00:00.000Z' });
    expect(user(read, ids.unbanned).disabled).toBeUndefined();
    expect(user(read, ids.deleted)).toMatchObject({ disabled: true, deleted: true, disabledBecause: 'deleted_at 2025-01-01T00:00:00.000Z' });
    expect(user(read, ids.anonymous)).toMatchObject({ anonymous: true, providers: [] });
    expect(user(read, ids.sso).providers).toEqual([
      { providerId: 'sso:3a1f0c2e-0000-4000-8000-000000000001', providerUserId: 'sam@corp.example', email: 'sam@corp.example' },
    ]);
    expect(user(read, ids.link)).toMatchObject({ email: 'link@example.com', signsInByEmailCode: true, providers: [] });
    expect(user(read, ids.unconfirmed)).toMatchObject({ emailVerified: false, passwordHash: expect.stringMatching(/^\$2a\$/) });
    // A broken record is named by its row, its id and its field; the others are read.
    expect(read.get(ids.broken)).toEqual({
      kind: 'malformed',
      location: { file: ada.location.file, index: 11, id: ids.broken, field: 'identities[0]' },
      sourceId: ids.broken,
      reason: 'field "identities[0]": the github identity has neither "provider_id" nor "identity_data.sub"',
    });
  });

  it('plans each user to its end: bcrypt imported, social and phone users, roles, disabled, deleted, anonymous and SSO users', async () => {
    const planned = await planOf(supabase, { roles: { from: 'appMetadata.roles', rename: {} } });
    const of = (id: string) => planned.find((record) => record.location.id === id)?.items ?? [];
    expect(of(ids.ada)).toMatchObject([
      { kind: 'passwordImport', family: 'bcrypt', identity: { sourceId: ids.ada, roles: ['admin', 'editor'], emailVerified: true } },
    ]);
    expect(of(ids.grace)).toMatchObject([{ kind: 'thirdPartySignInUp', body: { thirdPartyId: 'google', thirdPartyUserId: '107735233542344539841' } }]);
    expect(of(ids.alan).map((item) => item.kind)).toEqual(['passwordImport', 'thirdPartySignInUp']);
    expect(of(ids.phone)).toMatchObject([{ kind: 'passwordlessSignInUp', body: { phoneNumber: '+14155550123' } }]);
    expect(of(ids.banned)).toMatchObject([{ kind: 'rejection', code: 'disabledAccount', reason: expect.stringContaining('banned until 2999-01-01') }]);
    expect(of(ids.unbanned)).toMatchObject([{ kind: 'passwordImport' }]);
    expect(of(ids.deleted)).toMatchObject([{ kind: 'rejection', code: 'disabledAccount', reason: expect.stringContaining('deleted in the old system') }]);
    expect(of(ids.anonymous)).toMatchObject([{ kind: 'rejection', code: 'anonymousUser', reason: expect.stringContaining('an anonymous user of supabase') }]);
    expect(of(ids.sso)).toMatchObject([{ kind: 'rejection', code: 'unmappedProvider', reason: expect.stringContaining('--provider-map') }]);
    expect(of(ids.link)).toMatchObject([{ kind: 'passwordlessSignInUp', body: { email: 'link@example.com' } }]);
    expect(of(ids.broken)).toMatchObject([{ kind: 'rejection', code: 'malformedRecord' }]);
    // Deleted users stay out whatever --disabled says; banned ones come in, marked, when asked.
    const imported = await planOf(supabase, { disabled: 'import' });
    const importedOf = (id: string) => imported.find((record) => record.location.id === id)?.items ?? [];
    expect(importedOf(ids.banned)).toMatchObject([{ kind: 'passwordImport', identity: { disabled: true } }]);
    expect(importedOf(ids.deleted)).toMatchObject([{ kind: 'rejection', code: 'disabledAccount' }]);
  });

  it('keys each row by its id, so its operation keeps its key when rows come before it between reads', async () => {
    const planned = await planOf(supabase);
    const keys = planned.flatMap((record) => record.items.map((item) => item.operationKey));
    expect(keys.every((key) => /^R[\w-]{11}#/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is detected by its tables; another system, both systems or neither are a sentence', async () => {
    const betterAuth = await server.newDatabase();
    const client = await connect(betterAuth);
    await createBetterAuthPostgres(client, { naming: 'camel' }, []);
    await client.end();
    const { error: asSupabase } = await readAll(readSource(betterAuth, { format: 'supabase' }));
    expect(asSupabase).toBeInstanceOf(SourceError);
    expect((asSupabase as SourceError).message).toContain("has no auth.users table, so it is not a Supabase project's database");
    const both = await databaseWith(SUPABASE_SCHEMA);
    const bothClient = await connect(both);
    await createBetterAuthPostgres(bothClient, { naming: 'camel' }, []);
    await bothClient.end();
    const { error: ambiguous } = await readAll(readSource(both));
    expect(ambiguous).toMatchObject({ code: 'source.unknown-format', setting: 'format' });
    expect((ambiguous as SourceError).detail).toContain('--format supabase or --format better-auth');
    expect(await readAll(readSource(both, { format: 'supabase' }))).toEqual({ records: [], error: undefined });
    const { error: neither } = await readAll(readSource(await server.newDatabase()));
    expect((neither as SourceError).detail).toContain("neither Supabase Auth's auth.users");
    const { error: fileFormat } = await readAll(readSource(supabase, { format: 'csv' }));
    expect((fileFormat as SourceError).detail).toBe("a database URL is read as supabase or better-auth, not as csv (an export file's format)");
  });

  it('names every required column a table lacks before reading a row, and reads an older Supabase without its newer columns', async () => {
    const older = SUPABASE_SCHEMA.replace(/^\s*(is_sso_user|deleted_at|is_anonymous|banned_until|phone|phone_confirmed_at) .*$/gm, '').replace(
      'banned_until timestamptz,',
      '',
    );
    const cleaned = older.replace(/,\s*\n\);\nCREATE TABLE auth\.identities/, '\n);\nCREATE TABLE auth.identities');
    const old = await databaseWith(
      `${cleaned}; INSERT INTO auth.users (id, email, encrypted_password, raw_app_meta_data) VALUES ('${ids.ada}', 'ada@example.com', '', '{}')`,
    );
    const { records, error } = await readAll(readSource(old));
    expect(error).toBeUndefined();
    expect(records).toMatchObject([{ kind: 'user', sourceId: ids.ada, email: 'ada@example.com' }]);
    const missing = await databaseWith(
      'CREATE SCHEMA auth; CREATE TABLE auth.users (id uuid PRIMARY KEY, email text, encrypted_password text, raw_user_meta_data jsonb); ' +
        'CREATE TABLE auth.identities (provider_id text, user_id uuid, identity_data jsonb, provider text)',
    );
    const { error: lacking } = await readAll(readSource(missing));
    expect(lacking).toMatchObject({ code: 'source.missing-column' });
    expect((lacking as SourceError).detail).toBe(
      'the table auth.users has no columns "email_confirmed_at" and "raw_app_meta_data", which core-migrate needs to read its users: is it the table of another version or system?',
    );
  });

  it('reads a run in one snapshot: rows written meanwhile are not seen by its later reads, and a fresh read sees them', async () => {
    const url = await databaseWith(SUPABASE_SCHEMA, supabaseUsers().slice(0, 2));
    const snapshot = await PostgresSnapshot.open(url);
    try {
      const first = await readAll(readSource(url, { database: snapshot }));
      const writer = await connect(url);
      await insertSupabaseUsers(writer, [{ id: '00000000-0000-4000-8000-000000000000', email: 'new@example.com', encrypted_password: '' }]);
      await writer.query('UPDATE auth.users SET email = $1 WHERE id = $2', ['changed@example.com', ids.ada]);
      await writer.end();
      const second = await readAll(readSource(url, { database: snapshot }));
      expect(second.records).toEqual(first.records);
      const fresh = await readAll(readSource(url));
      expect(fresh.records.map((record) => record.kind === 'user' && record.email)).toEqual(['new@example.com', 'changed@example.com', 'grace@example.com']);
    } finally {
      await snapshot.close();
    }
  });

  it('streams a table larger than a cursor batch, each row once, in order', async () => {
    const url = await databaseWith(SUPABASE_SCHEMA);
    const client = await connect(url);
    await client.query(
      "INSERT INTO auth.users (id, email, encrypted_password, raw_app_meta_data, raw_user_meta_data) SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, " +
        "'user' || n || '@example.com', '', '{}', '{}' FROM generate_series(1, 1234) AS n",
    );
    await client.end();
    const { records, error } = await readAll(readSource(url));
    expect(error).toBeUndefined();
    expect(records.map((record) => record.location.index)).toEqual(Array.from({ length: 1234 }, (_, index) => index));
    expect(new Set(records.map((record) => record.sourceId)).size).toBe(1234);
  });

  it('says why a database cannot be read: a refused login, one that cannot be reached', async () => {
    const wrong = new URL(supabase);
    wrong.password = 'not-the-password';
    const { error: refused } = await readAll(readSource(wrong.toString()));
    expect(refused).toMatchObject({ code: 'source.unreadable' });
    expect((refused as SourceError).detail).toBe('the database refused the login: check the user in the URL and the password in PGPASSWORD');
    expect((refused as SourceError).message).not.toContain('not-the-password');
    const { error: unreachable } = await readAll(readSource('postgresql://postgres@127.0.0.1:1/none'));
    expect((unreachable as SourceError).detail).toBe('the database cannot be reached (ECONNREFUSED)');
  });
});

/** A row as `COPY … TO … CSV HEADER` writes it: `t`/`f`, PostgreSQL's timestamps, JSON as text, NULL as nothing. */
function csvValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'boolean' ? (value ? 't' : 'f') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n]/.test(text) || text === '' ? `"${text.replace(/"/g, '""')}"` : text;
}

const FILE_COLUMNS = [
  'id',
  'email',
  'encrypted_password',
  'email_confirmed_at',
  'phone',
  'phone_confirmed_at',
  'raw_app_meta_data',
  'raw_user_meta_data',
  'banned_until',
  'deleted_at',
  'is_anonymous',
  'is_sso_user',
  'created_at',
  'last_sign_in_at',
  'identities',
] as const;

function fileRow(row: SupabaseRow): Record<string, unknown> {
  const full: Record<string, unknown> = { is_anonymous: false, is_sso_user: false, ...row };
  return Object.fromEntries(FILE_COLUMNS.map((column) => [column, full[column] ?? null]));
}

function supabaseCsv(rows: readonly SupabaseRow[], columns: readonly string[] = FILE_COLUMNS): string {
  const lines = rows.map((row) => {
    const values = fileRow(row);
    return columns.map((column) => csvValue(values[column])).join(',');
  });
  return `${columns.join(',')}\n${lines.join('\n')}\n`;
}

describe('Supabase read from a file of its rows (COPY … CSV HEADER, the SQL editor JSON)', () => {
  it('reads a CSV and a JSON array of the rows as the database reads them, and detects both', async () => {
    await withTempDir(async (dir) => {
      const rows = supabaseUsers();
      const csv = join(dir, 'users.csv');
      await writeFile(csv, supabaseCsv(rows));
      const json = join(dir, 'users.json');
      // The SQL editor's JSON: timestamps as text, JSON columns as objects, the identities as a list.
      await writeFile(json, JSON.stringify(rows.map(fileRow), null, 2));
      expect(await detectFormat(csv)).toBe('supabase');
      expect(await detectFormat(json)).toBe('supabase');
      const fromDatabase = (await readAll(readSource(supabase))).records;
      const fromCsv = await readAll(readSource(csv));
      const fromJson = await readAll(readSource(json));
      expect(fromCsv.error).toBeUndefined();
      expect(fromJson.error).toBeUndefined();
      const sorted = (records: SourceRecord[]) => [...records].sort((a, b) => (a.sourceId ?? '').localeCompare(b.sourceId ?? '')).map(withoutLocation);
      expect(sorted(fromCsv.records)).toEqual(sorted(fromDatabase));
      expect(sorted(fromJson.records)).toEqual(sorted(fromDatabase));
      expect(fromCsv.records[1]?.location).toEqual({ file: csv, line: 3 });
      expect(fromJson.records[1]?.location).toEqual({ file: json, index: 1 });
    });
  });

  it('names a broken row by its line and field, a row cut short, and a file cut short', async () => {
    await withTempDir(async (dir) => {
      const rows = supabaseUsers().slice(0, 3);
      const csv = join(dir, 'users.csv');
      const text = supabaseCsv(rows).replace(',f,f,', ',maybe,f,');
      await writeFile(csv, `${text}${text.split('\n')[2]?.slice(0, 60) ?? ''}\n`);
      const { records, error } = await readAll(readSource(csv));
      expect(error).toBeUndefined();
      expect(records[0]).toEqual({
        kind: 'malformed',
        location: { file: csv, line: 2, field: 'is_anonymous' },
        sourceId: ids.ada,
        reason: 'field "is_anonymous": must be true or false',
      });
      expect(records.slice(1, 3).map((record) => record.kind)).toEqual(['user', 'user']);
      expect(records[3]).toMatchObject({ kind: 'malformed', location: { file: csv, line: 5 }, reason: expect.stringContaining('cut short?') });
      const json = join(dir, 'users.json');
      const whole = JSON.stringify(rows.map(fileRow));
      await writeFile(json, whole.slice(0, whole.length - 40));
      const cut = await readAll(readSource(json, { format: 'supabase' }));
      expect(cut.records.map((record) => record.sourceId)).toEqual([ids.ada, ids.grace]);
      expect(cut.error).toMatchObject({ code: 'source.truncated' });
    });
  });

  it('refuses a file of another system with a sentence, and a user whose social login the file cannot link', async () => {
    await withTempDir(async (dir) => {
      const clerk = join(dir, 'clerk.csv');
      await writeFile(clerk, 'id,first_name,last_name,primary_email_address,password_digest,password_hasher\nuser_1,Ada,L,ada@example.com,,\n');
      const { error } = await readAll(readSource(clerk, { format: 'supabase' }));
      expect((error as SourceError).detail).toBe(
        'the header row has no "email", "encrypted_password", "email_confirmed_at", "raw_app_meta_data", "raw_user_meta_data": not a CSV of Supabase\'s auth.users (COPY … CSV HEADER)',
      );
      const firebase = join(dir, 'firebase.json');
      await writeFile(firebase, JSON.stringify([{ localId: 'abc', email: 'ada@example.com', passwordHash: 'x' }, fileRow(supabaseUsers()[0] ?? { id: '' })]));
      const mixed = await readAll(readSource(firebase, { format: 'supabase' }));
      expect(mixed.records[0]).toEqual({
        kind: 'malformed',
        location: { file: firebase, index: 0 },
        reason:
          "not a row of Supabase's auth.users: it has neither encrypted_password nor raw_app_meta_data (an export of another system? name its format with --format)",
      });
      expect(mixed.records[1]).toMatchObject({ kind: 'user', sourceId: ids.ada });
      const object = join(dir, 'export.json');
      await writeFile(object, '{"users": []}');
      expect((await readAll(readSource(object, { format: 'supabase' }))).error).toMatchObject({ code: 'source.wrong-format' });
      const withoutIdentities = join(dir, 'no-identities.csv');
      await writeFile(
        withoutIdentities,
        supabaseCsv(
          supabaseUsers().slice(0, 2),
          FILE_COLUMNS.filter((column) => column !== 'identities'),
        ),
      );
      const unlinked = await readAll(readSource(withoutIdentities));
      expect(unlinked.records[0]).toMatchObject({ kind: 'user', sourceId: ids.ada });
      expect(unlinked.records[1]).toMatchObject({
        kind: 'malformed',
        location: { field: 'identities' },
        reason: expect.stringContaining('the user signs in with google, whose account ids are in auth.identities, which this file does not hold'),
      });
    });
  });
});
