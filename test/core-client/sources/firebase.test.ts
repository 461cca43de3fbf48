import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_DEPTH } from '../../../core-client/src/sources/json/json-depth.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

// The published vector of the firebase/scrypt repository (password "user1password").
const VECTOR_HASH = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';
const VECTOR_SALT = '42xEC+ixf3L2lw==';

/** The first two users of both Firebase fixtures (JSON and CSV hold the same people). */
function adaAndGrace(adaAt: SourceUser['location'], graceAt: SourceUser['location'], graceName?: string): SourceUser[] {
  return [
    {
      kind: 'user',
      location: adaAt,
      sourceId: 'fb-1',
      system: 'firebase',
      profile: { displayName: 'Ada', signedUpAt: '2020-09-13T12:26:40.000Z', lastSignedInAt: '2020-09-13T12:26:41.000Z' },
      email: 'ada@example.com',
      emailVerified: true,
      passwordHash: VECTOR_HASH,
      salt: VECTOR_SALT,
      providers: [],
    },
    {
      kind: 'user',
      location: graceAt,
      sourceId: 'fb-2',
      system: 'firebase',
      profile: { ...(graceName === undefined ? {} : { displayName: graceName }), signedUpAt: '2020-09-13T12:26:42.000Z' },
      email: 'grace@example.com',
      emailVerified: false,
      providers: [
        { providerId: 'google.com', providerUserId: '1234567890', email: 'grace@gmail.com' },
        { providerId: 'github.com', providerUserId: '42' },
      ],
    },
  ];
}

describe('Firebase auth:export JSON', () => {
  const path = fixture('firebase/users.json');

  it('reads every user with hash, salt, verified flag and linked providers', async () => {
    const { records, error } = await readAll(readSource(path, { format: 'firebase-json' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      ...adaAndGrace({ file: path, index: 0 }, { file: path, index: 1 }),
      expect.objectContaining({ sourceId: 'fb-3', salt: 'c2FsdHNhbHQ=', providers: [{ providerId: 'facebook.com', providerUserId: 'fb-555' }] }),
      // "password" and "phone" are sign-in methods, not third-party accounts: the number is the user's phone login.
      {
        kind: 'user',
        location: { file: path, index: 3 },
        sourceId: 'fb-4',
        system: 'firebase',
        phoneNumber: '+15555550100',
        profile: { phoneNumber: '+15555550100' },
        providers: [],
      },
    ]);
  });

  it('turns a broken user into a malformed record naming the field, and goes on', async () => {
    const file = fixture('firebase/bad-records.json');
    const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
    expect(error).toBeUndefined();
    // A broken record still names its old id when it has one.
    expect(records.map((record) => [record.kind, record.location.index, record.location.field, record.sourceId])).toEqual([
      ['user', 0, undefined, 'fb-1'],
      ['malformed', 1, 'emailVerified', 'fb-2'],
      ['malformed', 2, 'localId', undefined],
      ['malformed', 3, 'providerUserInfo[0].providerId', 'fb-4'],
      ['malformed', 4, 'user', undefined],
      ['user', 5, undefined, 'fb-6'],
    ]);
    expect(records[1]).toMatchObject({ reason: expect.stringContaining('emailVerified') });
  });

  it('stops a truncated file with an error naming the end of the file, after the users before it', async () => {
    const file = fixture('broken/truncated.json');
    const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
    expect(records.map((record) => (record as SourceUser).sourceId)).toEqual(['fb-1', 'fb-2']);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).reason).toBe('truncated');
    expect(error).toMatchObject({ code: 'source.truncated', kind: 'setting', setting: 'file' });
    expect((error as SourceError).location).toEqual({ file, line: 4, byteOffset: 750 });
    expect((error as SourceError).message).toContain('the last element read is #1');
  });

  it('stops on a syntax error with the place and the last good element', async () => {
    const file = fixture('broken/syntax-error.json');
    const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
    expect(records).toHaveLength(2);
    expect((error as SourceError).reason).toBe('not-json');
    expect((error as SourceError).message).toMatch(/expected ','; the last element read is #1$/);
  });

  it('finds the users after other keys, and refuses a user nested too deep by its record number, reading on', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.json');
      const deep = `${'{"a":'.repeat(MAX_RECORD_DEPTH)}1${'}'.repeat(MAX_RECORD_DEPTH)}`;
      await writeFile(
        file,
        `{"kind": "x", "meta": {"a": [[{}]]},\n "users": [{"localId": "fb-1"}, {"localId": "fb-2", "extra": ${deep}}, {"localId": "fb-3"}], "next": null}`,
      );
      const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
      expect(error).toBeUndefined();
      expect(records.map((record) => [record.kind, record.location.index])).toEqual([
        ['user', 0],
        ['malformed', 1],
        ['user', 2],
      ]);
      expect(records[1]).toMatchObject({ reason: `the record nests deeper than ${MAX_RECORD_DEPTH} levels, deeper than any export of users` });
    });
  });

  it('keeps a creation time past the range of a date as exported, instead of stopping the reading', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.json');
      await writeFile(file, JSON.stringify({ users: [{ localId: 'fb-1', createdAt: '99999999999999999999', lastSignedInAt: ' 1600000000000 ' }] }));
      const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
      expect(error).toBeUndefined();
      expect(records[0]).toMatchObject({ profile: { signedUpAt: '99999999999999999999', lastSignedInAt: '2020-09-13T12:26:40.000Z' } });
    });
  });

  it('refuses a file of the wrong format when the format is forced', async () => {
    const csv = await readAll(readSource(fixture('firebase/users.csv'), { format: 'firebase-json' }));
    expect((csv.error as SourceError).reason).toBe('wrong-format');
    const array = await readAll(readSource(fixture('generic/users-array.json'), { format: 'firebase-json' }));
    expect((array.error as SourceError).reason).toBe('wrong-format');
    // The forced format is what the operator changes.
    expect(array.error).toMatchObject({ code: 'source.wrong-format', kind: 'setting', setting: 'format' });
  });
});

