import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';

/**
 * What the recording of the SDK's flows cannot show (sdk-flows.test.ts holds the double to what it does), as read off
 * a real core 10's source: the refresh token's rotation and theft detection, the keys' use, anti-CSRF and the calls'
 * refusals; a user-id mapping neither made nor removed while the user's data elsewhere would be left under the other
 * id; a password user's email and password changed in one call. The double runs as the sandbox core does (no requests
 * kept), which serves these calls too.
 */
const API_KEY = 'sessions-test-api-key-0123456789';
const JWT_PAYLOAD = { iss: 'http://127.0.0.1:3999/auth' };

let double: CoreDouble;
beforeAll(async () => {
  double = await startCoreDouble({ apiKeys: [API_KEY], keepRequests: 0 });
});
afterAll(() => double?.close());

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${double.url}${path}`, {
    method,
    headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { status: response.status, text, json };
}

interface Tokens {
  handle: string;
  accessToken: string;
  refreshToken: string;
  antiCsrfToken?: string;
}

function tokensOf(answer: Record<string, unknown>): Tokens {
  const { session, accessToken, refreshToken, antiCsrfToken } = answer as {
    session: { handle: string };
    accessToken: { token: string };
    refreshToken: { token: string };
    antiCsrfToken?: string;
  };
  return {
    handle: session.handle,
    accessToken: accessToken.token,
    refreshToken: refreshToken.token,
    ...(antiCsrfToken === undefined ? {} : { antiCsrfToken }),
  };
}

const newSession = async (userId: string, extra: Record<string, unknown> = {}): Promise<Tokens> =>
  tokensOf(
    (await call('POST', '/public/recipe/session', { userId, userDataInJWT: JWT_PAYLOAD, userDataInDatabase: {}, enableAntiCsrf: false, ...extra })).json,
  );
const refresh = (refreshToken: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/recipe/session/refresh', { refreshToken, enableAntiCsrf: false, useDynamicSigningKey: true, ...extra });
const verify = (accessToken: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/recipe/session/verify', { accessToken, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true, ...extra });

describe('sessions on the core double', () => {
  it('a refresh token is used once: its child becomes current when used, and the parent used again is token theft', async () => {
    const first = await newSession('user-1');
    const second = tokensOf((await refresh(first.refreshToken)).json);
    const third = tokensOf((await refresh(second.refreshToken)).json);
    expect(third.handle).toBe(first.handle);
    expect((await refresh(first.refreshToken)).json).toEqual({
      status: 'TOKEN_THEFT_DETECTED',
      session: { handle: first.handle, userId: 'user-1', recipeUserId: 'user-1' },
    });
    // Until the child is used, the parent may be refreshed again (an answer lost on its way is not theft).
    const again = tokensOf((await refresh(third.refreshToken)).json);
    expect((await refresh(third.refreshToken)).json['status']).toBe('OK');
    expect(again.handle).toBe(first.handle);
  });

  it("verifying a refreshed access token against the database makes its refresh token the session's: the parent is then theft", async () => {
    const first = await newSession('user-2');
    const refreshed = tokensOf((await refresh(first.refreshToken)).json);
    const verified = (await verify(refreshed.accessToken)).json as { accessToken?: { token: string } };
    expect(verified.accessToken).toBeDefined();
    const claims = JSON.parse(Buffer.from(verified.accessToken?.token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims['parentRefreshTokenHash1']).toBeNull();
    expect((await verify(verified.accessToken?.token ?? '')).json['accessToken']).toBeUndefined();
    expect((await refresh(first.refreshToken)).json['status']).toBe('TOKEN_THEFT_DETECTED');
  });

  it('access tokens verify with the published keys (dynamic by default, static when asked); a changed one, or one of another key, is refused', async () => {
    const jwks = createLocalJWKSet((await call('GET', '/.well-known/jwks.json')).json as { keys: [] });
    const dynamic = await newSession('user-3');
    const staticKey = await newSession('user-3', { useDynamicSigningKey: false });
    expect((await jwtVerify(dynamic.accessToken, jwks)).protectedHeader.kid).toMatch(/^d-\d{13}$/);
    expect((await jwtVerify(staticKey.accessToken, jwks)).protectedHeader.kid).toMatch(/^s-[0-9a-f-]{36}$/);
    const [header, payload, signature] = dynamic.accessToken.split('.');
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')), sub: 'someone-else' })).toString(
      'base64url',
    );
    expect((await verify(`${header}.${changed}.${signature}`)).json).toEqual({
      status: 'TRY_REFRESH_TOKEN',
      message: 'io.supertokens.session.jwt.JWT$JWTException: JWT verification failed',
    });
    const otherKid = Buffer.from(JSON.stringify({ kid: 'd-1000000000000', typ: 'JWT', version: '5', alg: 'RS256' })).toString('base64url');
    expect((await verify(`${otherKid}.${payload}.${signature}`)).json).toEqual({
      status: 'TRY_REFRESH_TOKEN',
      message: 'io.supertokens.exceptions.TryRefreshTokenException: Key not found',
    });
    const sealed = dynamic.refreshToken.split('.');
    expect((await refresh(`${sealed[0]?.slice(0, -4)}AAAA.${sealed[1]}.V2`)).json['status']).toBe('UNAUTHORISED');
  });

  it('with anti-CSRF on, the token is in the answer and checked at verify and refresh', async () => {
    const session = await newSession('user-4', { enableAntiCsrf: true });
    expect(session.antiCsrfToken).toMatch(/^[0-9a-f-]{36}$/);
    const checks = { doAntiCsrfCheck: true, enableAntiCsrf: true, checkDatabase: false };
    expect((await verify(session.accessToken, { ...checks, antiCsrfToken: 'wrong' })).json).toEqual({
      status: 'TRY_REFRESH_TOKEN',
      message: 'anti-csrf check failed',
    });
    expect((await verify(session.accessToken, { ...checks, antiCsrfToken: session.antiCsrfToken })).json['status']).toBe('OK');
    expect((await refresh(session.refreshToken, { enableAntiCsrf: true, antiCsrfToken: 'wrong' })).json).toEqual({
      status: 'UNAUTHORISED',
      message: 'Anti CSRF token missing, or not matching',
    });
  });

  it("refuses a payload that sets the core's own claims, and a removal given both a user and handles", async () => {
    expect(
      await call('POST', '/public/recipe/session', { userId: 'u', userDataInJWT: { sub: 'x' }, userDataInDatabase: {}, enableAntiCsrf: false }),
    ).toMatchObject({
      status: 400,
      text: 'The user payload contains protected field\n',
    });
    expect(await call('POST', '/recipe/session/remove', { userId: 'u', sessionHandles: [] })).toMatchObject({
      status: 400,
      text: 'Invalid JSON input - use one of userId or sessionHandles array\n',
    });
  });
});

describe('a user-id mapping on the core double, of a user that has data elsewhere', () => {
  it('is refused while the user has a session (unless forced); an email verification alone does not stop it', async () => {
    const signUp = async (email: string) =>
      ((await call('POST', '/recipe/signup', { email, password: 'a password 1' })).json as { user: { id: string } }).user.id;
    const withSession = await signUp('signed-in@example.com');
    await newSession(withSession);
    expect(await call('POST', '/recipe/userid/map', { superTokensUserId: withSession, externalUserId: 'old-6' })).toMatchObject({
      status: 400,
      text: 'UserId is already in use in Session recipe\n',
    });
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: withSession, externalUserId: 'old-6', force: true })).json).toEqual({ status: 'OK' });

    const verified = await signUp('verified@example.com');
    const { token } = (await call('POST', '/recipe/user/email/verify/token', { userId: verified, email: 'verified@example.com' })).json as { token: string };
    await call('POST', '/recipe/user/email/verify', { method: 'token', token });
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: verified, externalUserId: 'old-7' })).json).toEqual({ status: 'OK' });
    expect((await call('GET', '/recipe/user/email/verify?userId=old-7&email=verified%40example.com')).json).toEqual({ status: 'OK', isVerified: true });
  });

  it('is removed only when no other recipe holds data of the user (unless forced); what they hold stays with the external id', async () => {
    const signedUp = (await call('POST', '/recipe/signup', { email: 'mapped@example.com', password: 'a password 1' })).json as { user: { id: string } };
    const coreId = signedUp.user.id;
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'old-5' });
    await call('PUT', '/recipe/user/metadata', { userId: 'old-5', metadataUpdate: { plan: 'pro' } });
    expect(await call('POST', '/recipe/userid/map/remove', { userId: 'old-5' })).toMatchObject({
      status: 400,
      text: 'UserId is already in use in UserMetadata recipe\n',
    });
    expect((await call('POST', '/recipe/userid/map/remove', { userId: coreId, userIdType: 'EXTERNAL', force: true })).json).toEqual({
      status: 'OK',
      didMappingExist: false,
    });
    expect((await call('POST', '/recipe/userid/map/remove', { userId: coreId, force: true })).json).toEqual({ status: 'OK', didMappingExist: true });
    expect((await call('GET', `/user/id?userId=${coreId}`)).json).toMatchObject({ status: 'OK', user: { id: coreId } });
    expect((await call('GET', '/recipe/user/metadata?userId=old-5')).json).toEqual({ status: 'OK', metadata: { plan: 'pro' } });
    expect((await call('GET', `/recipe/user/metadata?userId=${coreId}`)).json).toEqual({ status: 'OK', metadata: {} });
  });
});

describe("a password user's email and password on the core double", () => {
  it('both change in one call (emailpassword rid); a taken email changes neither', async () => {
    const rid = { rid: 'emailpassword' };
    const ann = (await call('POST', '/recipe/signup', { email: 'ann5@example.com', password: 'first password' })).json as { user: { id: string } };
    await call('POST', '/recipe/signup', { email: 'bob5@example.com', password: 'bob password' });
    const change = (email: string, password: string) => call('PUT', '/recipe/user', { recipeUserId: ann.user.id, email, password }, rid);
    expect((await change('bob5@example.com', 'second password')).json).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    expect((await call('POST', '/recipe/signin', { email: 'ann5@example.com', password: 'first password' })).json['status']).toBe('OK');
    expect((await change('ann6@example.com', 'second password')).json).toEqual({ status: 'OK' });
    expect((await call('POST', '/recipe/signin', { email: 'ann6@example.com', password: 'second password' })).json['status']).toBe('OK');
    expect((await call('PUT', '/recipe/user', { recipeUserId: ann.user.id }, rid)).text).toBe('You have to provide either email or password.\n');
  });
});
