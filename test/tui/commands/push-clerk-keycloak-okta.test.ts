import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { OldSystemSettingsSchema } from '../../../core-client/src/login-time/old-system/old-system-settings.js';
import { openOldSystemVerifier } from '../../../core-client/src/login-time/old-system/open-old-system.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';
import { startScriptedServer, type ScriptedServer } from '../../core-client/login-time/old-system/scripted-server.js';
import { fixture } from '../../core-client/sources/support.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

// Each system's export as its fixture (test/fixtures/exports/<system>/README.md), pushed without --format to the core
// double, in-process; then its users sign in: imported hashes on the core, the others through the login-time migration.
const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
/** The passwords Okta knows, as the test's own Okta answers its Authentication API. */
const OKTA_PASSWORDS: Record<string, string> = { 'olivia@example.com': 'olivia okta password', 'victor@example.com': 'victor directory password' };

let core: CoreDouble;
let client: CoreClient;
let okta: ScriptedServer;
let dir: string;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: VENDOR_SCRYPT_VECTOR.signerKey });
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  okta = await startScriptedServer((request) => {
    const body = JSON.parse(request.body) as { username?: string; password?: string };
    const right = request.path === '/api/v1/authn' && OKTA_PASSWORDS[body.username ?? ''] === body.password;
    return right
      ? { status: 200, body: { status: 'PASSWORD_EXPIRED', stateToken: 'state-token' } }
      : { status: 401, body: { errorCode: 'E0000004', errorSummary: 'Authentication failed', errorCauses: [] } };
  });
  dir = await mkdtemp(join(tmpdir(), 'push-new-systems-'));
});

afterAll(async () => {
  await okta.close();
  await client.close();
  await core.close();
  await rm(dir, { recursive: true, force: true });
});

const signIn = (email: string, password: string) => client.signIn({ email, password: new Secret(password) });

/** A parked user's first sign-in, through the library call a backend makes (the old system asked where given). */
async function firstSignIn(store: string, email: string, password: string, verifyWith?: unknown): Promise<unknown> {
  const waiting = await openWaitingStore(join(dir, store));
  const oldSystem = verifyWith === undefined ? undefined : await openOldSystemVerifier(OldSystemSettingsSchema.parse(verifyWith), { cwd: dir, env: {} });
  if (oldSystem !== undefined && !('check' in oldSystem)) throw oldSystem;
  const login = await openLoginMigration({ store: waiting, core: client, ...(oldSystem === undefined ? {} : { oldSystem }) });
  try {
    return await migrateAtLogin(login, { email, password: new Secret(password) });
  } finally {
    await login.close();
    await oldSystem?.close();
    await waiting.close();
  }
}

