import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreClient } from '../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../core-client/src/login-time/migrate-at-login.js';
import { Secret } from '../../core-client/src/secret.js';
import { legacyHashVector } from '../core-client/login-time/hash-vectors.js';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { coreIdMappedTo, isEmailVerified, metadataOf, signIn, userCount } from './support/core-calls.js';
import { REAL_CORE_API_KEY, startRealCore, type RealCore } from './support/real-core.js';

// Made by Django and passlib themselves (test/fixtures/hash-vectors/legacy/README.md).
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

/** A login-time migration on a real core: park with the push, then the library call at each user's first sign-in. */
describe('login-time migration on a real core', () => {
  let core: RealCore;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([startRealCore({ storage: 'memory' }), mkdtemp(join(tmpdir(), 'real-core-login-time-'))]);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('parks a Django PBKDF2 and a phpass user, creates each at its first sign-in, and they then sign in on the core with their old id', async () => {
    const lines = [
      { id: 'django-17', email: 'ada@example.com', isVerified: true, displayName: 'Ada', passwordHash: django.hash },
      { id: 'wp-42', email: 'wp@example.com', passwordHash: phpass.hash },
    ];
    await writeFile(join(dir, 'users.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const push = await coreMigrate(['push', 'users.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'], dir);
    expect(push.code, described(push)).toBe(0);
    expect(jsonOf(push)).toMatchObject({ parkedForLogin: 2, total: 2 });
    expect(await userCount(core.url)).toBe(0);

    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(REAL_CORE_API_KEY), retry: false });
    const login = await openLoginMigration({ store: join(dir, 'waiting.sqlite'), core: client });
    try {
      // The backend's own sign-in on the core fails first (the user is not there yet).
      expect(await signIn(core.url, 'ada@example.com', django.password)).toBeUndefined();
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(django.wrongPassword) })).toEqual({ outcome: 'wrongCredentials' });
      expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(django.password) })).toEqual({
        outcome: 'migrated',
        userId: 'django-17',
      });
      expect(await migrateAtLogin(login, { email: 'wp@example.com', password: new Secret(phpass.password) })).toEqual({ outcome: 'migrated', userId: 'wp-42' });
    } finally {
      await login.close();
      await client.close();
    }
    expect(await userCount(core.url)).toBe(2);
    // From now on the core checks the password itself (it hashed it with its own algorithm) and names the old id.
    expect(await signIn(core.url, 'ada@example.com', django.password)).toBe('django-17');
    expect(await signIn(core.url, 'wp@example.com', phpass.password)).toBe('wp-42');
    expect(await signIn(core.url, 'wp@example.com', phpass.wrongPassword)).toBeUndefined();
    expect(await coreIdMappedTo(core.url, 'django-17')).toBeDefined();
    expect(await isEmailVerified(core.url, 'django-17', 'ada@example.com')).toBe(true);
    expect(await isEmailVerified(core.url, 'wp-42', 'wp@example.com')).toBe(false);
    expect(await metadataOf(core.url, 'django-17')).toMatchObject({ migratedFrom: { sourceId: 'django-17' } });
  });
});
