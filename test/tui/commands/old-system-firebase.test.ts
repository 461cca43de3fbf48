import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { OldSystemSettingsSchema } from '../../../core-client/src/login-time/old-system/old-system-settings.js';
import { openTokenVerifier } from '../../../core-client/src/login-time/old-token/open-token-verifier.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startFirebaseEmulator, type RunningOldSystem } from '../../support/old-systems.js';
import { makeSigningKey, signToken, startTestIssuer } from '../../support/token-issuer.js';
import { startService, type RunningService } from './old-system-service.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const PROJECT = `demo-core-migrate-${process.pid}`;
const WEB_API_KEY = 'firebase-web-api-key-never-printed';
const PASSWORDS = { ann: 'ann-old-password-1', bob: 'bob-old-password-2', dee: 'dee-old-password-3', gus: 'gus-old-password-4' } as const;
type Name = keyof typeof PASSWORDS;
const NAMES: readonly Name[] = ['ann', 'bob', 'dee', 'gus'];
const emailOf = (name: Name): string => `${name}@example.com`;

/**
 * Issue 39 against the Firebase Auth emulator (firebase-tools), started here on loopback: users made through its own
 * API with passwords, exported without hashes, parked by a push, and migrated at their first sign-in through
 * `login-migration serve --verify-with`, which asks the emulator's accounts:signInWithPassword.
 */
