import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSource, type PlanOptions, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { recordKey } from '../../../core-client/src/plan/record-key.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { fixture, readAll, withTempDir } from './support.js';

// test/fixtures/exports/okta/README.md says where each fact of the fixture comes from.
const pages = fixture('okta/users.json');

/** The fixture's users, one array per page as written. */
async function oktaUsers(): Promise<Record<string, unknown>[]> {
  const text = await readFile(pages, 'utf8');
  const split = text.indexOf('\n[');
  return [...(JSON.parse(text.slice(0, split)) as Record<string, unknown>[]), ...(JSON.parse(text.slice(split)) as Record<string, unknown>[])];
}

async function planOf(path: string, options: PlanOptions = {}): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path, options)) planned.push(record);
  return planned;
}

describe("Okta's Users API export", () => {
  it('is detected as pages one after another, one array, and one user per line', async () => {
    expect(await detectFormat(pages)).toBe('okta');
    await withTempDir(async (dir) => {
      const all = await oktaUsers();
      const array = join(dir, 'users.json');
      await writeFile(array, JSON.stringify(all));
      const lines = join(dir, 'users.ndjson');
      await writeFile(lines, `${all.map((user) => JSON.stringify(user)).join('\n')}\n`);
      expect(await detectFormat(array)).toBe('okta');
      expect(await detectFormat(lines)).toBe('okta');
      // The same shapes holding other users stay the generic formats.
      await writeFile(array, JSON.stringify([{ id: 'u1', email: 'a@example.com' }]));
      expect(await detectFormat(array)).toBe('json-array');
      const ndjson = await readAll(readSource(lines));
      expect(ndjson.records.map((record) => record.location)).toEqual(all.map((_, index) => ({ file: lines, line: index + 1 })));
    });
  });

  it('reads the old id, email and its verification, status, profile, login and groups; a federated or never-activated user says why it has no password', async () => {
    const { records, error } = await readAll(readSource(pages));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(8);
    expect(records[0]).toEqual({
      kind: 'user',
      location: { file: pages, index: 0 },
      sourceId: '00u1olivia0000000001',
      system: 'okta',
      email: 'olivia@example.com',
      emailVerified: true,
      profile: {
        displayName: 'Olivia Ochoa',
        signedUpAt: '2023-03-01T10:00:00.000Z',
        lastSignedInAt: '2024-05-20T09:14:55.000Z',
        phoneNumber: '+14155550199',
        username: 'olivia@example.com',
        attributes: { department: 'Sales', costCenter: 'CC-12' },
      },
      providers: [],
      signsInByEmailCode: false,
      // Everyone, Okta's built-in group of all users, is left.
      roles: ['Admins', 'Editors'],
    });
    expect(records[1]).toMatchObject({ sourceId: '00u2peter00000000002', emailVerified: false });
    // The second page's users are numbered on from the first's.
    expect(records.slice(2, 5).map((record) => [record.location.index, record.kind === 'user' && record.disabled])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(records[5]).toMatchObject({ noPasswordLogin: expect.stringContaining('never activated in Okta (status PROVISIONED)') });
    expect(records[6]).toMatchObject({ noPasswordLogin: expect.stringContaining('(FEDERATION Corporate SAML)') });
    expect(records[7]).toMatchObject({ email: 'victor@example.com', profile: { username: 'victor@corp.example.com' } });
    expect(records.map((record) => recordKey(record.location, pages))).toEqual(['I0', 'I1', 'I2', 'I3', 'I4', 'I5', 'I6', 'I7']);
  });

  it('plans every password user for Okta to check at its first sign-in, the shut ones refused as disabled', async () => {
    const asked = await planOf(pages, { loginTime: true, oldSystem: 'okta' });
    expect(asked.map((record) => record.items.map((item) => (item.kind === 'rejection' ? item.code : item.kind)))).toEqual([
      ['loginTimeWait'],
      ['loginTimeWait'],
      ['disabledAccount'],
      ['disabledAccount'],
      ['disabledAccount'],
      ['withoutCredentials'],
      ['withoutCredentials'],
      ['loginTimeWait'],
    ]);
    expect(asked[0]?.items[0]).toMatchObject({ oldSystem: 'okta', email: 'olivia@example.com' });
    // Without Okta to ask, nobody's password can come over: each needs a reset.
    const alone = await planOf(pages);
    expect(alone[0]?.items[0]).toMatchObject({ code: 'withoutCredentials' });
  });

  it('refuses a broken user naming its place and field, and goes on with the rest', async () => {
    await withTempDir(async (dir) => {
      const [olivia, peter] = await oktaUsers();
      const path = join(dir, 'users.ndjson');
      await writeFile(path, [JSON.stringify({ ...olivia, profile: { email: 'x@example.com' } }), '{"id": "00u9", "status"', JSON.stringify(peter)].join('\n'));
      const { records, error } = await readAll(readSource(path, { format: 'okta' }));
      expect(error).toBeUndefined();
      expect(records[0]).toEqual({
        kind: 'malformed',
        location: { file: path, line: 1, field: 'profile.login' },
        sourceId: '00u1olivia0000000001',
        reason: 'field "profile.login": Invalid input: expected string, received undefined',
      });
      expect(records[1]).toMatchObject({ kind: 'malformed', location: { line: 2 }, reason: expect.stringContaining('not valid JSON') });
      expect(records[2]).toMatchObject({ kind: 'user', sourceId: '00u2peter00000000002' });
    });
  });

  it('refuses pages cut short after the users before the cut', async () => {
    await withTempDir(async (dir) => {
      const text = await readFile(pages, 'utf8');
      const path = join(dir, 'users.json');
      await writeFile(path, text.slice(0, text.indexOf('"00u5sam')));
      const { records, error } = await readAll(readSource(path));
      expect(records.map((record) => record.kind)).toEqual(['user', 'user', 'user', 'user']);
      expect(error).toMatchObject({ code: 'source.truncated', message: expect.stringContaining('it looks cut short') });
    });
  });

  it('refuses another system’s export read as Okta’s', async () => {
    const { error } = await readAll(readSource(fixture('auth0/users.ndjson'), { format: 'okta' }));
    expect(error).toMatchObject({ code: 'source.wrong-format', setting: 'format', message: expect.stringContaining('an Auth0 user, not an Okta one') });
  });
});
