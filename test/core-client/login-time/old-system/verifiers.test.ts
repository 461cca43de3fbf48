import { afterEach, describe, expect, it } from 'vitest';
import { cognitoSecretHash } from '../../../../core-client/src/login-time/old-system/cognito-verifier.js';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import type { OldSystemVerifier } from '../../../../core-client/src/login-time/old-system/old-system-verifier.js';
import { openOldSystemVerifier } from '../../../../core-client/src/login-time/old-system/open-old-system.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { startScriptedServer, type Received, type ScriptedAnswer, type ScriptedServer } from './scripted-server.js';

// Every old system here is a small server of the test's own on 127.0.0.1, answering as the hosted services document
// (the emulators' own answers are checked in test/tui/commands/old-system-*.test.ts).
const PASSWORD = new Secret('correct horse battery staple');
const ENV = { OLD_SYSTEM_KEY: 'key-from-the-environment', OLD_SYSTEM_SECRET: 's3cret/with+chars' };

let server: ScriptedServer | undefined;
let verifier: OldSystemVerifier | undefined;

afterEach(async () => {
  await verifier?.close();
  await server?.close();
  verifier = undefined;
  server = undefined;
});

async function serve(answer: (request: Received) => ScriptedAnswer): Promise<ScriptedServer> {
  server = await startScriptedServer(answer);
  return server;
}

async function open(settings: unknown): Promise<OldSystemVerifier> {
  const opened = await openOldSystemVerifier(OldSystemSettingsSchema.parse(settings), { cwd: process.cwd(), env: ENV });
  if (!('check' in opened)) throw opened;
  verifier = opened;
  return opened;
}

const check = (opened: OldSystemVerifier, email = 'ada@example.com', password = PASSWORD) => opened.check({ email, password });

describe('the --verify-with settings', () => {
  it('refuse a secret written in the file, plain http:// to another machine, and an unknown kind, naming the field', () => {
    const inline = OldSystemSettingsSchema.safeParse({ kind: 'firebase', apiKey: 'AIzaSyInline' });
    expect(inline.success).toBe(false);
    expect(inline.error?.issues[0]?.path).toEqual(['apiKey']);
    expect(inline.error?.issues[0]?.message).toMatch(/never written in this file/);
    expect(JSON.stringify(inline.error?.issues)).not.toContain('AIzaSyInline');
    const plain = OldSystemSettingsSchema.safeParse({ kind: 'http', url: 'http://old.example.com/check' });
    expect(plain.error?.issues[0]?.message).toMatch(/must be https/);
    expect(OldSystemSettingsSchema.safeParse({ kind: 'http', url: 'http://127.0.0.1:8080/check' }).success).toBe(true);
    expect(OldSystemSettingsSchema.safeParse({ kind: 'http', url: 'https://old.example.com/check' }).success).toBe(true);
    expect(OldSystemSettingsSchema.safeParse({ kind: 'ldap' }).success).toBe(false);
  });

  it('read a secret from the environment, and refuse one that is not set without naming its value', async () => {
    const missing = await openOldSystemVerifier(OldSystemSettingsSchema.parse({ kind: 'firebase', apiKey: { env: 'NOT_SET_ANYWHERE' } }), {
      cwd: process.cwd(),
      env: {},
    });
    expect('check' in missing).toBe(false);
    expect('code' in missing && missing.code).toBe('oldSystemSecretUnusable');
  });
});

