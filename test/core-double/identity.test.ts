import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CoreDouble, identityFeatureNames, startCoreDouble } from './index.js';
import { bcryptHashOf } from './known-hashes.js';

const API_KEY = 'double-identity-key-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';

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

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await request(`${double.url}${path}`, {
    method,
    headers: { 'api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': JSON_TYPE }) },
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

async function importUser(email: string): Promise<string> {
  const answer = await call('POST', '/recipe/user/passwordhash/import', { email, passwordHash: '$2a$04$abcdefghijklmnopqrstuuVOsr0TBnA6jO1O1xYqxq6wE.wPqHm2' });
  return (answer.json['user'] as { id: string }).id;
}

describe('core double: identity calls beyond the contract', () => {
  it('maps a user, then names it by the old id in every answer; repeated and conflicting mappings answer as a core does', async () => {
    const coreId = await importUser('ann@example.com');
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'fb-1', externalUserIdInfo: 'firebase' })).json).toEqual({
      status: 'OK',
    });
    const again = await importUser('ann@example.com');
    expect(again).toBe('fb-1');
    expect((await call('GET', '/recipe/user?email=ann@example.com')).json).toMatchObject({
      status: 'OK',
      user: { id: 'fb-1', loginMethods: [{ recipeUserId: 'fb-1' }] },
    });
    expect((await call('GET', `/recipe/userid/map?userId=${coreId}&userIdType=SUPERTOKENS`)).json).toEqual({
      status: 'OK',
      superTokensUserId: coreId,
      externalUserId: 'fb-1',
      externalUserIdInfo: 'firebase',
    });
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'fb-1' })).json).toEqual({
      status: 'USER_ID_MAPPING_ALREADY_EXISTS_ERROR',
      doesSuperTokensUserIdExist: true,
      doesExternalUserIdExist: true,
    });
    const other = await importUser('bob@example.com');
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: other, externalUserId: 'fb-1' })).json).toMatchObject({
      doesSuperTokensUserIdExist: false,
      doesExternalUserIdExist: true,
    });
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: 'nobody', externalUserId: 'fb-9' })).json).toEqual({
      status: 'UNKNOWN_SUPERTOKENS_USER_ID_ERROR',
    });
    expect(await call('POST', '/recipe/userid/map', { superTokensUserId: other, externalUserId: '' })).toMatchObject({
      status: 400,
      text: "Field name 'externalUserId' cannot be an empty String\n",
    });
    expect((await call('POST', '/recipe/userid/map', { superTokensUserId: other, externalUserId: coreId })).status).toBe(400);
    expect((await call('GET', '/recipe/userid/map?userId=unknown&userIdType=ANY')).json).toEqual({ status: 'UNKNOWN_MAPPING_ERROR' });
  });

  it('verifies an email with a token once, and says so when it already is', async () => {
    const coreId = await importUser('ann@example.com');
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'old-1' });
    expect((await call('GET', '/recipe/user/email/verify?userId=old-1&email=ann@example.com')).json).toEqual({ status: 'OK', isVerified: false });
    const token = (await call('POST', '/recipe/user/email/verify/token', { userId: 'old-1', email: 'ann@example.com' })).json['token'];
    expect(typeof token).toBe('string');
    expect((await call('POST', '/recipe/user/email/verify', { method: 'token', token })).json).toEqual({
      status: 'OK',
      userId: 'old-1',
      email: 'ann@example.com',
    });
    expect((await call('POST', '/recipe/user/email/verify', { method: 'token', token })).json).toEqual({ status: 'EMAIL_VERIFICATION_INVALID_TOKEN_ERROR' });
    expect((await call('POST', '/recipe/user/email/verify/token', { userId: 'old-1', email: 'ann@example.com' })).json).toEqual({
      status: 'EMAIL_ALREADY_VERIFIED_ERROR',
    });
    expect((await call('GET', '/recipe/user?email=ann@example.com')).json).toMatchObject({ user: { loginMethods: [{ verified: true }] } });
  });

  it('merges metadata by top-level key, removes a key set to null, and accepts any userId', async () => {
    expect((await call('PUT', '/recipe/user/metadata', { userId: 'u1', metadataUpdate: { a: 1, b: { c: 2 } } })).json).toEqual({
      status: 'OK',
      metadata: { a: 1, b: { c: 2 } },
    });
    expect((await call('PUT', '/recipe/user/metadata', { userId: 'u1', metadataUpdate: { a: null, b: { d: 3 } } })).json).toEqual({
      status: 'OK',
      metadata: { b: { d: 3 } },
    });
    expect((await call('GET', '/recipe/user/metadata?userId=u1')).json).toEqual({ status: 'OK', metadata: { b: { d: 3 } } });
    expect((await call('GET', '/recipe/user/metadata?userId=nobody')).json).toEqual({ status: 'OK', metadata: {} });
  });

  it('finds password users by email, lists and counts users, and removes one with its mapping, metadata and verification', async () => {
    const coreId = await importUser('ann@example.com');
    await importUser('bob@example.com');
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'old-1' });
    await call('PUT', '/recipe/user/metadata', { userId: 'old-1', metadataUpdate: { name: 'Ann' } });
    expect((await call('GET', '/recipe/user?email=nobody@example.com')).json).toEqual({ status: 'UNKNOWN_EMAIL_ERROR' });
    expect((await call('GET', '/users/count')).json).toEqual({ status: 'OK', count: 2 });
    const page = await call('GET', '/users?limit=1');
    expect((page.json['users'] as unknown[]).length).toBe(1);
    expect(page.json['nextPaginationToken']).toEqual(expect.any(String));
    expect((await call('POST', '/user/remove', { userId: 'old-1' })).json).toEqual({ status: 'OK' });
    expect((await call('POST', '/user/remove', { userId: 'never-there' })).json).toEqual({ status: 'OK' });
    expect(double.users().map((user) => user.email)).toEqual(['bob@example.com']);
    expect((await call('GET', '/recipe/userid/map?userId=old-1&userIdType=EXTERNAL')).json).toEqual({ status: 'UNKNOWN_MAPPING_ERROR' });
    expect(double.identity.metadataOf('old-1')).toEqual({});
  });

  it('answers 404 "Not found" for each feature switched off, and only for it', async () => {
    const paths: Record<(typeof identityFeatureNames)[number], ['GET' | 'POST' | 'PUT', string, unknown?]> = {
      mapping: ['GET', '/recipe/userid/map?userId=x&userIdType=ANY'],
      verification: ['GET', '/recipe/user/email/verify?userId=x&email=a@b.c'],
      metadata: ['GET', '/recipe/user/metadata?userId=x'],
      lookup: ['GET', '/recipe/user?email=a@b.c'],
      removal: ['POST', '/user/remove', { userId: 'x' }],
      roles: ['GET', '/recipe/roles'],
      emailChange: ['PUT', '/recipe/user', { recipeUserId: 'x', email: 'a@b.c' }],
      passwordless: ['GET', '/users/by-accountinfo?email=a@b.c&doUnionOfAccountInfo=true'],
    };
    for (const feature of identityFeatureNames) {
      double.identity.setMissing([feature]);
      for (const [other, [method, path, body]] of Object.entries(paths)) {
        const answer = await call(method, path, body);
        if (other === feature) expect([answer.status, answer.text]).toEqual([404, 'Not found\n']);
        else expect(answer.status).toBe(200);
      }
    }
  });

  it("changes a password user's email by its old id: it signs in with the new email and the same password, keeps id, mapping and metadata, and the new email is unverified", async () => {
    const passwordHash = await bcryptHashOf('s3cret');
    const coreId = (await call('POST', '/recipe/user/passwordhash/import', { email: 'ann@example.com', passwordHash })).json['user'] as { id: string };
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId.id, externalUserId: 'old-1' });
    await call('PUT', '/recipe/user/metadata', { userId: 'old-1', metadataUpdate: { name: 'Ann' } });
    const token = (await call('POST', '/recipe/user/email/verify/token', { userId: 'old-1', email: 'ann@example.com' })).json['token'];
    await call('POST', '/recipe/user/email/verify', { method: 'token', token });
    await importUser('bob@example.com');

    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', email: 'bob@example.com' })).json).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'nobody', email: 'new@example.com' })).json).toEqual({ status: 'UNKNOWN_USER_ID_ERROR' });
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', email: ' Ann.New@Example.com ' })).json).toEqual({ status: 'OK' });

    expect((await call('POST', '/recipe/signin', { email: 'ann.new@example.com', password: 's3cret' })).json).toMatchObject({
      status: 'OK',
      user: { id: 'old-1' },
    });
    expect((await call('POST', '/recipe/signin', { email: 'ann@example.com', password: 's3cret' })).json).toEqual({ status: 'WRONG_CREDENTIALS_ERROR' });
    expect((await call('GET', '/recipe/user?email=ann.new@example.com')).json).toMatchObject({ user: { id: 'old-1', loginMethods: [{ verified: false }] } });
    expect((await call('GET', '/recipe/user/email/verify?userId=old-1&email=ann.new@example.com')).json).toEqual({ status: 'OK', isVerified: false });
    expect(double.identity.metadataOf('old-1')).toEqual({ name: 'Ann' });
    expect(double.identity.externalIdOf(coreId.id)).toBe('old-1');
    // The same email again is no change, and the old email is free for another user.
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-1', email: 'ann.new@example.com' })).json).toEqual({ status: 'OK' });
    expect((await call('POST', '/recipe/user/passwordhash/import', { email: 'ann@example.com', passwordHash })).json).toMatchObject({
      didUserAlreadyExist: false,
    });
  });

  it('a third-party user has no password email to change: unknown to the call', async () => {
    const answer = await call('POST', '/recipe/signinup', {
      thirdPartyId: 'google',
      thirdPartyUserId: 'g-1',
      email: { id: 'tp@example.com', isVerified: true },
    });
    const id = (answer.json['user'] as { id: string }).id;
    expect((await call('PUT', '/recipe/user', { recipeUserId: id, email: 'other@example.com' })).json).toEqual({ status: 'UNKNOWN_USER_ID_ERROR' });
  });

  it('un-verifies an email, also one that was not verified', async () => {
    const coreId = await importUser('ann@example.com');
    const token = (await call('POST', '/recipe/user/email/verify/token', { userId: coreId, email: 'ann@example.com' })).json['token'];
    await call('POST', '/recipe/user/email/verify', { method: 'token', token });
    expect((await call('POST', '/recipe/user/email/verify/remove', { userId: coreId, email: 'ann@example.com' })).json).toEqual({ status: 'OK' });
    expect(double.identity.isVerified(coreId, 'ann@example.com')).toBe(false);
    expect((await call('POST', '/recipe/user/email/verify/remove', { userId: coreId, email: 'ann@example.com' })).json).toEqual({ status: 'OK' });
    expect((await call('POST', '/recipe/user/email/verify/remove', { userId: coreId })).text).toBe("Field name 'email' is invalid in JSON input\n");
  });

  it('a path shared by two features answers 404 for the one switched off and keeps the other', async () => {
    double.identity.setMissing(['emailChange']);
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'x', email: 'a@b.c' })).text).toBe('Not found\n');
    expect((await call('GET', '/recipe/user?email=a@b.c')).status).toBe(200);
    double.identity.setMissing(['lookup', 'emailChange']);
    expect((await call('POST', '/recipe/user', {})).text).toBe('Not found\n');
    double.identity.setMissing([]);
    expect((await call('POST', '/recipe/user', {})).text).toBe('Method not supported\n');
  });
});