describe('login-time migration asking Firebase (the Auth emulator) for users exported without hashes', () => {
  let dir: string;
  let firebase: RunningOldSystem;
  let core: CoreDouble;
  let service: RunningService | undefined;
  const localIds = new Map<Name, string>();

  const identityToolkit = async (path: string, body: unknown, admin = false): Promise<unknown> => {
    const answer = await fetch(`${firebase.url}/identitytoolkit.googleapis.com/v1/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(admin && { authorization: 'Bearer owner' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
    return answer.json();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'old-system-firebase-'));
    [firebase, core] = await Promise.all([startFirebaseEmulator(dir, PROJECT), startCoreDouble({ apiKeys: [API_KEY] })]);
    for (const name of NAMES) {
      const created = z
        .object({ localId: z.string() })
        .parse(await identityToolkit('accounts:signUp?key=any', { email: emailOf(name), password: PASSWORDS[name] }));
      localIds.set(name, created.localId);
    }
    await identityToolkit(
      `projects/${PROJECT}/accounts:update`,
      { localId: localIds.get('ann'), emailVerified: true, displayName: 'Ann', customAttributes: JSON.stringify({ roles: ['admin'] }) },
      true,
    );
    // The export without hashes: the account API's own records (as auth:export writes them), hashes and salts left out.
    const accounts = z
      .object({ users: z.array(z.record(z.string(), z.unknown())) })
      .parse(await identityToolkit(`projects/${PROJECT}/accounts:batchGet?maxResults=100`, undefined, true));
    const users = accounts.users.map(({ passwordHash: _hash, salt: _salt, ...user }) => user);
    await writeFile(join(dir, 'users.json'), JSON.stringify({ users }));
    await writeFile(
      join(dir, 'firebase.verify.json'),
      JSON.stringify({
        kind: 'firebase',
        apiKey: { env: 'FIREBASE_WEB_API_KEY' },
        endpoint: `${firebase.url}/identitytoolkit.googleapis.com`,
        timeoutMs: 5000,
      }),
    );
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await firebase?.stop();
    await core?.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  // Session migration (issue 47): the emulator signs its ID tokens with nothing (`alg: none`), so no setting makes the
  // token check take them (docs/login-time.md, "The emulator's tokens"). Its claims, signed again by a key of the
  // test's own published in Google's shape, show the uid is read as Firebase writes it. Before the test below, which
  // stops the emulator.
  it("refuses the emulator's unsigned ID token; its claims, signed by a published key, give the uid as the old id", async () => {
    const signedIn = z
      .object({ idToken: z.string() })
      .parse(await identityToolkit('accounts:signInWithPassword?key=any', { email: emailOf('ann'), password: PASSWORDS.ann, returnSecureToken: true }));
    expect(decodeProtectedHeader(signedIn.idToken)).toMatchObject({ alg: 'none' });
    const [google, key] = await Promise.all([
      startTestIssuer({ keysPath: '/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com' }),
      makeSigningKey('g-1'),
    ]);
    google.published = [key];
    const settings = OldSystemSettingsSchema.parse({
      kind: 'firebase',
      apiKey: { env: 'FIREBASE_WEB_API_KEY' },
      projectId: PROJECT,
      tokenKeysUrl: google.keysUrl,
    });
    const verifier = await openTokenVerifier(settings);
    if (!('verify' in verifier)) throw verifier;
    try {
      expect(await verifier.verify(new Secret(signedIn.idToken))).toEqual({ outcome: 'refused', code: 'algorithmRefused' });
      expect(google.keysAsked()).toBe(0);
      const claims = decodeJwt(signedIn.idToken);
      const annId = localIds.get('ann') ?? '';
      expect(claims).toMatchObject({ iss: `https://securetoken.google.com/${PROJECT}`, aud: PROJECT, sub: annId, user_id: annId });
      expect(await verifier.verify(new Secret(await signToken(key, claims)))).toMatchObject({
        outcome: 'verified',
        kind: 'firebase',
        oldId: annId,
        email: emailOf('ann'),
        emailVerified: true,
      });
    } finally {
      await verifier.close();
      await google.close();
    }
  });

  it('parks them, lets each in with the password Firebase knows, refuses alike a wrong password, a deleted and a disabled account; rollback removes them', async () => {
    const flags = ['--login-time', 'waiting.sqlite', '--verify-with', 'firebase.verify.json'];
    const plan = jsonOf(await runCli(['plan', 'users.json', ...flags, '--json'], dir));
    expect(plan['loginTime']).toEqual({ parked: 4, byFamily: {}, byOldSystem: { firebase: 4 } });
    const push = await runCli(['push', 'users.json', '--core', core.url, ...flags, '--roles-from', 'customClaims.roles', '--json'], dir);
    expect(jsonOf(push), push.stderr).toMatchObject({ parkedForLogin: 4, imported: 0, failed: 0, total: 4 });
    expect(core.emailPasswordUsers()).toEqual([]);

    // After the export: one account disabled in Firebase, one deleted there.
    await identityToolkit(`projects/${PROJECT}/accounts:update`, { localId: localIds.get('dee'), disableUser: true }, true);
    await identityToolkit(`projects/${PROJECT}/accounts:delete`, { localId: localIds.get('gus') }, true);

    service = await startService(dir, core.url, ['--verify-with', 'firebase.verify.json'], { FIREBASE_WEB_API_KEY: WEB_API_KEY });
    const annId = localIds.get('ann') ?? '';
    expect(await service.migrate('ann@example.com', PASSWORDS.ann)).toEqual({ status: 200, body: { outcome: 'migrated', userId: annId } });
    // On the core now, under its Firebase id, with its verified email, display name and role.
    const client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
    try {
      const signIn = await fetch(`${core.url}/recipe/signin`, {
        method: 'POST',
        headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ email: 'ann@example.com', password: PASSWORDS.ann }),
      });
      expect(await signIn.json()).toMatchObject({ status: 'OK', user: { id: annId } });
      expect(core.identity.isVerified(annId, 'ann@example.com')).toBe(true);
      expect(core.identity.metadataOf(annId)).toMatchObject({ displayName: 'Ann' });
      expect(await client.userRoles(annId)).toEqual(['admin']);
    } finally {
      await client.close();
    }

    const refused = { status: 200, body: { outcome: 'wrongCredentials' } };
    expect(await service.migrate('bob@example.com', 'not-bobs-password')).toEqual(refused);
    expect(await service.migrate('dee@example.com', PASSWORDS.dee)).toEqual(refused);
    expect(await service.migrate('gus@example.com', PASSWORDS.gus)).toEqual(refused);
    expect(await service.migrate('nobody@example.com', 'whatever')).toEqual({ status: 200, body: { outcome: 'notWaiting' } });
    expect(core.emailPasswordUsers().map((user) => user.email)).toEqual(['ann@example.com']);

    await firebase.stop();
    const unreachable = await service.migrate('bob@example.com', PASSWORDS.bob);
    expect(unreachable).toMatchObject({ status: 503, body: { outcome: 'tryLater', reason: 'oldSystemUnreachable' } });

    const status = jsonOf(await runCli(['login-migration', 'status', '--store', 'waiting.sqlite', '--json'], dir));
    expect(status).toMatchObject({ waiting: 3, migrated: 1 });
    await service.stop();
    for (const secret of [WEB_API_KEY, ...Object.values(PASSWORDS)]) expect(service.output() + push.stdout + push.stderr).not.toContain(secret);

    const rollback = await runCli(
      ['rollback', '--journal', 'users.json.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'],
      dir,
    );
    expect(rollback.exitCode, rollback.stderr).toBe(0);
    expect(core.emailPasswordUsers()).toEqual([]);
  }, 120_000);
});