describe('a Clerk, a Keycloak and an Okta export pushed, and their users signing in', () => {
  it('Clerk: bcrypt, argon2 and scrypt_firebase users sign in on the core, a PBKDF2 one at its first sign-in; no TOTP secret is written anywhere', async () => {
    const exportPath = join(dir, 'clerk.csv');
    await copyFile(fixture('clerk/users.csv'), exportPath);
    const run = await runCli(['push', exportPath, '--core', core.url, '--login-time', 'clerk.sqlite', '--report', 'clerk-report.ndjson', '--json'], dir);
    expect(jsonOf(run)).toMatchObject({ imported: 3, parkedForLogin: 2, passwordlessCreated: 2, rejected: 1, total: 8 });
    expect(await signIn('anna@example.com', 'clerk bcrypt password')).toEqual({ outcome: 'signedIn' });
    expect(await signIn('ben@example.com', 'clerk argon2 password')).toEqual({ outcome: 'signedIn' });
    expect(await signIn('eva@example.com', VENDOR_SCRYPT_VECTOR.password)).toEqual({ outcome: 'signedIn' });
    expect(await firstSignIn('clerk.sqlite', 'cara@example.com', 'clerk pbkdf2 password')).toEqual({ outcome: 'migrated', userId: 'user_2cPbkdf2Cara03' });
    expect(await signIn('cara@example.com', 'clerk pbkdf2 password')).toEqual({ outcome: 'signedIn' });
    const [anna] = core.emailPasswordUsers().filter((user) => user.email === 'anna@example.com');
    expect(core.identity.externalIdOf(anna?.id ?? '')).toBe('user_2aBcRyptAnnA01');
    expect(core.identity.metadataOf(anna?.id ?? '')).toMatchObject({ displayName: 'Anna Berg', username: 'anna', totpEnrolled: true });
    const report = await readFile(join(dir, 'clerk-report.ndjson'), 'utf8');
    expect(report).toContain('bcrypt_peppered');
    for (const file of ['clerk.sqlite', 'clerk-report.ndjson', 'clerk.csv.push-journal.ndjson']) {
      expect((await readFile(join(dir, file))).toString('latin1')).not.toContain(TOTP_SECRET);
    }
    expect(run.stdout + run.stderr).not.toContain(TOTP_SECRET);
  });

  it('Keycloak: a folder of users files; argon2 users sign in on the core with their roles, a PBKDF2 one at its first sign-in, Google linked', async () => {
    const folder = join(dir, 'keycloak-export');
    await mkdir(folder);
    const { users, ...realm } = JSON.parse(await readFile(fixture('keycloak/realm-export.json'), 'utf8')) as { users: unknown[] };
    await writeFile(join(folder, 'shop-realm.json'), JSON.stringify(realm));
    await writeFile(join(folder, 'shop-users-0.json'), JSON.stringify({ realm: 'shop', users: users.slice(0, 3) }));
    await writeFile(join(folder, 'shop-users-1.json'), JSON.stringify({ realm: 'shop', users: users.slice(3) }));
    const push = ['push', folder, '--core', core.url, '--login-time', 'keycloak.sqlite', '--roles-from', 'roles', '--json'];
    expect(jsonOf(await runCli(push, dir))).toMatchObject({ imported: 2, parkedForLogin: 1, thirdPartyCreated: 1, disabledSkipped: 1, rejected: 1, total: 6 });
    expect(await signIn('alice@example.com', 'alice argon2 password')).toEqual({ outcome: 'signedIn' });
    expect(await signIn('erin@example.com', 'erin argon2 password')).toEqual({ outcome: 'signedIn' });
    expect(await client.userRoles('6a1f0c2e-0b1d-4c55-9a51-1f2d3c4b5a60')).toEqual(expect.arrayContaining(['admin', 'shop-app:editor']));
    expect(core.thirdPartyUsers().map((user) => `${user.thirdPartyId}/${user.thirdPartyUserId}`)).toContain('google/109876543210987654321');
    expect(await firstSignIn('keycloak.sqlite', 'bob@example.com', 'correct horse battery staple')).toEqual({
      outcome: 'migrated',
      userId: '7b2e1d3f-1c2e-4d66-8b62-2e3f4d5c6b71',
    });
    expect(await signIn('bob@example.com', 'correct horse battery staple')).toEqual({ outcome: 'signedIn' });
    // The same folder again: its journal knows every user, so nothing is sent twice.
    expect(jsonOf(await runCli(push, dir))).toMatchObject({ imported: 0, thirdPartyCreated: 0, parkedForLogin: 0, skipped: 4 });
  });

  it('Okta: every password user waits for Okta to check its password at the first sign-in, with its old id and groups as roles', async () => {
    const exportPath = join(dir, 'okta.json');
    await copyFile(fixture('okta/users.json'), exportPath);
    const verifyWith = { kind: 'okta', orgUrl: okta.url };
    await writeFile(join(dir, 'okta.json.verify'), JSON.stringify(verifyWith));
    const push = [
      'push',
      exportPath,
      '--core',
      core.url,
      '--login-time',
      'okta.sqlite',
      '--verify-with',
      'okta.json.verify',
      '--roles-from',
      'roles',
      '--json',
    ];
    const run = await runCli(push, dir);
    expect(jsonOf(run)).toMatchObject({ parkedForLogin: 3, imported: 0, disabledSkipped: 3, rejected: 2, total: 8 });
    expect(await firstSignIn('okta.sqlite', 'olivia@example.com', 'not her password', verifyWith)).toEqual({ outcome: 'wrongCredentials' });
    expect(await firstSignIn('okta.sqlite', 'olivia@example.com', 'olivia okta password', verifyWith)).toEqual({
      outcome: 'migrated',
      userId: '00u1olivia0000000001',
    });
    expect(await signIn('olivia@example.com', 'olivia okta password')).toEqual({ outcome: 'signedIn' });
    expect(await client.userRoles('00u1olivia0000000001')).toEqual(expect.arrayContaining(['Admins', 'Editors']));
    expect(await firstSignIn('okta.sqlite', 'victor@example.com', 'victor directory password', verifyWith)).toMatchObject({ outcome: 'migrated' });
    // Okta was asked with the email, never with anything but the one sign-in's password.
    expect(okta.received.map((request) => (JSON.parse(request.body) as { username: string }).username)).toEqual([
      'olivia@example.com',
      'olivia@example.com',
      'victor@example.com',
    ]);
  });
});
