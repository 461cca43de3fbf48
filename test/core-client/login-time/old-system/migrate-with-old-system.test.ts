import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration, type LoginMigration } from '../../../../core-client/src/login-time/migrate-at-login.js';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import type { OldSystemVerifier } from '../../../../core-client/src/login-time/old-system/old-system-verifier.js';
import { openOldSystemVerifier } from '../../../../core-client/src/login-time/old-system/open-old-system.js';
import { startLoginService, type LoginService } from '../../../../core-client/src/login-time/service/login-service.js';
import { openWaitingStore } from '../../../../core-client/src/login-time/store/open-store.js';
import type { WaitingStore } from '../../../../core-client/src/login-time/store/waiting-store.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../../core-double/index.js';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

// The old system is a plain-HTTP endpoint of the test's own on 127.0.0.1 that knows one password per email.
const API_KEY = 'login-time-test-api-key-0123456789';
const SERVICE_KEY = 'service-key-0123456789abcdef';
const PASSWORDS: Record<string, string> = { 'ann@example.com': 'the password the old system knows' };

let directory: string;
let core: CoreDouble;
let client: CoreClient;
let oldSystem: ScriptedServer;
let verifier: OldSystemVerifier;
let store: WaitingStore;
let login: LoginMigration;
let service: LoginService | undefined;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'old-system-login-'));
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  await client.putRole({ role: 'admin', permissions: [] });
  oldSystem = await startScriptedServer((request) => {
    const body: unknown = JSON.parse(request.body);
    const right = typeof body === 'object' && body !== null && 'email' in body && 'password' in body && PASSWORDS[String(body.email)] === body.password;
    return { status: right ? 200 : 401 };
  });
  const opened = await openOldSystemVerifier(OldSystemSettingsSchema.parse({ kind: 'http', url: `${oldSystem.url}/check` }), { cwd: directory, env: {} });
  if (!('check' in opened)) throw opened;
  verifier = opened;
  store = await openWaitingStore(join(directory, 'waiting.sqlite'));
  await store.park({
    email: 'ann@example.com',
    sourceId: 'sub-ann',
    mapSourceId: true,
    mappingInfo: 'core-migrate: http id',
    emailVerified: true,
    metadata: { displayName: 'Ann' },
    roles: ['admin'],
    oldSystem: 'http',
  });
  login = await openLoginMigration({ store, core: client, oldSystem: verifier });
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await login.close();
  await store.close();
  await verifier.close();
  await oldSystem.close();
  await client.close();
  await core.close();
  rmSync(directory, { recursive: true, force: true });
});

const password = (text: string) => new Secret(text);
const RIGHT = PASSWORDS['ann@example.com'] ?? '';

describe('migrateAtLogin for a user parked without a hash', () => {
  it('asks the old system: a right password creates the user once, with its old id, verified email, metadata and roles', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => migrateAtLogin(login, { email: 'ann@example.com', password: password(RIGHT) })));
    expect(answers).toEqual(Array.from({ length: 4 }, () => ({ outcome: 'migrated', userId: 'sub-ann' })));
    expect(core.emailPasswordUsers()).toHaveLength(1);
    const [user] = core.emailPasswordUsers();
    expect(core.identity.externalIdOf(user?.id ?? '')).toBe('sub-ann');
    expect(core.identity.isVerified(user?.id ?? '', 'ann@example.com')).toBe(true);
    expect(core.identity.metadataOf(user?.id ?? '')).toEqual({ displayName: 'Ann' });
    expect(await client.userRoles('sub-ann')).toEqual(['admin']);
    expect(await client.signIn({ email: 'ann@example.com', password: password(RIGHT) })).toEqual({ outcome: 'signedIn' });
    expect(await store.find('ann@example.com')).toMatchObject({ state: 'migrated', coreUserId: 'sub-ann', oldSystem: 'http' });
  });

  it('a wrong password is wrongCredentials and changes nothing; the old system gone is tryLater oldSystemUnreachable', async () => {
    expect(await migrateAtLogin(login, { email: 'ann@example.com', password: password('not it') })).toEqual({ outcome: 'wrongCredentials' });
    await oldSystem.close();
    expect(await migrateAtLogin(login, { email: 'ann@example.com', password: password(RIGHT) })).toEqual({
      outcome: 'tryLater',
      reason: 'oldSystemUnreachable',
      retryAfterSeconds: 5,
    });
    expect(core.emailPasswordUsers()).toHaveLength(0);
    expect(await store.find('ann@example.com')).toMatchObject({ state: 'waiting' });
  });

  it('a user parked for another old system than the one given is tryLater oldSystemNotSet, never let in', async () => {
    await store.park({ email: 'bob@example.com', mapSourceId: false, emailVerified: false, oldSystem: 'cognito' });
    expect(await migrateAtLogin(login, { email: 'bob@example.com', password: password(RIGHT) })).toMatchObject({
      outcome: 'tryLater',
      reason: 'oldSystemNotSet',
    });
    const withoutOldSystem = await openLoginMigration({ store, core: client });
    expect(await migrateAtLogin(withoutOldSystem, { email: 'ann@example.com', password: password(RIGHT) })).toMatchObject({ reason: 'oldSystemNotSet' });
    expect(oldSystem.received).toHaveLength(0);
  });

  it('through the service, an email locked by wrong passwords is refused before the old system is asked', async () => {
    service = await startLoginService({
      serviceKey: new Secret(SERVICE_KEY),
      migrate: (attempt) => migrateAtLogin(login, attempt),
      settings: { port: 0, limits: { maxFailuresPerEmail: 2 } },
    });
    const signIn = async (text: string): Promise<unknown> => {
      const response = await fetch(`${service?.url}/migrate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
        body: JSON.stringify({ email: 'ann@example.com', password: text }),
      });
      return response.json();
    };
    expect(await signIn('guess 1')).toEqual({ outcome: 'wrongCredentials' });
    expect(await signIn('guess 2')).toEqual({ outcome: 'wrongCredentials' });
    expect(await signIn(RIGHT)).toMatchObject({ outcome: 'tryLater', reason: 'tooManyAttempts' });
    expect(oldSystem.received).toHaveLength(2);
  });
});
