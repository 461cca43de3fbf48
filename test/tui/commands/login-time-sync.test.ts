import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

interface OldUser {
  id: string;
  email: string;
  passwordHash: string;
  blocked?: boolean;
}

/** An Auth0 export: the user export and its password-hash file, joined on the id. */
async function writeAuth0(dir: string, name: string, users: OldUser[]): Promise<string[]> {
  const usersFile = join(dir, `${name}.users.ndjson`);
  const passwordsFile = join(dir, `${name}.passwords.ndjson`);
  const userLines = users.map((user) =>
    JSON.stringify({ user_id: `auth0|${user.id}`, email: user.email, email_verified: true, blocked: user.blocked === true }),
  );
  const passwordLines = users.map((user) => JSON.stringify({ _id: { $oid: user.id }, email: user.email, passwordHash: user.passwordHash }));
  await writeFile(usersFile, `${userLines.join('\n')}\n`);
  await writeFile(passwordsFile, `${passwordLines.join('\n')}\n`);
  return [usersFile, '--auth0-password-file', passwordsFile];
}

describe('core-migrate sync --login-time keeps the waiting store in step with the old system', () => {
  let core: CoreDouble;
  let dir: string;
  const monday = async (): Promise<OldUser[]> => [
    { id: 'a1', email: 'ada@example.com', passwordHash: django.hash },
    { id: 'a2', email: 'grace@example.com', passwordHash: django.hash },
    { id: 'a3', email: 'blocked@example.com', passwordHash: django.hash },
    { id: 'a4', email: 'gone@example.com', passwordHash: django.hash },
    { id: 'a5', email: 'early@example.com', passwordHash: django.hash },
    { id: 'a6', email: 'bob@example.com', passwordHash: await bcryptHashOf('bob-password') },
  ];

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'login-time-sync-'));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('re-parks a new hash and a new email, takes the disabled and the gone out, and leaves an arrived user as it is', async () => {
    const first = await writeAuth0(dir, 'monday', await monday());
    const push = jsonOf(await runCli(['push', ...first, '--core', core.url, '--login-time', 'waiting.sqlite', '--journal', 'journal.ndjson', '--json'], dir));
    expect(push).toMatchObject({ parkedForLogin: 5, imported: 1 });
    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
    const login = await openLoginMigration({ store: join(dir, 'waiting.sqlite'), core: client });
    try {
      expect(await migrateAtLogin(login, { email: 'early@example.com', password: new Secret(django.password) })).toMatchObject({ outcome: 'migrated' });

      const tuesday: OldUser[] = [
        { id: 'a1', email: 'ada@example.com', passwordHash: phpass.hash },
        { id: 'a2', email: 'grace.hopper@example.com', passwordHash: django.hash },
        { id: 'a3', email: 'blocked@example.com', passwordHash: django.hash, blocked: true },
        { id: 'a5', email: 'early@example.com', passwordHash: phpass.hash },
        { id: 'a6', email: 'bob@example.com', passwordHash: (await monday())[5]?.passwordHash ?? '' },
      ];
      const second = await writeAuth0(dir, 'tuesday', tuesday);
      const sync = await runCli(['sync', ...second, '--core', core.url, '--login-time', 'waiting.sqlite', '--journal', 'journal.ndjson', '--json'], dir);
      // The disabled one and the one gone (the old email's row was replaced by the new one's, under the same old id).
      expect(jsonOf(sync)['sync']).toMatchObject({ leftLoginTimeStore: 2 });

      const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
      try {
        expect(await store.find('ada@example.com')).toMatchObject({ state: 'waiting', family: 'phpass', legacyHash: phpass.hash });
        expect(await store.find('grace.hopper@example.com')).toMatchObject({ state: 'waiting' });
        // The old email, the disabled user and the one gone from the old system left; the arrived one is untouched.
        expect(await store.find('grace@example.com')).toBeUndefined();
        expect(await store.find('blocked@example.com')).toBeUndefined();
        expect(await store.find('gone@example.com')).toBeUndefined();
        expect(await store.find('early@example.com')).toMatchObject({ state: 'migrated', legacyHash: '' });
        expect(await store.counts()).toMatchObject({ waiting: 2, migrated: 1 });
      } finally {
        await store.close();
      }
      // The newer hash is the one checked at the first sign-in (the vectors share their password).
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(phpass.wrongPassword) })).toEqual({ outcome: 'wrongCredentials' });
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(phpass.password) })).toMatchObject({ outcome: 'migrated' });
      expect(await migrateAtLogin(login, { email: 'blocked@example.com', password: new Secret(django.password) })).toEqual({ outcome: 'notWaiting' });
    } finally {
      await login.close();
      await client.close();
    }
  });
});
