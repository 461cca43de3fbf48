import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration, type LoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import type { WaitingStore } from '../../../core-client/src/login-time/store/waiting-store.js';
import type { ParkedUser } from '../../../core-client/src/login-time/store/waiting-user.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { waitFor } from '../push/engine-support.js';
import { legacyHashVector } from './hash-vectors.js';

const API_KEY = 'login-time-test-api-key-0123456789';
// Django PBKDF2-SHA256 at 1,000 iterations (small for tests), made by Django itself.
const vector = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const PASSWORD = vector.password;

function parked(email: string, overrides: Partial<ParkedUser> = {}): ParkedUser {
  return {
    email,
    sourceId: 'old-42',
    mapSourceId: true,
    mappingInfo: 'core-migrate: django id',
    emailVerified: true,
    metadata: { first_name: 'Ada', migratedFrom: { system: 'django', sourceId: 'old-42' } },
    roles: ['admin'],
    family: 'django_pbkdf2_sha256',
    legacyHash: vector.hash,
    ...overrides,
  };
}

let directory: string;
let core: CoreDouble;
let client: CoreClient;
let store: WaitingStore;
let login: LoginMigration;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'login-time-'));
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  // A sign-in cannot wait long: no retries, the backend is told to try later instead.
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  await client.putRole({ role: 'admin', permissions: [] });
  store = await openWaitingStore(join(directory, 'waiting.sqlite'));
  await store.park(parked('ada@example.com'));
  login = await openLoginMigration({ store, core: client });
  core.reset();
  await client.putRole({ role: 'admin', permissions: [] });
});

afterEach(async () => {
  await login.close();
  await store.close();
  await client.close();
  await core.close();
  rmSync(directory, { recursive: true, force: true });
});

const signUps = (): number => core.requests().filter((request) => request.path.endsWith('/recipe/signup')).length;

