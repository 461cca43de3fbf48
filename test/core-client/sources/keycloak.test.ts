import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verify as argon2Verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { keycloakPasswordHash } from '../../../core-client/src/hashes/keycloak-credential.js';
import { prepareHash } from '../../../core-client/src/hashes/prepare-hash.js';
import { verifyLegacyPassword } from '../../../core-client/src/hashes/legacy/verify-legacy.js';
import { planSource, type PlanOptions, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { recordKey } from '../../../core-client/src/plan/record-key.js';
import { Secret } from '../../../core-client/src/secret.js';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import type { SourceRecord } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

// test/fixtures/exports/keycloak/README.md says where each fact of the fixture comes from.
const realmExport = fixture('keycloak/realm-export.json');
const ALICE = 'alice argon2 password';

interface RealmFile {
  id: string;
  realm: string;
  users: Record<string, unknown>[];
  [key: string]: unknown;
}

async function realm(): Promise<RealmFile> {
  return JSON.parse(await readFile(realmExport, 'utf8')) as RealmFile;
}

/** Jackson's pretty printer, as `kc.sh export` writes: `"key" : value`. */
const asKeycloakWrites = (value: unknown): string => `${JSON.stringify(value, null, 2).replace(/": /g, '" : ')}\n`;

async function planOf(path: string, options: PlanOptions = {}): Promise<PlannedRecord[]> {
  const planned: PlannedRecord[] = [];
  for await (const record of planSource(path, options)) planned.push(record);
  return planned;
}

/** `kc.sh export --dir D --users different_files --users-per-file 2`: the realm file without users, then its users by twos. */
async function differentFiles(dir: string): Promise<string> {
  const folder = join(dir, 'export');
  await mkdir(folder);
  const { users, ...rest } = await realm();
  await writeFile(join(folder, 'shop-realm.json'), asKeycloakWrites(rest));
  for (let part = 0; part * 2 < users.length; part += 1) {
    await writeFile(join(folder, `shop-users-${part}.json`), asKeycloakWrites({ realm: 'shop', users: users.slice(part * 2, part * 2 + 2) }));
  }
  return folder;
}

const users = (records: readonly SourceRecord[]) => records.filter((record) => record.kind === 'user');

describe('a Keycloak realm export', () => {
  it('is detected as one file, one users file, its keys in any order, and as the folder kc.sh export writes', async () => {
    expect(await detectFormat(realmExport)).toBe('keycloak');
    await withTempDir(async (dir) => {
      const folder = await differentFiles(dir);
      expect(await detectFormat(folder)).toBe('keycloak');
      expect(await detectFormat(join(folder, 'shop-users-1.json'))).toBe('keycloak');
      // Keys sorted (jq -S): the users array comes before "realm", and its users tell.
      const sorted = join(dir, 'sorted.json');
      const { users: all, ...rest } = await realm();
      await writeFile(sorted, JSON.stringify({ clients: rest['clients'], users: all, realm: 'shop' }));
      expect(await detectFormat(sorted)).toBe('keycloak');
      const empty = join(dir, 'empty');
      await mkdir(empty);
      expect(await detectFormat(empty)).toMatchObject({ code: 'source.unknown-format', message: expect.stringContaining('holding no Keycloak export') });
    });
  });

  it('reads the old id, email and its verification, enabled, name, username, attributes, groups, required actions, TOTP, roles and linked accounts', async () => {
    const { records, error } = await readAll(readSource(realmExport));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(6);
    expect(records[0]).toEqual({
      kind: 'user',
      location: { file: realmExport, index: 0 },
      sourceId: '6a1f0c2e-0b1d-4c55-9a51-1f2d3c4b5a60',
      system: 'keycloak',
      email: 'alice@example.com',
      emailVerified: true,
      passwordHash: '$argon2id$v=19$m=64,t=2,p=1$obLD1OX2BxgpOktcbX6PkA$5Zb7mKbUPRnHuCfW1yLrWnTgKJUjzksTIGRIJlf0ETE',
      profile: {
        displayName: 'Alice Archer',
        signedUpAt: '2024-06-10T06:13:20.000Z',
        username: 'alice',
        attributes: { locale: ['en'], department: ['sales', 'emea'] },
        groups: ['/staff/sales'],
      },
      providers: [],
      signsInByEmailCode: false,
      // The realm's default role every user has is left; a client's roles are <client>:<role>.
      roles: ['admin', 'shop-app:editor', 'account:manage-account'],
    });
    expect(records[1]).toMatchObject({
      emailVerified: false,
      passwordHash: expect.stringMatching(/^\$keycloak-pbkdf2-sha256\$27500\$/),
      profile: { requiredActions: ['VERIFY_EMAIL'] },
    });
    expect(records[2]).toMatchObject({ providers: [{ providerId: 'google', providerUserId: '109876543210987654321' }] });
    expect(records[3]).toMatchObject({ sourceId: '9d4a3f5b-3e4a-4f88-8d84-4a5b6f7e8d93', disabled: true });
    expect(records[4]).toMatchObject({ noPasswordLogin: expect.stringContaining('service account of client "shop-backend"') });
    expect(records[5]).toMatchObject({ profile: { totpEnrolled: true, requiredActions: ['UPDATE_PASSWORD'] } });
    expect(JSON.stringify(records)).not.toContain('NOT-A-REAL-OTP-SECRET');
  });

  it('plans argon2 as an import, PBKDF2 parked for the login-time migration, Google linked, the disabled and the service account refused', async () => {
    const plan = await planOf(realmExport, { loginTime: true });
    expect(plan.map((record) => record.items.map((item) => (item.kind === 'rejection' ? item.code : item.kind)))).toEqual([
      ['passwordImport'],
      ['loginTimeWait'],
      ['thirdPartySignInUp'],
      ['disabledAccount'],
      ['withoutCredentials'],
      ['passwordImport'],
    ]);
    expect(plan[1]?.items[0]).toMatchObject({ family: 'keycloak_pbkdf2' });
    expect(plan[2]?.items[0]).toMatchObject({ body: { thirdPartyId: 'google', thirdPartyUserId: '109876543210987654321' } });
  });

  it('writes an argon2 credential as the PHC string the reference library verifies, and a PBKDF2 one as the family checked at login', async () => {
    const { records } = await readAll(readSource(realmExport));
    const alice = records[0]?.kind === 'user' ? (records[0].passwordHash ?? '') : '';
    expect(prepareHash({ rawHash: alice })).toMatchObject({ ok: true, family: 'argon2', passwordHash: alice });
    expect(await argon2Verify(alice, ALICE)).toBe(true);
    expect(await argon2Verify(alice, `${ALICE}!`)).toBe(false);
    const bob = records[1]?.kind === 'user' ? (records[1].passwordHash ?? '') : '';
    expect(await verifyLegacyPassword(new Secret('correct horse battery staple'), bob)).toEqual({ outcome: 'match', family: 'keycloak_pbkdf2' });
  });

  it.each([
    ['i', '1.0', /^\$argon2i\$v=16\$/],
    ['d', '1.3', /^\$argon2d\$v=19\$/],
  ])('writes the argon2 type and version Keycloak names (%s, %s)', (type, version, form) => {
    const credentialData = {
      hashIterations: 2,
      algorithm: 'argon2',
      additionalParameters: { hashLength: ['32'], memory: ['64'], type: [type], version: [version], parallelism: ['1'] },
    };
    const secretData = JSON.stringify({ value: '5Zb7mKbUPRnHuCfW1yLrWnTgKJUjzksTIGRIJlf0ETE=', salt: 'obLD1OX2BxgpOktcbX6PkA==' });
    expect(keycloakPasswordHash({ credentialData: JSON.stringify(credentialData), secretData })).toEqual({
      hash: expect.stringMatching(form),
      family: 'argon2',
    });
  });

  it("reads the community bcrypt provider's credential, whose value is the bcrypt hash, and names any other provider's algorithm", () => {
    const bcrypt = '$2a$04$rMxCpEUV/QReR/5PNKWHyu6y7v05voM9WJosqrBY3ZCJ7xBSpAus2';
    const secretData = JSON.stringify({ value: bcrypt, salt: '' });
    expect(keycloakPasswordHash({ credentialData: '{"hashIterations":4,"algorithm":"bcrypt"}', secretData })).toEqual({ hash: bcrypt, family: 'bcrypt' });
    expect(keycloakPasswordHash({ credentialData: '{"hashIterations":1,"algorithm":"md5-custom"}', secretData })).toEqual({
      unreadable: expect.stringContaining('"md5-custom"'),
    });
  });

  it('reads a folder of users files as one export, each record keyed by its file, and refuses a folder with a file missing or two realms', async () => {
    await withTempDir(async (dir) => {
      const folder = await differentFiles(dir);
      const { records, error } = await readAll(readSource(folder));
      expect(error).toBeUndefined();
      expect(users(records).map((record) => record.sourceId)).toEqual((await realm()).users.map((user) => user.id));
      // The realm file (part 0) has no users; each users file restarts its positions, so the key names the part.
      expect(records.map((record) => recordKey(record.location, folder))).toEqual(['P1I0', 'P1I1', 'P2I0', 'P2I1', 'P3I0', 'P3I1']);
      expect(records[2]?.location).toEqual({ file: join(folder, 'shop-users-1.json'), index: 0, part: 2 });

      await writeFile(join(folder, 'shop-users-4.json'), asKeycloakWrites({ realm: 'shop', users: [] }));
      expect((await readAll(readSource(folder))).error).toMatchObject({
        code: 'source.truncated',
        message: expect.stringContaining('shop-users-3.json is missing'),
      });
      await writeFile(join(folder, 'master-realm.json'), asKeycloakWrites({ realm: 'master', users: [] }));
      expect((await readAll(readSource(folder))).error).toMatchObject({
        code: 'source.wrong-format',
        message: expect.stringContaining('2 realms (master, shop)'),
      });
    });
  });

  it('says where the users are of a realm file given alone without them', async () => {
    await withTempDir(async (dir) => {
      const { error } = await readAll(readSource(join(await differentFiles(dir), 'shop-realm.json')));
      expect(error).toMatchObject({
        code: 'source.wrong-format',
        message: expect.stringContaining('--users different_files, in <realm>-users-<n>.json files beside it'),
      });
    });
  });

  it('refuses a broken user naming its index and field, and goes on with the rest', async () => {
    await withTempDir(async (dir) => {
      const exported = await realm();
      const [alice, bob, carol] = exported.users;
      const broken = [
        { ...alice, credentials: [{ type: 'password', secretData: '{"value":', credentialData: '{}' }] },
        { ...bob, username: 42 },
        {
          ...carol,
          id: 'other-id',
          credentials: [{ type: 'password', secretData: '{"value":"eA==","salt":"eA=="}', credentialData: '{"hashIterations":1,"algorithm":"custom-sha3"}' }],
        },
        carol,
      ];
      const path = join(dir, 'realm.json');
      await writeFile(path, asKeycloakWrites({ ...exported, users: broken }));
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      expect(records[0]).toEqual({
        kind: 'malformed',
        location: { file: path, index: 0, field: 'credentials[0].credentialData' },
        sourceId: alice?.['id'],
        reason: 'field "credentials[0].credentialData": credentialData: algorithm: Invalid input: expected string, received undefined',
      });
      expect(records[1]).toMatchObject({ kind: 'malformed', location: { index: 1, field: 'username' }, sourceId: bob?.['id'] });
      // A password hash provider no one knows: only Keycloak itself can check it.
      expect(records[2]).toMatchObject({ kind: 'user', unreadableHash: expect.stringContaining('"custom-sha3"') });
      expect(records[3]).toMatchObject({ kind: 'user', sourceId: carol?.['id'] });
    });
  });

  it('refuses a file cut short after the users before the cut', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'realm.json');
      const text = await readFile(realmExport, 'utf8');
      await writeFile(path, text.slice(0, text.indexOf('"username" : "dave"')));
      const { records, error } = await readAll(readSource(path));
      expect(users(records)).toHaveLength(3);
      expect(error).toMatchObject({ code: 'source.truncated', message: expect.stringContaining('it looks cut short') });
    });
  });

  it('refuses another system’s export read as Keycloak’s, and a user of another system among Keycloak’s', async () => {
    const firebase = await readAll(readSource(fixture('firebase/users.json'), { format: 'keycloak' }));
    expect(firebase.error).toMatchObject({
      code: 'source.wrong-format',
      setting: 'format',
      message: expect.stringContaining('a Firebase user, not a Keycloak one'),
    });
    await withTempDir(async (dir) => {
      const exported = await realm();
      const path = join(dir, 'realm.json');
      await writeFile(path, asKeycloakWrites({ ...exported, users: [exported.users[0], { localId: 'fb-1', email: 'x@example.com' }] }));
      const { records } = await readAll(readSource(path));
      expect(records[1]).toEqual({
        kind: 'malformed',
        location: { file: path, index: 1 },
        reason: 'this is a Firebase user, not a Keycloak one (read Firebase exports with --format firebase-json)',
      });
    });
  });
});
