import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { parseFieldMapping } from '../../../core-client/src/sources/generic/field-mapping.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

/** The Firebase Auth emulator's `emulators:export` of seven users (README.md beside it says how it was made). */
const emulatorExport = fixture('firebase/emulator/accounts.json');

function accountApiUser(index: number): object {
  return {
    localId: `u${index}`,
    email: `user${index}@example.com`,
    emailVerified: true,
    passwordHash: 'fakeHash:salt=s:password=p',
    salt: 's',
    passwordUpdatedAt: 1795831114569,
    validSince: '1795831114',
    createdAt: '1795831114569',
    lastLoginAt: '1795831114569',
    lastRefreshAt: '2026-11-28T01:58:34.569Z',
    providerUserInfo: [
      { providerId: 'password', email: `user${index}@example.com`, federatedId: `user${index}@example.com`, rawId: `user${index}@example.com` },
    ],
  };
}

function expectUnknownObject(result: unknown, file: string): void {
  expect(result).toBeInstanceOf(SourceError);
  const error = result as SourceError;
  expect(error.code).toBe('source.unknown-object');
  expect(error.setting).toBe('format');
  expect(error.location.file).toBe(file);
  expect(error.describe('flags', (setting) => `--${setting}`)).toContain('one JSON object of no shape core-migrate reads');
  expect(error.describe('flags', (setting) => `--${setting}`)).toContain('set --format if the file is one of these');
}

describe('an object whose "users" holds an array is a Firebase export, wherever the key stands (issue 43)', () => {
  it("the Auth emulator's export (one line, kind first) is read as Firebase: seven users, the account API's extra fields taken", async () => {
    expect(await detectFormat(emulatorExport)).toBe('firebase-json');
    const { records, error } = await readAll(readSource(emulatorExport));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(7);
    expect(records.every((record) => record.kind === 'user')).toBe(true);
    const users = records as SourceUser[];
    const byEmail = new Map(users.map((user) => [user.email, user]));
    expect(users.find((user) => user.phoneNumber === '+447700900123')).toMatchObject({ system: 'firebase', providers: [] });
    expect(byEmail.get('linus@example.com')).toMatchObject({ emailVerified: true, providers: [] });
    expect(byEmail.get('linus@example.com')).not.toHaveProperty('passwordHash');
    expect(byEmail.get('grace@example.com')?.providers).toEqual([
      { providerId: 'google.com', providerUserId: '104398275561232874101', email: 'grace@example.com' },
    ]);
    expect(byEmail.get('off@example.com')).toMatchObject({ disabled: true });
    for (const email of ['ada@example.com', 'alan@example.com', 'edsger@example.com']) {
      expect(byEmail.get(email)?.passwordHash).toMatch(/^fakeHash:/);
    }
  });

  it.each([
    ['one line, kind first', (users: object[]) => JSON.stringify({ kind: 'identitytoolkit#DownloadAccountResponse', users })],
    ['many lines, kind first', (users: object[]) => JSON.stringify({ kind: 'identitytoolkit#DownloadAccountResponse', users }, null, 2)],
    ['users last, after a key longer than the head', (users: object[]) => JSON.stringify({ note: 'n'.repeat(100 * 1024), nextPageToken: 'x', users }, null, 1)],
  ])('%s', async (_layout, write) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'accounts.json');
      await writeFile(path, write([accountApiUser(1), accountApiUser(2), accountApiUser(3)]));
      expect(await detectFormat(path)).toBe('firebase-json');
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      expect(records.map((record) => record.kind)).toEqual(['user', 'user', 'user']);
    });
  });

  it('a Firebase export on one line longer than any NDJSON line may be', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'accounts.json');
      const users = Array.from({ length: 600 }, (_, index) => accountApiUser(index));
      await writeFile(path, JSON.stringify({ kind: 'identitytoolkit#DownloadAccountResponse', users }));
      expect(await detectFormat(path, 128 * 1024)).toBe('firebase-json');
    });
  });

  it('detection streams: it stops at the first user, so a broken end is left to the reader', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'accounts.json');
      await writeFile(path, `${JSON.stringify({ kind: 'k', users: [accountApiUser(1)] }).slice(0, -2)},{"localId": `);
      expect(await detectFormat(path)).toBe('firebase-json');
      const { records, error } = await readAll(readSource(path));
      expect(records).toHaveLength(1);
      expect((error as SourceError).reason).toBe('truncated');
    });
  });
});

describe('a file that is one JSON object of no known shape is refused, one user is one NDJSON record (issue 43)', () => {
  it.each([
    ['an object on one line', '{"kind":"identitytoolkit#DownloadAccountResponse","accounts":[{"localId":"a"}]}\n'],
    ['an object over many lines', '{\n  "kind": "something",\n  "accounts": []\n}\n'],
    ['an empty object', '{}'],
    ['an object whose "users" is no array', '{"kind":"k","users":{"a":{"localId":"a"}}}'],
  ])('%s', async (_shape, text) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'export.json');
      await writeFile(path, text);
      expectUnknownObject(await detectFormat(path), path);
      const { records, error } = await readAll(readSource(path));
      expect(records).toEqual([]);
      expectUnknownObject(error, path);
    });
  });

  it('an object alone on a line longer than the head, then blank lines', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'export.json');
      await writeFile(path, `${JSON.stringify({ note: 'n'.repeat(100 * 1024) })}\n\n  \n`);
      expectUnknownObject(await detectFormat(path), path);
    });
  });

  it.each([
    ['the contract', '{"email":"a@example.com","passwordHash":"$2a$10$x"}', 'ndjson'],
    ['an id only', '{"id":"42"}', 'ndjson'],
    ['Auth0', '{"user_id":"auth0|1","email":"a@example.com"}', 'auth0'],
  ])('one user of %s on one line is one record', async (_shape, line, format) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'export.ndjson');
      await writeFile(path, `${line}\n`);
      expect(await detectFormat(path)).toBe(format);
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      expect(records).toHaveLength(1);
    });
  });

  it('a user named through the field mapping is one record; without the mapping it is an object of no known shape', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'export.ndjson');
      await writeFile(path, '{"profile":{"mail":"a@example.com"}}\n');
      const mapping = parseFieldMapping({ email: 'profile.mail' });
      if (mapping instanceof SourceError) throw mapping;
      const { records, error } = await readAll(readSource(path, { mapping }));
      expect(error).toBeUndefined();
      expect(records).toEqual([expect.objectContaining({ kind: 'user', email: 'a@example.com' })]);
      expectUnknownObject(await detectFormat(path), path);
    });
  });

  it('an object of no known shape followed by more lines is NDJSON: its records are refused one by one', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'export.ndjson');
      await writeFile(path, '{"kind":"header"}\n{"email":"a@example.com"}\n');
      expect(await detectFormat(path)).toBe('ndjson');
    });
  });
});
