import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSource, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import type { SourceRecord, SourceUser } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

const listUsers = fixture('cognito/list-users.json');
const importCsv = fixture('cognito/users.csv');

function users(records: readonly SourceRecord[]): SourceUser[] {
  return records.filter((record): record is SourceUser => record.kind === 'user');
}

async function planOf(path: string): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path)) planned.push(record);
  return planned;
}

describe('detecting a Cognito export', () => {
  it.each([
    ['cognito/list-users.json', 'cognito-json'],
    ['cognito/users.csv', 'cognito-csv'],
  ])('%s is %s', async (file, format) => {
    expect(await detectFormat(fixture(file))).toBe(format);
  });

  it('tells list-users output on one line, and without a .json name, from a Firebase export', async () => {
    await withTempDir(async (dir) => {
      const oneLine = join(dir, 'pool-export');
      await writeFile(oneLine, '{"Users":[{"Username":"u1","Attributes":[{"Name":"email","Value":"a@example.com"}]}]}');
      expect(await detectFormat(oneLine)).toBe('cognito-json');
      const firebase = join(dir, 'firebase.json');
      await writeFile(firebase, '{"users":[{"localId":"a"}]}');
      expect(await detectFormat(firebase)).toBe('firebase-json');
    });
  });
});

describe('aws cognito-idp list-users JSON', () => {
  it('reads sub as the old id, email and its verification, a name and custom attributes, and says no hash is available', async () => {
    const { records, error } = await readAll(readSource(listUsers));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(8);
    expect(records[0]).toEqual({
      kind: 'user',
      location: { file: listUsers, index: 0 },
      sourceId: '7c1e4a52-3b8f-4d0e-9f61-2a5c8e0b1d01',
      system: 'cognito',
      email: 'ada@example.com',
      emailVerified: true,
      profile: {
        displayName: 'Ada Lovelace',
        signedUpAt: '2024-03-01T09:30:00.123000+00:00',
        phoneNumber: '+447700900123',
        customAttributes: { tier: 'gold', role: 'admin' },
      },
      providers: [],
      signsInByEmailCode: false,
    });
    expect(users(records).every((user) => user.passwordHash === undefined && user.signsInByEmailCode === false)).toBe(true);
  });

  it('makes a user with only a phone number a phone login, and a time in epoch seconds ISO', async () => {
    const { records } = await readAll(readSource(listUsers));
    expect(records[1]).toMatchObject({
      sourceId: '0b6f2d9e-58a1-4c37-8e2b-91d4f7a3c602',
      phoneNumber: '+14155550199',
      profile: { phoneNumber: '+14155550199', signedUpAt: '2024-03-01T09:30:00.500Z' },
    });
    expect(records[1]).not.toHaveProperty('email');
    // Beside an email the number stays in the metadata only.
    expect(records[0]).not.toHaveProperty('phoneNumber');
  });

  it('reads Enabled false and a status that lets nobody in as a disabled account; an unconfirmed user is not', async () => {
    const { records } = await readAll(readSource(listUsers));
    expect(records[2]).toMatchObject({ email: 'gone@example.com', disabled: true });
    expect(records[7]).toMatchObject({ email: 'mallory@example.com', disabled: true });
    expect(records[6]).not.toHaveProperty('disabled');
    expect(records[0]).not.toHaveProperty('disabled');
  });

  it("reads a federated user's identities as linked accounts, and groups beside a user as its roles", async () => {
    const { records } = await readAll(readSource(listUsers));
    expect(records[4]).toMatchObject({
      sourceId: 'f6c0e5b3-4a8d-4b12-d9f7-2e1a3c4d5e06',
      email: 'grace@example.com',
      emailVerified: false,
      providers: [{ providerId: 'Google', providerUserId: '109876543210987654321' }],
    });
    expect(records[6]).toMatchObject({ roles: ['editors', 'beta'], profile: { displayName: 'Linus Pauling' }, emailVerified: false });
  });

  it('names a bad record by its index and field, and reads the records after it', async () => {
    const { records } = await readAll(readSource(listUsers));
    expect(records[3]).toEqual({
      kind: 'malformed',
      location: { file: listUsers, index: 3, field: 'Attributes[2]' },
      reason: 'field "Attributes[2]": email_verified must be "true" or "false"',
    });
    expect(records[5]).toMatchObject({ kind: 'malformed', location: { index: 5, field: 'Username' } });
    expect(users(records)).toHaveLength(6);
  });

  it('names a federated user whose identities are not a list', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.json');
      const attributes = [
        { Name: 'email', Value: 'a@example.com' },
        { Name: 'identities', Value: '{"providerName":"Google"}' },
      ];
      await writeFile(path, JSON.stringify({ Users: [{ Username: 'u1', Attributes: attributes }, { Username: 'u2' }] }));
      const { records } = await readAll(readSource(path));
      expect(records[0]).toMatchObject({ kind: 'malformed', location: { index: 0, field: 'Attributes[1]' }, reason: expect.stringContaining('identities') });
      expect(records[1]).toMatchObject({ kind: 'user', sourceId: 'u2', providers: [] });
    });
  });
});

