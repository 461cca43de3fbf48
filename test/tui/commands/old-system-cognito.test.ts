import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startCognitoLocal, type RunningOldSystem } from '../../support/old-systems.js';
import { startService, type RunningService } from './old-system-service.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const PASSWORDS = { ann: 'Ann-old-Passw0rd!', bob: 'Bob-old-Passw0rd!', gus: 'Gus-old-Passw0rd!' } as const;
type Name = keyof typeof PASSWORDS;
const NAMES: readonly Name[] = ['ann', 'bob', 'gus'];

/**
 * Issue 39 against cognito-local, started here on loopback: a user pool whose users sign in by email, users made
 * through its API (the AWS SDK) with passwords, exported without hashes (Cognito has none to give), parked by a push,
 * and migrated at their first sign-in through `login-migration serve --verify-with`, which asks InitiateAuth
 * USER_PASSWORD_AUTH with the app client's SECRET_HASH. cognito-local 5.3.0 lets a disabled user sign in (measured),
 * so the hosted service's "User is disabled." is checked against the test's own server
 * (test/core-client/login-time/old-system/verifiers.test.ts), not here.
 */
describe('login-time migration asking AWS Cognito (cognito-local) for users exported without hashes', () => {
  let dir: string;
  let cognito: RunningOldSystem;
  let core: CoreDouble;
  let service: RunningService | undefined;
  let admin: CognitoIdentityProviderClient;
  let poolId = '';
  const subs = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'old-system-cognito-'));
    [cognito, core] = await Promise.all([startCognitoLocal(join(dir, 'cognito')), startCoreDouble({ apiKeys: [API_KEY] })]);
    // cognito-local takes any signature: the administrator's calls need credentials of some kind, the service's none.
    admin = new CognitoIdentityProviderClient({ region: 'eu-west-1', endpoint: cognito.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const pool = await admin.send(new CreateUserPoolCommand({ PoolName: 'old-app', UsernameAttributes: ['email'] }));
    poolId = pool.UserPool?.Id ?? '';
    const client = await admin.send(
      new CreateUserPoolClientCommand({ UserPoolId: poolId, ClientName: 'web', GenerateSecret: true, ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }),
    );
    for (const name of NAMES) {
      const email = `${name}@example.com`;
      await admin.send(
        new AdminCreateUserCommand({
          UserPoolId: poolId,
          Username: email,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: name === 'ann' ? 'true' : 'false' },
          ],
        }),
      );
      await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: email, Password: PASSWORDS[name], Permanent: true }));
    }
    // The export without hashes: ListUsers' answer as `aws cognito-idp list-users` prints it ({"Users": [...]}), read
    // by the Cognito reader (the old id is the user's sub), with a `Groups` list beside a user as pool backup tools add.
    const listed = await admin.send(new ListUsersCommand({ UserPoolId: poolId }));
    const users = (listed.Users ?? []).map((user) => {
      const email = user.Attributes?.find((entry) => entry.Name === 'email')?.Value ?? '';
      subs.set(email, user.Attributes?.find((entry) => entry.Name === 'sub')?.Value ?? '');
      return { ...user, ...(email === 'ann@example.com' && { Groups: ['admin'] }) };
    });
    await writeFile(join(dir, 'users.json'), `${JSON.stringify({ Users: users }, null, 2)}\n`);
    await writeFile(join(dir, 'cognito-client-secret'), `${client.UserPoolClient?.ClientSecret ?? ''}\n`);
    await writeFile(
      join(dir, 'cognito.verify.json'),
      JSON.stringify({
        kind: 'cognito',
        region: 'eu-west-1',
        clientId: client.UserPoolClient?.ClientId,
        clientSecret: { file: 'cognito-client-secret' },
        endpoint: cognito.url,
        timeoutMs: 5000,
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    admin?.destroy();
    await cognito?.stop();
    await core?.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('parks them, lets each in with the password Cognito knows, refuses alike a wrong password and a deleted account; rollback removes them', async () => {
    const flags = ['--login-time', 'waiting.sqlite', '--verify-with', 'cognito.verify.json'];
    const push = await runCli(['push', 'users.json', '--core', core.url, ...flags, '--roles-from', 'roles', '--json'], dir);
    expect(jsonOf(push), push.stderr).toMatchObject({ parkedForLogin: 3, imported: 0, failed: 0, total: 3 });
    await admin.send(new AdminDeleteUserCommand({ UserPoolId: poolId, Username: 'gus@example.com' }));

    service = await startService(dir, core.url, ['--verify-with', 'cognito.verify.json']);
    const annSub = subs.get('ann@example.com') ?? '';
    expect(annSub).toMatch(/^[0-9a-f-]{36}$/);
    expect(await service.migrate('Ann@Example.com', PASSWORDS.ann)).toEqual({ status: 200, body: { outcome: 'migrated', userId: annSub } });
    const signIn = await fetch(`${core.url}/recipe/signin`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'ann@example.com', password: PASSWORDS.ann }),
    });
    expect(await signIn.json()).toMatchObject({ status: 'OK', user: { id: annSub } });
    expect(core.identity.isVerified(annSub, 'ann@example.com')).toBe(true);

    const refused = { status: 200, body: { outcome: 'wrongCredentials' } };
    expect(await service.migrate('bob@example.com', 'Not-Bobs-Passw0rd!')).toEqual(refused);
    expect(await service.migrate('gus@example.com', PASSWORDS.gus)).toEqual(refused);
    expect(core.emailPasswordUsers().map((user) => user.email)).toEqual(['ann@example.com']);

    await cognito.stop();
    expect(await service.migrate('bob@example.com', PASSWORDS.bob)).toMatchObject({
      status: 503,
      body: { outcome: 'tryLater', reason: 'oldSystemUnreachable' },
    });
    await service.stop();
    for (const secret of Object.values(PASSWORDS)) expect(service.output() + push.stdout + push.stderr).not.toContain(secret);

    const rollback = await runCli(
      ['rollback', '--journal', 'users.json.push-journal.ndjson', '--core', core.url, '--login-time', 'waiting.sqlite', '--json'],
      dir,
    );
    expect(rollback.exitCode, rollback.stderr).toBe(0);
    expect(core.emailPasswordUsers()).toEqual([]);
  }, 120_000);
});