describe('migrateAtLogin', () => {
  it('creates a waiting user with the right password once, with its old id, verified email, metadata and roles', async () => {
    const answer = await migrateAtLogin(login, { email: ' Ada@Example.com ', password: new Secret(PASSWORD) });
    expect(answer).toEqual({ outcome: 'migrated', userId: 'old-42' });
    const [user] = core.emailPasswordUsers();
    expect(core.emailPasswordUsers()).toHaveLength(1);
    expect(user?.email).toBe('ada@example.com');
    expect(core.identity.externalIdOf(user?.id ?? '')).toBe('old-42');
    expect(core.identity.isVerified(user?.id ?? '', 'ada@example.com')).toBe(true);
    expect(core.identity.metadataOf(user?.id ?? '')).toEqual({ first_name: 'Ada', migratedFrom: { system: 'django', sourceId: 'old-42' } });
    expect(await client.userRoles('old-42')).toEqual(['admin']);
    // The core hashed the password itself: the user signs in on the core with it from now on.
    expect(await client.signIn({ email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'signedIn' });
    expect(await store.find('ada@example.com')).toMatchObject({ state: 'migrated', coreUserId: 'old-42', legacyHash: '' });
    expect((await store.counts()).migrated).toBe(1);
  });

  it('asked again for a migrated user (a race with its own sign-in) checks the password at the core and creates nothing', async () => {
    await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'migrated', userId: 'old-42' });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(vector.wrongPassword) })).toEqual({ outcome: 'notWaiting' });
    expect(signUps()).toBe(1);
    expect(core.emailPasswordUsers()).toHaveLength(1);
  });

  it('answers wrong credentials for a wrong password and not waiting for an unknown email, sending nothing to the core', async () => {
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(vector.wrongPassword) })).toEqual({ outcome: 'wrongCredentials' });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret('') })).toEqual({ outcome: 'wrongCredentials' });
    expect(await migrateAtLogin(login, { email: 'nobody@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'notWaiting' });
    expect(core.requests().filter((request) => !request.path.includes('/role'))).toEqual([]);
    expect((await store.find('ada@example.com'))?.state).toBe('waiting');
  });

  it('creates the user once when several sign-ins of it arrive at the same moment, and all of them answer migrated', async () => {
    core.faults.setLatencyMs(20);
    const answers = await Promise.all(Array.from({ length: 6 }, () => migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })));
    expect(answers).toEqual(Array.from({ length: 6 }, () => ({ outcome: 'migrated', userId: 'old-42' })));
    expect(signUps()).toBe(1);
    expect(core.emailPasswordUsers()).toHaveLength(1);
  });

  it('finishes a user whose sign-in crashed after the sign-up (its claim lease ended): one user, with its identity', async () => {
    await store.claim('ada@example.com', 1, Date.now() - 10);
    expect(await client.signUp({ email: 'ada@example.com', password: new Secret(PASSWORD) })).toMatchObject({ outcome: 'created' });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'migrated', userId: 'old-42' });
    expect(core.emailPasswordUsers()).toHaveLength(1);
    expect(core.identity.externalIdOf(core.emailPasswordUsers()[0]?.id ?? '')).toBe('old-42');
  });

  it('does not take over the email of a password user of the core with another password', async () => {
    await client.signUp({ email: 'ada@example.com', password: new Secret('someone-else-entirely') });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'wrongCredentials' });
    expect(core.identity.externalIdOf(core.emailPasswordUsers()[0]?.id ?? '')).toBeUndefined();
    expect((await store.find('ada@example.com'))?.state).toBe('waiting');
  });

  it('answers try later when the core cannot be reached, and changes nothing', async () => {
    await core.close();
    const answer = await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) });
    expect(answer).toEqual({ outcome: 'tryLater', reason: 'coreUnreachable', retryAfterSeconds: 5 });
    expect(await store.find('ada@example.com')).toMatchObject({ state: 'waiting', legacyHash: vector.hash });
    core = await startCoreDouble({ apiKeys: [API_KEY] });
  });

  it('takes back the user it created when the core fails before its identity is complete, so the next sign-in starts again', async () => {
    core.faults.failBodiesContaining('externalUserId', { status: 500 });
    const answer = await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) });
    expect(answer).toMatchObject({ outcome: 'tryLater', reason: 'coreUnreachable' });
    expect(core.emailPasswordUsers()).toEqual([]);
    expect((await store.find('ada@example.com'))?.state).toBe('waiting');
    core.faults.clearFaults();
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'migrated', userId: 'old-42' });
  });

  it('answers try later when the store cannot be read', async () => {
    await store.close();
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toMatchObject({
      outcome: 'tryLater',
      reason: 'storeUnavailable',
    });
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('takes back the user it created when the store cannot record its arrival (its file removed meanwhile): none a rollback would miss', async () => {
    // Held after the sign-up, before the arrival is recorded (the pre-flight's probe sends an empty body to that path).
    core.faults.holdPath('/recipe/userid/map', 'POST', 'superTokensUserId');
    const answering = migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) });
    await waitFor(() => core.faults.heldCount() >= 1, 'the mapping of the created user');
    expect(core.emailPasswordUsers()).toHaveLength(1);
    rmSync(join(directory, 'waiting.sqlite'));
    core.faults.releaseHeld();
    expect(await answering).toMatchObject({ outcome: 'tryLater', reason: 'storeUnavailable' });
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('uses the verifier it is given (a service hands in its pool of workers)', async () => {
    const checked: string[] = [];
    const withPool = await openLoginMigration({
      store,
      core: client,
      verify: (_password, hash) => {
        checked.push(hash);
        return Promise.resolve({ outcome: 'mismatch', family: 'django_pbkdf2_sha256' });
      },
    });
    expect(await migrateAtLogin(withPool, { email: 'ada@example.com', password: new Secret(PASSWORD) })).toEqual({ outcome: 'wrongCredentials' });
    expect(checked).toEqual([vector.hash]);
  });

  it('keeps the password out of the store file', async () => {
    await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(PASSWORD) });
    await store.close();
    for (const file of readdirSync(directory)) expect(readFileSync(join(directory, file)).includes(PASSWORD)).toBe(false);
  });
});
