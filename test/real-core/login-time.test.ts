import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreClient } from '../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../core-client/src/login-time/migrate-at-login.js';
import { Secret } from '../../core-client/src/secret.js';
import { legacyHashVector } from '../core-client/login-time/hash-vectors.js';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { coreIdMappedTo, isEmailVerified, metadataOf, signIn, userCount } from './support/core-calls.js';
import { REAL_CORE_API_KEY, describeLive, useRealCore, type RealCore } from './support/real-core.js';

// Made by Django and passlib themselves (test/fixtures/hash-vectors/legacy/README.md).
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));
const BIN = fileURLToPath(new URL('../../tui/bin/core-migrate.js', import.meta.url));
const SERVICE_KEY = 'the-real-core-login-service-key-0123';

/** A login-time migration on a real core: park with the push, then the library call at each user's first sign-in. */
describeLive('login-time migration on a real core', { core: 'memory' }, () => {
  let core: RealCore;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'memory' }), mkdtemp(join(tmpdir(), 'real-core-login-time-'))]);
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

  it('through `login-migration serve`: the backend asks the service after the core refused the sign-in, then signs in again on the core', async () => {
    const lines = [
      { id: 'django-18', email: 'grace@example.com', isVerified: true, passwordHash: django.hash },
      { id: 'wp-43', email: 'wp2@example.com', passwordHash: phpass.hash },
    ];
    await writeFile(join(dir, 'more.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const push = await coreMigrate(['push', 'more.ndjson', '--core', core.url, '--login-time', 'service.sqlite', '--json'], dir);
    expect(jsonOf(push), described(push)).toMatchObject({ parkedForLogin: 2 });

    const service = spawn(process.execPath, [BIN, 'login-migration', 'serve', '--store', 'service.sqlite', '--core', core.url, '--port', '0'], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: REAL_CORE_API_KEY, LOGIN_MIGRATION_SERVICE_KEY: SERVICE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    service.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        service.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
          if (found !== undefined) resolve(found);
        });
        service.once('exit', (code) => reject(new Error(`the service ended (${String(code)}):\n${output}`)));
      });
      const ask = async (email: string, password: string): Promise<unknown> => {
        const answer = await fetch(`${url}/migrate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${SERVICE_KEY}` },
          body: JSON.stringify({ email, password }),
        });
        return answer.json();
      };
      for (const [email, password, oldId] of [
        ['grace@example.com', django.password, 'django-18'],
        ['wp2@example.com', phpass.password, 'wp-43'],
      ] as const) {
        expect(await signIn(core.url, email, password)).toBeUndefined();
        expect(await ask(email, `${password}-not`)).toEqual({ outcome: 'wrongCredentials' });
        expect(await ask(email, password)).toEqual({ outcome: 'migrated', userId: oldId });
        expect(await signIn(core.url, email, password)).toBe(oldId);
      }
      expect(await isEmailVerified(core.url, 'django-18', 'grace@example.com')).toBe(true);
    } finally {
      const exited = once(service, 'exit');
      service.kill('SIGTERM');
      await exited;
    }
    for (const secret of [django.password, django.hash, phpass.password, phpass.hash, SERVICE_KEY]) expect(output).not.toContain(secret);
  });
});