describe("the CSV of Cognito's user-import template", () => {
  it('reads each row by its header; without a sub column the username is the old id', async () => {
    const { records, error } = await readAll(readSource(importCsv));
    expect(error).toBeUndefined();
    expect(records[0]).toEqual({
      kind: 'user',
      location: { file: importCsv, line: 2 },
      sourceId: 'ada',
      system: 'cognito',
      email: 'ada@example.com',
      emailVerified: true,
      profile: {
        displayName: 'Ada Lovelace',
        photoUrl: 'https://example.com/ada.png',
        phoneNumber: '+447700900123',
        customAttributes: { department: 'research' },
      },
      providers: [],
      signsInByEmailCode: false,
    });
    expect(records[1]).toMatchObject({ kind: 'user', sourceId: 'bob', phoneNumber: '+14155550199' });
    expect(records[4]).toMatchObject({
      kind: 'user',
      location: { line: 6 },
      sourceId: 'carol',
      emailVerified: false,
      profile: { displayName: 'Carol Shaw', customAttributes: { department: 'games' } },
    });
  });

  it('names a bad row by its line and column, and reads the rows after it', async () => {
    const { records } = await readAll(readSource(importCsv));
    expect(records[2]).toEqual({
      kind: 'malformed',
      location: { file: importCsv, line: 4, field: 'email_verified' },
      reason: 'field "email_verified": email_verified must be "true" or "false"',
    });
    expect(records[3]).toMatchObject({ kind: 'malformed', location: { line: 5, field: 'cognito:username' } });
    expect(users(records).map((user) => user.sourceId)).toEqual(['ada', 'bob', 'carol']);
  });

  it('takes sub as the old id where a backup tool wrote it, and groups from a cognito:groups column', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'backup.csv');
      await writeFile(path, 'cognito:username,sub,email,email_verified,cognito:groups\nada,5f0c-1,ada@example.com,true,"admins, editors"\n');
      expect(await detectFormat(path)).toBe('cognito-csv');
      const { records } = await readAll(readSource(path));
      expect(records).toEqual([expect.objectContaining({ sourceId: '5f0c-1', roles: ['admins', 'editors'] })]);
    });
  });
});

describe('the plan of a Cognito export', () => {
  it('refuses its password users for want of a hash, and imports phone, federated and disabled users as other exports do', async () => {
    const planned = await planOf(listUsers);
    const kinds = planned.map((record) => record.items.map((item) => (item.kind === 'rejection' ? item.code : item.kind)));
    expect(kinds).toEqual([
      ['withoutCredentials'],
      ['passwordlessSignInUp'],
      ['disabledAccount'],
      ['malformedRecord'],
      ['thirdPartySignInUp'],
      ['malformedRecord'],
      ['withoutCredentials'],
      ['disabledAccount'],
    ]);
    const google = planned[4]?.items[0];
    expect(google?.kind === 'thirdPartySignInUp' ? google.body.thirdPartyId : undefined).toBe('google');
    const phone = planned[1]?.items[0];
    expect(phone?.kind === 'passwordlessSignInUp' ? phone.identity : undefined).toMatchObject({
      sourceId: '0b6f2d9e-58a1-4c37-8e2b-91d4f7a3c602',
      system: 'cognito',
    });
    expect(planned[6]?.rolesFound).toEqual([{ path: 'roles', roles: ['editors', 'beta'] }]);
    expect(planned[0]?.rolesFound).toEqual([{ path: 'customAttributes.role', roles: ['admin'] }]);
  });
});
