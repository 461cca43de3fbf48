import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  InitiateAuthCommand,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import type { OldTokenVerifier } from '../../../../core-client/src/login-time/old-token/old-token-verifier.js';
import { openTokenVerifier } from '../../../../core-client/src/login-time/old-token/open-token-verifier.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { startCognitoLocal, type RunningOldSystem } from '../../../support/old-systems.js';

const PASSWORD = 'Ann-old-Passw0rd!';

/**
 * The tokens cognito-local really issues: it signs its ID and access tokens (RS256, kid `CognitoLocal`) with a key it
 * publishes at `/<pool id>/.well-known/jwks.json`, where AWS publishes a hosted pool's, so they are checked here as a
 * hosted pool's are, the keys fetched from it. (The Firebase Auth emulator's tokens, which are unsigned, are checked
 * in test/tui/commands/old-system-firebase.test.ts, beside its other uses.)
 */
describe('tokens of cognito-local', () => {
  let dir: string;
  let cognito: RunningOldSystem;
  let admin: CognitoIdentityProviderClient;
  let poolId = '';
  const clients = { web: '', other: '' };
  const ann = { sub: '', username: '' };
  const opened: OldTokenVerifier[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'old-system-tokens-'));
    // cognito-local makes every pool sign in by email (its Username then the sub) unless its own defaults say
    // otherwise: here users have usernames of their own, so that a username and a sub differ.
    await mkdir(join(dir, 'cognito', '.cognito'), { recursive: true });
    await writeFile(join(dir, 'cognito', '.cognito', 'config.json'), JSON.stringify({ UserPoolDefaults: { UsernameAttributes: [] } }));
    cognito = await startCognitoLocal(join(dir, 'cognito'));

    admin = new CognitoIdentityProviderClient({ region: 'eu-west-1', endpoint: cognito.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const pool = await admin.send(new CreateUserPoolCommand({ PoolName: 'old-app' }));
    poolId = pool.UserPool?.Id ?? '';
    for (const name of ['web', 'other'] as const) {
      const client = await admin.send(
        new CreateUserPoolClientCommand({ UserPoolId: poolId, ClientName: name, ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }),
      );
      clients[name] = client.UserPoolClient?.ClientId ?? '';
    }
    await admin.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId,
        Username: 'ann-legacy',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: 'ann@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: 'ann-legacy', Password: PASSWORD, Permanent: true }));
    // The export's view of her: `sub` is the Cognito reader's old id, `Username` the one a CSV without sub keys by.
    const listed = (await admin.send(new ListUsersCommand({ UserPoolId: poolId }))).Users?.[0];
    ann.sub = listed?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value ?? '';
    ann.username = listed?.Username ?? '';
  }, 120_000);

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((verifier) => verifier.close()));
  });

  afterAll(async () => {
    admin?.destroy();
    await cognito?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  async function open(settings: Record<string, unknown>): Promise<OldTokenVerifier> {
    const verifier = await openTokenVerifier(OldSystemSettingsSchema.parse(settings));
    if (!('verify' in verifier)) throw verifier;
    opened.push(verifier);
    return verifier;
  }

  const cognitoSettings = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    kind: 'cognito',
    region: 'eu-west-1',
    clientId: clients.web,
    endpoint: cognito.url,
    userPoolId: poolId,
    issuer: `${cognito.url}/${poolId}`,
    timeoutMs: 5000,
    ...extra,
  });

  async function cognitoTokens(clientId = clients.web): Promise<{ id: string; access: string; refresh: string }> {
    // The app signs in as a browser would: no AWS credentials, the app client's id only.
    const user = new CognitoIdentityProviderClient({
      region: 'eu-west-1',
      endpoint: cognito.url,
      credentials: { accessKeyId: 'none', secretAccessKey: 'none' },
    });
    try {
      const signedIn = await user.send(
        new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: 'ann-legacy', PASSWORD } }),
      );
      const result = signedIn.AuthenticationResult;
      return { id: result?.IdToken ?? '', access: result?.AccessToken ?? '', refresh: result?.RefreshToken ?? '' };
    } finally {
      user.destroy();
    }
  }

  it("verifies cognito-local's ID and access tokens with the key it publishes: the old id is the user's sub, or the username when set so", async () => {
    const tokens = await cognitoTokens();
    expect(decodeProtectedHeader(tokens.id)).toMatchObject({ alg: 'RS256', kid: 'CognitoLocal' });
    expect([ann.username, ann.sub]).toEqual(['ann-legacy', expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const verifier = await open(cognitoSettings());
    expect(verifier.issuer).toBe(`${cognito.url}/${poolId}`);
    expect(await verifier.verify(new Secret(tokens.id))).toMatchObject({
      outcome: 'verified',
      kind: 'cognito',
      oldId: ann.sub,
      email: 'ann@example.com',
      emailVerified: true,
    });
    expect(await verifier.verify(new Secret(tokens.access))).toEqual({ outcome: 'verified', kind: 'cognito', oldId: ann.sub, expiresAt: expect.any(String) });
    // cognito-local's refresh token is a signed JWT without sub or token_use (the hosted one is encrypted, five parts).
    expect(await verifier.verify(new Secret(tokens.refresh))).toEqual({ outcome: 'refused', code: 'tokenMalformed' });

    const byUsername = await open(cognitoSettings({ oldIdClaim: 'username' }));
    for (const token of [tokens.id, tokens.access])
      expect(await byUsername.verify(new Secret(token))).toMatchObject({ outcome: 'verified', oldId: ann.username });
  });

  it("refuses cognito-local's tokens for another app client, of another pool, or altered", async () => {
    const others = await cognitoTokens(clients.other);
    const verifier = await open(cognitoSettings());
    for (const token of [others.id, others.access]) expect(await verifier.verify(new Secret(token))).toEqual({ outcome: 'refused', code: 'audienceWrong' });
    const both = await open(cognitoSettings({ tokenClientIds: [clients.web, clients.other] }));
    for (const token of [others.id, others.access]) expect(await both.verify(new Secret(token))).toMatchObject({ outcome: 'verified', oldId: ann.sub });

    // cognito-local serves its key for any pool id: the token's issuer is what tells the pools apart.
    const otherPool = await open(cognitoSettings({ userPoolId: 'local_Other123', issuer: `${cognito.url}/local_Other123` }));
    expect(await otherPool.verify(new Secret(others.id))).toEqual({ outcome: 'refused', code: 'issuerWrong' });

    const [header, , signature] = (await cognitoTokens()).id.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(others.id), sub: 'someone-else' })).toString('base64url');
    expect(await verifier.verify(new Secret(`${header}.${forged}.${signature}`))).toEqual({ outcome: 'refused', code: 'signatureInvalid' });
  });
});