describe('Firebase auth:export CSV', () => {
  it('reads the old width (28 columns and a trailing comma), with "" escapes inside quoted fields', async () => {
    const path = fixture('firebase/users.csv');
    const { records, error } = await readAll(readSource(path, { format: 'firebase-csv' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      // The CSV's name column keeps the quoted "" escapes of Grace's name.
      ...adaAndGrace({ file: path, line: 1 }, { file: path, line: 2 }, 'Hopper, Grace "Amazing"'),
      expect.objectContaining({
        sourceId: 'fb-3',
        providers: [
          { providerId: 'facebook.com', providerUserId: 'fb-555' },
          { providerId: 'twitter.com', providerUserId: 'tw-9', email: 'linus@twitter.example' },
        ],
      }),
    ]);
  });

  it('reads the new width with the providers of columns 28-51, and reports a bad verified flag', async () => {
    const path = fixture('firebase/users-wide.csv');
    const { records, error } = await readAll(readSource(path, { format: 'firebase-csv' }));
    expect(error).toBeUndefined();
    expect(records[0]).toMatchObject({
      sourceId: 'fb-10',
      providers: [
        { providerId: 'apple.com', providerUserId: 'apple-001', email: 'tim@privaterelay.appleid.com' },
        { providerId: 'linkedin.com', providerUserId: 'li-77' },
      ],
    });
    expect(records[1]).toEqual({
      kind: 'malformed',
      location: { file: path, line: 2, field: 'emailVerified' },
      sourceId: 'fb-11',
      reason: expect.stringContaining('"maybe"'),
    });
    expect(records[2]).toMatchObject({
      sourceId: 'fb-12',
      providers: [
        { providerId: 'playgames.google.com', providerUserId: 'pg-8' },
        { providerId: 'yahoo.com', providerUserId: 'yahoo-3' },
      ],
    });
  });

  it('keeps the rows after a stray quote', async () => {
    const path = fixture('broken/stray-quote-firebase.csv');
    const { records, error } = await readAll(readSource(path, { format: 'firebase-csv' }));
    expect(error).toBeUndefined();
    expect(records.map((record) => [record.kind, record.location.line])).toEqual([
      ['user', 1],
      ['malformed', 2],
      ['malformed', 3],
      ['user', 4],
    ]);
    expect(records[2]).toMatchObject({ reason: expect.stringContaining('stray quote in column 12') });
  });

  it('refuses a CSV with a header row as a Firebase CSV', async () => {
    const { error } = await readAll(readSource(fixture('generic/users.csv'), { format: 'firebase-csv' }));
    expect((error as SourceError).reason).toBe('wrong-format');
    expect((error as SourceError).location.line).toBe(1);
  });
});
