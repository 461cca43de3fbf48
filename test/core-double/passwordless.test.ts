import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';
import { bcryptHashOf } from './known-hashes.js';
import { CODE_LIFETIME_MS } from './store.js';

const API_KEY = 'double-passwordless-key-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';
const PHONE = '+14155550123';

let double: CoreDouble;

beforeAll(async () => {
  double = await startCoreDouble({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => {
  double.reset();
  double.identity.setMissing([]);
});

async function call(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await request(`${double.url}${path}`, {
    method,
    headers: { 'api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': JSON_TYPE }), ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.body.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Errors are plain text.
  }
  return { status: response.statusCode, text, json };
}

async function code(login: Record<string, string>): Promise<{ preAuthSessionId: string; linkCode: string }> {
  const answer = await call('POST', '/recipe/signinup/code', login);
  expect(answer.json).toMatchObject({ status: 'OK', codeLifetime: CODE_LIFETIME_MS });
  return { preAuthSessionId: String(answer.json['preAuthSessionId']), linkCode: String(answer.json['linkCode']) };
}

async function signUp(login: Record<string, string>): Promise<Record<string, unknown>> {
  return (await call('POST', '/recipe/signinup/code/consume', await code(login))).json;
}

const byPhone = (phone: string): string => `/users/by-accountinfo?phoneNumber=${encodeURIComponent(phone)}&doUnionOfAccountInfo=true`;

describe('core double: passwordless users', () => {
  it('creates a user by code then consume, and a second code+consume for the login answers createdNewUser false with that user', async () => {
    const first = await signUp({ phoneNumber: PHONE });
    expect(first).toMatchObject({
      status: 'OK',
      createdNewUser: true,
      user: { phoneNumbers: [PHONE], emails: [], loginMethods: [{ recipeId: 'passwordless', phoneNumber: PHONE, verified: true }] },
    });
    const id = (first['user'] as { id: string }).id;
    expect(first['recipeUserId']).toBe(id);
    const second = await signUp({ phoneNumber: PHONE });
    expect(second).toMatchObject({ status: 'OK', createdNewUser: false, user: { id } });
    expect(double.passwordlessUsers()).toHaveLength(1);
    expect(double.passwordlessCodes()).toEqual([]);
  });

  it("refuses a code request with neither or both logins, and a consume without its fields, with the real core's 400s", async () => {
    for (const body of [{}, { phoneNumber: PHONE, email: 'a@b.c' }]) {
      expect(await call('POST', '/recipe/signinup/code', body)).toMatchObject({
        status: 400,
        text: 'Please provide exactly one of email, phoneNumber or deviceId\n',
      });
    }
    expect(await call('POST', '/recipe/signinup/code/consume', {})).toMatchObject({
      status: 400,
      text: "Field name 'preAuthSessionId' is invalid in JSON input\n",
    });
    expect(await call('POST', '/recipe/signinup/code/consume', { preAuthSessionId: 'x' })).toMatchObject({
      status: 400,
      text: 'Please provide exactly one of linkCode or deviceId+userInputCode\n',
    });
    expect(await call('POST', '/recipe/signinup/codes/remove', {})).toMatchObject({
      status: 400,
      text: 'Please provide exactly one of email or phoneNumber\n',
    });
  });

  it('stores the number as given (no format check) and the email trimmed and lower-cased', async () => {
    expect(await signUp({ phoneNumber: '12' })).toMatchObject({ createdNewUser: true, user: { phoneNumbers: ['12'] } });
    expect(await signUp({ email: '  Pl@Example.COM ' })).toMatchObject({ createdNewUser: true, user: { emails: ['pl@example.com'] } });
  });

  it('keeps a code a killed run leaves until it is removed, used or expired; a gone code answers RESTART_FLOW_ERROR', async () => {
    const left = await code({ phoneNumber: PHONE });
    expect(double.passwordlessCodes()).toMatchObject([{ login: { phoneNumber: PHONE } }]);
    expect((await call('POST', '/recipe/signinup/codes/remove', { phoneNumber: PHONE })).json).toEqual({ status: 'OK' });
    expect(double.passwordlessCodes()).toEqual([]);
    expect((await call('POST', '/recipe/signinup/code/consume', left)).json).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect((await call('POST', '/recipe/signinup/codes/remove', { phoneNumber: '+19999' })).json).toEqual({ status: 'OK' });
    // A used code is gone too.
    const used = await code({ email: 'a@b.c' });
    await call('POST', '/recipe/signinup/code/consume', used);
    expect((await call('POST', '/recipe/signinup/code/consume', used)).json).toEqual({ status: 'RESTART_FLOW_ERROR' });
    // Past its lifetime a code no longer creates anyone.
    const stale = double.store.createCode({ appId: 'public', tenantId: 'public' }, { phoneNumber: '+447700900123' }, 1_000);
    expect(
      double.store.consumeCode({ appId: 'public', tenantId: 'public' }, stale.preAuthSessionId, stale.linkCode, 1_000 + CODE_LIFETIME_MS + 1),
    ).toBeUndefined();
    expect(double.passwordlessUsers()).toHaveLength(1);
  });

  it("a consume uses up every code of its login, as a real core's does", async () => {
    const first = await code({ phoneNumber: PHONE });
    const second = await code({ phoneNumber: PHONE });
    const other = await code({ phoneNumber: '+447700900123' });
    expect((await call('POST', '/recipe/signinup/code/consume', first)).json).toMatchObject({ status: 'OK', createdNewUser: true });
    expect((await call('POST', '/recipe/signinup/code/consume', second)).json).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect(double.passwordlessCodes()).toMatchObject([{ preAuthSessionId: other.preAuthSessionId }]);
  });

  it("a consume lost to the store's lock after it used its code: a 500, the login's codes gone, no user made", async () => {
    double.faults.loseConsumesAfterUse(1);
    const lost = await code({ phoneNumber: PHONE });
    expect(await call('POST', '/recipe/signinup/code/consume', lost)).toMatchObject({ status: 500, text: expect.stringContaining('database table is locked') });
    expect(double.passwordlessCodes()).toEqual([]);
    expect(double.passwordlessUsers()).toEqual([]);
    // Its retry finds the code used; a fresh code makes the user.
    expect((await call('POST', '/recipe/signinup/code/consume', lost)).json).toEqual({ status: 'RESTART_FLOW_ERROR' });
    expect((await call('POST', '/recipe/signinup/code/consume', await code({ phoneNumber: PHONE }))).json).toMatchObject({ createdNewUser: true });
  });

  it("changes the phone or email only with rid: passwordless; without it the path is the password user's update (400)", async () => {
    const id = ((await signUp({ phoneNumber: PHONE }))['user'] as { id: string }).id;
    await call('POST', '/recipe/userid/map', { superTokensUserId: id, externalUserId: 'old-1' });
    expect(await call('PUT', '/recipe/user', { recipeUserId: 'old-1', phoneNumber: '+14155550124' })).toMatchObject({
      status: 400,
      text: 'You have to provide either email or password.\n',
    });
    const rid = { rid: 'passwordless' };
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', phoneNumber: '+14155550124' }, rid)).json).toEqual({ status: 'OK' });
    expect((await call('GET', byPhone('+14155550124'))).json).toMatchObject({ users: [{ id: 'old-1' }] });
    expect((await call('GET', byPhone(PHONE))).json).toEqual({ status: 'OK', users: [] });
    // Another user's number, or an unknown id: the real core's statuses.
    await signUp({ phoneNumber: PHONE });
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', phoneNumber: PHONE }, rid)).json).toEqual({
      status: 'PHONE_NUMBER_ALREADY_EXISTS_ERROR',
    });
    await signUp({ email: 'taken@example.com' });
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', email: 'taken@example.com' }, rid)).json).toEqual({
      status: 'EMAIL_ALREADY_EXISTS_ERROR',
    });
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'nobody', phoneNumber: '+1555' }, rid)).json).toEqual({ status: 'UNKNOWN_USER_ID_ERROR' });
    // An email added to a phone user starts unverified, as on a real core.
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', email: 'Added@Example.com' }, rid)).json).toEqual({ status: 'OK' });
    expect((await call('GET', byPhone('+14155550124'))).json).toMatchObject({
      users: [{ id: 'old-1', emails: ['added@example.com'], loginMethods: [{ recipeId: 'passwordless', email: 'added@example.com', verified: false }] }],
    });
  });

  it('finds users of every kind by email or phone number, needs the union flag, and forgets a removed passwordless user', async () => {
    await signUp({ email: 'both@example.com' });
    await call('POST', '/recipe/user/passwordhash/import', { email: 'both@example.com', passwordHash: await bcryptHashOf('x') });
    await call('POST', '/recipe/signinup', { thirdPartyId: 'google', thirdPartyUserId: 'g-1', email: { id: 'both@example.com', isVerified: true } });
    const found = (await call('GET', '/users/by-accountinfo?email=both%40example.com&doUnionOfAccountInfo=true')).json['users'] as {
      loginMethods: { recipeId: string }[];
    }[];
    expect(found.map((user) => user.loginMethods[0]?.recipeId).sort()).toEqual(['emailpassword', 'passwordless', 'thirdparty']);
    expect(await call('GET', '/users/by-accountinfo?email=both%40example.com')).toMatchObject({
      status: 400,
      text: "Field name 'doUnionOfAccountInfo' is missing in GET request\n",
    });
    const id = ((await signUp({ phoneNumber: PHONE }))['user'] as { id: string }).id;
    await call('PUT', '/recipe/user/metadata', { userId: id, metadataUpdate: { a: 1 } });
    expect((await call('POST', '/user/remove', { userId: id })).json).toEqual({ status: 'OK' });
    expect((await call('GET', byPhone(PHONE))).json).toEqual({ status: 'OK', users: [] });
    expect(double.identity.metadataOf(id)).toEqual({});
    expect(await signUp({ phoneNumber: PHONE })).toMatchObject({ createdNewUser: true });
  });

  it('answers 404 for every passwordless call when the feature is off, as a core without them', async () => {
    double.identity.setMissing(['passwordless']);
    for (const [method, path, body, headers] of [
      ['POST', '/recipe/signinup/code', { phoneNumber: PHONE }, {}],
      ['POST', '/recipe/signinup/code/consume', { preAuthSessionId: 'x', linkCode: 'y' }, {}],
      ['POST', '/recipe/signinup/codes/remove', { phoneNumber: PHONE }, {}],
      ['PUT', '/recipe/user', { recipeUserId: 'x', phoneNumber: PHONE }, { rid: 'passwordless' }],
      ['GET', byPhone(PHONE), undefined, {}],
    ] as const) {
      expect(await call(method, path, body, headers)).toMatchObject({ status: 404, text: 'Not found\n' });
    }
    // The password user's email change on the same path is still there.
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'x', email: 'a@b.c' })).json).toEqual({ status: 'UNKNOWN_USER_ID_ERROR' });
  });
});