describe('an OpenID token endpoint (resource-owner password grant)', () => {
  const settings = (url: string, extra: object = {}) => ({
    kind: 'openid',
    tokenEndpoint: `${url}/realms/old/protocol/openid-connect/token`,
    clientId: 'migrator',
    clientSecret: { env: 'OLD_SYSTEM_SECRET' },
    ...extra,
  });

  it('sends the password grant with the client as HTTP Basic; a token is right, invalid_grant wrong, mfa_required right', async () => {
    let answer: ScriptedAnswer = { status: 200, body: { access_token: 'token', token_type: 'Bearer' } };
    const scripted = await serve(() => answer);
    const opened = await open(settings(scripted.url));
    expect(await check(opened)).toEqual({ outcome: 'right' });
    const [request] = scripted.received;
    const form = new URLSearchParams(request?.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'password',
      username: 'ada@example.com',
      password: PASSWORD.reveal(),
      client_id: 'migrator',
      scope: 'openid',
    });
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('migrator:s3cret%2Fwith%2Bchars').toString('base64')}`);
    answer = { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid user credentials' } };
    expect(await check(opened)).toEqual({ outcome: 'wrong' });
    answer = { status: 403, body: { error: 'mfa_required' } };
    expect(await check(opened)).toEqual({ outcome: 'right' });
    answer = { status: 401, body: { error: 'invalid_client' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
    answer = { status: 429, body: { error: 'too_many_attempts' }, headers: { 'retry-after': '7' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy', retryAfterSeconds: 7 });
  });

  it("uses Auth0's password-realm grant when a realm is set, with the secret in the form", async () => {
    const scripted = await serve(() => ({ status: 200, body: { access_token: 'token' } }));
    const opened = await open(settings(scripted.url, { realm: 'Username-Password-Authentication', audience: 'api', clientAuthentication: 'post' }));
    expect(await check(opened)).toEqual({ outcome: 'right' });
    const form = Object.fromEntries(new URLSearchParams(scripted.received[0]?.body));
    expect(form).toMatchObject({ grant_type: 'http://auth0.com/oauth/grant-type/password-realm', realm: 'Username-Password-Authentication', audience: 'api' });
    expect(form['client_secret']).toBe(ENV.OLD_SYSTEM_SECRET);
    expect(scripted.received[0]?.headers.authorization).toBeUndefined();
  });
});

describe("an old backend's own endpoint", () => {
  it('posts the email and password as JSON: 2xx right, 401 and 403 wrong, 429/503 busy, 5xx unreachable', async () => {
    let answer: ScriptedAnswer = { status: 204 };
    const scripted = await serve(() => answer);
    const opened = await open({ kind: 'http', url: `${scripted.url}/api/check-password`, emailField: 'login', bearerToken: { env: 'OLD_SYSTEM_KEY' } });
    expect(await check(opened)).toEqual({ outcome: 'right' });
    expect(JSON.parse(scripted.received[0]?.body ?? '')).toEqual({ login: 'ada@example.com', password: PASSWORD.reveal() });
    expect(scripted.received[0]?.headers.authorization).toBe(`Bearer ${ENV.OLD_SYSTEM_KEY}`);
    for (const status of [401, 403]) {
      answer = { status };
      expect(await check(opened)).toEqual({ outcome: 'wrong' });
    }
    answer = { status: 503, headers: { 'retry-after': '30' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy', retryAfterSeconds: 30 });
    answer = { status: 429 };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy' });
    answer = { status: 500 };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemUnreachable' });
    answer = { status: 404 };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
  });

  it('answers tryLater oldSystemUnreachable when the old system does not answer in time, or is gone', async () => {
    const scripted = await serve(() => ({ status: 200, hang: true }));
    const opened = await open({ kind: 'http', url: `${scripted.url}/check`, timeoutMs: 300 });
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemUnreachable' });
    await scripted.close();
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemUnreachable' });
  });
});

describe('Firebase as the hosted service answers', () => {
  it('sends the key as key=; every way of saying "not this password" is wrong, TOO_MANY_ATTEMPTS_TRY_LATER busy', async () => {
    let message = '';
    const scripted = await serve(() =>
      message === '' ? { status: 200, body: { localId: 'x', registered: true } } : { status: 400, body: { error: { code: 400, message } } },
    );
    const opened = await open({ kind: 'firebase', apiKey: { env: 'OLD_SYSTEM_KEY' }, endpoint: `${scripted.url}/identitytoolkit.googleapis.com` });
    expect(await check(opened)).toEqual({ outcome: 'right' });
    expect(scripted.received[0]?.path).toBe(`/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${ENV.OLD_SYSTEM_KEY}`);
    expect(opened.location).not.toContain(ENV.OLD_SYSTEM_KEY);
    for (message of [
      'INVALID_PASSWORD',
      'INVALID_LOGIN_CREDENTIALS',
      'EMAIL_NOT_FOUND',
      'USER_DISABLED : The user account has been disabled by an administrator.',
    ]) {
      expect(await check(opened)).toEqual({ outcome: 'wrong' });
    }
    message = 'TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled';
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy' });
    message = 'API key not valid. Please pass a valid API key.';
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
  });
});

describe('Cognito as the hosted service answers', () => {
  it('sends SECRET_HASH when the client has a secret; a challenge is right; NotAuthorized and UserNotFound wrong', async () => {
    let answer: ScriptedAnswer = { status: 200, body: { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'session' } };
    const scripted = await serve(() => answer);
    const opened = await open({
      kind: 'cognito',
      region: 'eu-west-1',
      clientId: 'client-1',
      clientSecret: { env: 'OLD_SYSTEM_SECRET' },
      endpoint: scripted.url,
    });
    expect(await check(opened)).toEqual({ outcome: 'right' });
    const request = scripted.received[0];
    expect(request?.headers['x-amz-target']).toBe('AWSCognitoIdentityProviderService.InitiateAuth');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: 'client-1',
      AuthParameters: {
        USERNAME: 'ada@example.com',
        PASSWORD: PASSWORD.reveal(),
        SECRET_HASH: cognitoSecretHash('ada@example.com', 'client-1', new Secret(ENV.OLD_SYSTEM_SECRET)),
      },
    });
    answer = { status: 200, body: { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 'session' } };
    expect(await check(opened)).toEqual({ outcome: 'right' });
    for (const type of ['NotAuthorizedException', 'UserNotFoundException']) {
      answer = { status: 400, body: { __type: type, message: 'Incorrect username or password.' } };
      expect(await check(opened)).toEqual({ outcome: 'wrong' });
    }
    answer = { status: 400, body: { __type: 'TooManyRequestsException', message: 'Rate exceeded' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy' });
    answer = { status: 400, body: { __type: 'InvalidParameterException', message: 'USER_PASSWORD_AUTH flow not enabled for this client' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
  });

  it('computes SECRET_HASH as AWS documents it: Base64(HMAC-SHA256(secret, username + clientId))', () => {
    // Worked out independently with: printf '%s' 'ada@example.comclient-1' | openssl dgst -sha256 -hmac 'secret' -binary | base64
    expect(cognitoSecretHash('ada@example.com', 'client-1', new Secret('secret'))).toBe('kHL8gObvzVunaTuEjTejmMWpOCVQBrL2WkG/Wylfm+U=');
  });
});

describe('Okta as its Authentication API answers', () => {
  it('posts the username and password to /api/v1/authn: a transaction past the password is right, LOCKED_OUT and E0000004 wrong', async () => {
    let answer: ScriptedAnswer = { status: 200, body: { status: 'SUCCESS', sessionToken: 'session-token', expiresAt: '2030-01-01T00:00:00.000Z' } };
    const scripted = await serve(() => answer);
    const opened = await open({ kind: 'okta', orgUrl: `${scripted.url}/any/path`, apiToken: { env: 'OLD_SYSTEM_SECRET' } });
    expect(opened.location).toBe(`${scripted.url}/api/v1/authn`);
    expect(await check(opened)).toEqual({ outcome: 'right' });
    const [request] = scripted.received;
    expect(request?.path).toBe('/api/v1/authn');
    expect(request?.headers['authorization']).toBe(`SSWS ${ENV.OLD_SYSTEM_SECRET}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      username: 'ada@example.com',
      password: PASSWORD.reveal(),
      options: { warnBeforePasswordExpired: false, multiOptionalFactorEnroll: false },
    });
    for (const status of ['MFA_REQUIRED', 'MFA_ENROLL', 'PASSWORD_EXPIRED', 'PASSWORD_WARN']) {
      answer = { status: 200, body: { status, stateToken: 'state-token' } };
      expect(await check(opened)).toEqual({ outcome: 'right' });
    }
    answer = { status: 200, body: { status: 'LOCKED_OUT' } };
    expect(await check(opened)).toEqual({ outcome: 'wrong' });
    answer = { status: 401, body: { errorCode: 'E0000004', errorSummary: 'Authentication failed', errorCauses: [] } };
    expect(await check(opened)).toEqual({ outcome: 'wrong' });
    answer = { status: 401, body: { errorCode: 'E0000011', errorSummary: 'Invalid token provided', errorCauses: [] } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
    answer = { status: 200, body: { status: 'UNAUTHENTICATED' } };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemRefused' });
    answer = {
      status: 429,
      body: { errorCode: 'E0000047', errorSummary: 'API call exceeded rate limit due to too many requests.' },
      headers: { 'retry-after': '30' },
    };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemBusy', retryAfterSeconds: 30 });
    answer = { status: 200, body: '<html>not Okta</html>' };
    expect(await check(opened)).toEqual({ outcome: 'tryLater', reason: 'oldSystemUnreachable' });
  });

  it('asks without a token the public way, and refuses an org URL over plain http to another machine', async () => {
    const scripted = await serve(() => ({ status: 401, body: { errorCode: 'E0000004', errorSummary: 'Authentication failed' } }));
    const opened = await open({ kind: 'okta', orgUrl: scripted.url });
    expect(await check(opened)).toEqual({ outcome: 'wrong' });
    expect(scripted.received[0]?.headers['authorization']).toBeUndefined();
    expect(OldSystemSettingsSchema.safeParse({ kind: 'okta', orgUrl: 'http://example.okta.com' }).error?.issues[0]?.message).toMatch(/must be https/);
  });
});