// Seen on a real core (test/real-core/double-agrees.test.ts compares the two); each was answered otherwise before.
describe('core double: answers as the real core gives them', () => {
  it('sign-in-up verifies an email and never un-verifies it; verification belongs to the email, and comes back with it', async () => {
    const signInUp = async (email: string, isVerified: boolean) => {
      const answer = await call('POST', '/recipe/signinup', { thirdPartyId: 'github', thirdPartyUserId: 'h-1', email: { id: email, isVerified } });
      return (answer.json['user'] as { loginMethods: { verified: boolean }[] }).loginMethods[0]?.verified;
    };
    expect(await signInUp('hal@example.com', false)).toBe(false);
    expect(await signInUp('hal@example.com', true)).toBe(true);
    expect(await signInUp('hal@example.com', false)).toBe(true);
    expect(await signInUp('hal2@example.com', false)).toBe(false);
    expect(await signInUp('hal@example.com', false)).toBe(true);
  });

  it('a write names its fields before its tenant: an empty body is refused as such in a tenant the core lacks; a read names the tenant first', async () => {
    const tenantMissing = /^AppId or tenantId not found => .*\(, public, nope\)\n$/;
    expect((await call('POST', '/nope/recipe/signinup', {})).text).toBe("Field name 'thirdPartyId' is invalid in JSON input\n");
    const probe = { email: 'probe@tenant.invalid', passwordHash: 'not a hash' };
    expect((await call('POST', '/nope/recipe/user/passwordhash/import', probe)).text).toMatch(tenantMissing);
    expect((await call('POST', '/recipe/user/passwordhash/import', probe)).text).toBe('Password hash is in invalid format\n');
    expect((await call('POST', '/nope/recipe/user/passwordhash/import', { ...probe, passwordHash: '' })).text).toBe(
      'Password hash cannot be an empty string\n',
    );
    const google = { thirdPartyId: 'google', thirdPartyUserId: 'g-1', email: { id: 'g@example.com', isVerified: true } };
    expect((await call('POST', '/nope/recipe/signinup', google)).text).toMatch(tenantMissing);
    expect((await call('GET', '/nope/recipe/user')).text).toMatch(tenantMissing);
    expect((await call('GET', '/recipe/user')).text).toBe('Please provide one of userId or email\n');
    expect((await call('PUT', '/recipe/user', { recipeUserId: 'old-ann' })).text).toBe('You have to provide either email or password.\n');
    expect(double.users()).toEqual([]);
  });

  it('a sign-in names the login method (recipeUserId) and its verified flag; a mapping made without free text has none', async () => {
    const coreId = await importUser('ann@example.com');
    const signIn = async () => (await call('POST', '/recipe/signin', { email: 'ann@example.com', password: 'x' })).json;
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'old-ann' });
    expect((await call('GET', '/recipe/userid/map?userId=old-ann&userIdType=EXTERNAL')).json).toEqual({
      status: 'OK',
      superTokensUserId: coreId,
      externalUserId: 'old-ann',
    });
    const hash = await bcryptHashOf('ann password');
    await call('POST', '/recipe/user/passwordhash/import', { email: 'ann@example.com', passwordHash: hash });
    const token = (await call('POST', '/recipe/user/email/verify/token', { userId: 'old-ann', email: 'ann@example.com' })).json['token'];
    await call('POST', '/recipe/user/email/verify', { method: 'token', token });
    expect(await signIn()).toEqual({ status: 'WRONG_CREDENTIALS_ERROR' });
    const answer = (await call('POST', '/recipe/signin', { email: 'ann@example.com', password: 'ann password' })).json;
    expect(answer).toMatchObject({ status: 'OK', recipeUserId: 'old-ann', user: { id: 'old-ann', loginMethods: [{ verified: true }] } });
  });
});
