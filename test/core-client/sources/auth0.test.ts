import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { type SourceError } from '../../../core-client/src/sources/source-error.js';
import type { SourceRecord, SourceUser } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

const usersFile = fixture('auth0/users.ndjson');
const passwordFile = fixture('auth0/passwords.ndjson');

function bySourceId(records: SourceRecord[]): Map<string, SourceUser> {
  return new Map(
    records
      .filter((record): record is SourceUser => record.kind === 'user')
      .map((user) => [`${user.location.file === passwordFile ? 'pw:' : ''}${user.sourceId}`, user]),
  );
}

describe('Auth0 user export joined with the password-hash export', () => {
  it('joins on user_id == "auth0|" + (alt_id ?? _id.$oid), never on email', async () => {
    const { records, error } = await readAll(readSource(usersFile, { format: 'auth0', auth0PasswordFile: passwordFile }));
    expect(error).toBeUndefined();
    const users = bySourceId(records);
    expect(users.get('auth0|60425dc43519d90068f82973')).toMatchObject({
      email: 'ada@example.com',
      emailVerified: true,
      passwordHash: expect.stringMatching(/^\$2b\$10\$Z6hU/),
      providers: [],
    });
    expect(users.get('auth0|legacy-7')?.passwordHash).toMatch(/^\$2b\$10\$C4H1/); // through alt_id
    // Same email as a hash entry with another id: not joined; that entry is a password-only user.
    expect(users.get('auth0|60425dc43519d90068f82999')?.passwordHash).toBeUndefined();
    expect(users.get('pw:auth0|60425dc43519d90068f82000')).toMatchObject({ email: 'shared@example.com', location: { file: passwordFile, line: 3 } });
    expect(users.get('pw:auth0|60425dc43519d90068f82001')).toMatchObject({ email: 'orphan@example.com', providers: [] });
    expect(users.get('auth0|60425dc43519d90068f829aa')?.passwordHash).toBeUndefined();
  });

  it('links social identities as the export names them, but not the auth0 database connection', async () => {
    const { records } = await readAll(readSource(usersFile, { format: 'auth0', auth0PasswordFile: passwordFile }));
    const users = bySourceId(records);
    expect(users.get('google-oauth2|109876543210')?.providers).toEqual([
      { providerId: 'google-oauth2', providerUserId: '109876543210' },
      { providerId: 'github', providerUserId: '4242' },
    ]);
    expect(users.get('auth0|legacy-7')?.providers).toEqual([]);
  });

  it('yields bad hash lines first, then users in file order, then unmatched hash entries; every line once', async () => {
    const { records } = await readAll(readSource(usersFile, { format: 'auth0', auth0PasswordFile: passwordFile }));
    expect(records.map((record) => [record.kind, record.location.file === passwordFile ? 'pw' : 'users', record.location.line])).toEqual([
      ['malformed', 'pw', 5],
      ['malformed', 'pw', 6],
      ['user', 'users', 1],
      ['user', 'users', 2],
      ['user', 'users', 3],
      ['user', 'users', 4],
      ['malformed', 'users', 5],
      ['user', 'users', 6],
      ['user', 'pw', 3],
      ['user', 'pw', 4],
    ]);
    expect(records[0]).toMatchObject({ location: { field: 'passwordHash' } });
    expect(records[6]).toMatchObject({ location: { field: 'user_id' } });
  });

  it('reads the user export alone', async () => {
    const { records, error } = await readAll(readSource(usersFile, { format: 'auth0' }));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(6);
    expect(records.every((record) => record.kind === 'malformed' || record.passwordHash === undefined)).toBe(true);
  });

  it('reads the password-hash export alone as password-only users', async () => {
    const { records, error } = await readAll(readSource(passwordFile, { format: 'auth0' }));
    expect(error).toBeUndefined();
    expect(records.filter((record) => record.kind === 'user').map((user) => (user as SourceUser).sourceId)).toEqual([
      'auth0|60425dc43519d90068f82973',
      'auth0|legacy-7',
      'auth0|60425dc43519d90068f82000',
      'auth0|60425dc43519d90068f82001',
    ]);
  });

  it('reports a duplicate id in the hash file and keeps the first', async () => {
    await withTempDir(async (dir) => {
      const hashes = join(dir, 'passwords.ndjson');
      await writeFile(
        hashes,
        [
          '{"_id":{"$oid":"a1"},"email":"x@example.com","passwordHash":"$2b$10$first"}',
          '{"_id":{"$oid":"a1"},"email":"y@example.com","passwordHash":"$2b$10$second"}',
          '',
        ].join('\n'),
      );
      const { records } = await readAll(readSource(hashes, { format: 'auth0' }));
      expect(records).toEqual([
        { kind: 'malformed', location: { file: hashes, line: 2, field: '_id' }, sourceId: 'auth0|a1', reason: expect.stringContaining('auth0|a1') },
        expect.objectContaining({ kind: 'user', email: 'x@example.com', passwordHash: '$2b$10$first' }),
      ]);
    });
  });

  it('refuses a password file that is not a hash export', async () => {
    const { error } = await readAll(readSource(usersFile, { format: 'auth0', auth0PasswordFile: usersFile }));
    expect((error as SourceError).reason).toBe('wrong-format');
    expect((error as SourceError).location.file).toBe(usersFile);
    // A problem of the password file's setting, as data: the face names that setting.
    expect(error).toMatchObject({ code: 'source.wrong-format', kind: 'setting', setting: 'auth0PasswordFile' });
  });
});
