import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf, vendorScryptHashString } from './known-hashes.js';

const API_KEY = 'double-test-key-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';

let double: CoreDouble;

beforeAll(async () => {
  double = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['acme'], apps: ['shop'] });
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => double.reset());

async function call(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; contentType: string; text: string; json: () => unknown }> {
  const response = await request(`${double.url}${path}`, {
    method,
    headers: { 'api-key': API_KEY, ...(options.body === undefined ? {} : { 'content-type': JSON_TYPE }), ...options.headers },
    body: options.body ?? null,
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type']),
    text,
    json: () => JSON.parse(text) as unknown,
  };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call('POST', path, { body: typeof body === 'string' ? body : JSON.stringify(body), headers });

describe('core double: transport rules', () => {
  it('answers /hello without a key, with plain text', async () => {
    const answer = await call('GET', '/hello', { headers: { 'api-key': '' } });
    expect(answer.status).toBe(200);
    expect(answer.text.trim()).toBe('Hello');
  });

  it('refuses a missing or wrong key with 401 "Invalid API key", and accepts a Bearer token', async () => {
    const missing = await request(`${double.url}/apiversion`);
    expect(missing.statusCode).toBe(401);
    expect(await missing.body.text()).toBe('Invalid API key\n');
    expect((await call('GET', '/apiversion', { headers: { 'api-key': 'wrong-key-0123456789012' } })).status).toBe(401);
    const bearer = await request(`${double.url}/apiversion`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(bearer.statusCode).toBe(200);
    expect(await bearer.body.json()).toEqual({ versions: expect.arrayContaining(['2.21', '5.2']) });
  });

  it('refuses a POST whose Content-Type is missing or not JSON (stricter than a real core, on purpose)', async () => {
    const body = JSON.stringify({ email: 'a@example.com', passwordHash: '$2a$04$x' });
    const wrong = await post('/recipe/user/passwordhash/import', body, { 'content-type': 'text/plain' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/Content-Type must be application\/json; charset=utf-8/);
    const missing = await request(`${double.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': API_KEY },
      body,
    });
    expect(missing.statusCode).toBe(400);
    await missing.body.text();
    expect(double.users()).toHaveLength(0);
  });

  it('answers 400 "Invalid Json Input" to a body that is not a JSON object', async () => {
    for (const body of ['{not json', '[1,2]', '"text"', '']) {
      const answer = await post('/recipe/signinup', body);
      expect(answer.status).toBe(400);
      expect(answer.text).toBe('Invalid Json Input\n');
      expect(answer.contentType).toBe('text/html;charset=UTF-8');
    }
  });

  it('names the invalid field, the inner name for nested ones', async () => {
    const cases: Array<[unknown, string]> = [
      [{ passwordHash: '$2a$x' }, 'email'],
      [{ email: 7, passwordHash: '$2a$x' }, 'email'],
      [{ email: 'a@b.c', passwordHash: null }, 'passwordHash'],
    ];
    for (const [body, field] of cases) {
      const answer = await post('/recipe/user/passwordhash/import', body);
      expect([answer.status, answer.text]).toEqual([400, `Field name '${field}' is invalid in JSON input\n`]);
    }
    const tp = { thirdPartyId: 'google', thirdPartyUserId: 'g1' };
    const nested: Array<[unknown, string]> = [
      [{ ...tp, email: 'a@b.c' }, 'email'],
      [{ ...tp, email: { isVerified: true } }, 'id'],
      [{ ...tp, email: { id: 'a@b.c', isVerified: 'true' } }, 'isVerified'],
      [{ thirdPartyId: 'google', email: { id: 'a@b.c', isVerified: true } }, 'thirdPartyUserId'],
    ];
    for (const [body, field] of nested) {
      const answer = await post('/recipe/signinup', body);
      expect([answer.status, answer.text]).toEqual([400, `Field name '${field}' is invalid in JSON input\n`]);
    }
  });

  it('answers 404 to unknown paths and 405 to a wrong method', async () => {
    expect((await call('GET', '/recipe/nothing')).text).toBe('Not found\n');
    expect((await call('GET', '/recipe/nothing')).status).toBe(404);
    const wrongMethod = await call('GET', '/recipe/signinup');
    expect([wrongMethod.status, wrongMethod.text]).toEqual([405, 'Method not supported\n']);
  });

  it('knows its tenants and apps, and refuses others with "AppId or tenantId not found"', async () => {
    const body = { thirdPartyId: 'google', thirdPartyUserId: 'g1', email: { id: 'a@b.c', isVerified: true } };
    expect((await post('/acme/recipe/signinup', body)).status).toBe(200);
    expect((await post('/appid-shop/acme/recipe/signinup', body)).status).toBe(200);
    const unknownTenant = await post('/nobody/recipe/signinup', body);
    expect(unknownTenant.status).toBe(400);
    expect(unknownTenant.text).toMatch(/^AppId or tenantId not found => /);
    expect((await post('/appid-nowhere/recipe/signinup', body)).status).toBe(400);
    expect(double.thirdPartyUsers().map((user) => [user.appId, user.tenantId])).toEqual([
      ['public', 'acme'],
      ['shop', 'acme'],
    ]);
  });
});

describe('core double: import and sign-in-up', () => {
  it('imports with a trimmed, lower-cased email, then replaces the hash of the same user', async () => {
    const first = await post('/recipe/user/passwordhash/import', { email: '  Ann@Example.COM ', passwordHash: ' $2a$04$first ' });
    expect(first.status).toBe(200);
    expect(first.contentType).toBe('application/json;charset=UTF-8');
    expect(first.json()).toMatchObject({ status: 'OK', didUserAlreadyExist: false, user: { loginMethods: [{ email: 'ann@example.com' }] } });
    const second = await post('/recipe/user/passwordhash/import', { email: 'ann@example.com', passwordHash: '$argon2id$v=19$x' });
    expect(second.json()).toMatchObject({ status: 'OK', didUserAlreadyExist: true });
    expect(double.emailPasswordUsers()).toEqual([
      expect.objectContaining({ email: 'ann@example.com', passwordHash: '$argon2id$v=19$x', hashingAlgorithm: undefined }),
    ]);
  });

  it('checks only hash prefixes, like the core', async () => {
    const reasons = async (body: unknown) => (await post('/recipe/user/passwordhash/import', body)).text.trim();
    expect(await reasons({ email: 'a@b.c', passwordHash: '   ' })).toBe('Password hash cannot be an empty string');
    expect(await reasons({ email: 'a@b.c', passwordHash: 'md5:abc' })).toBe('Password hash is in invalid format');
    expect(await reasons({ email: 'a@b.c', passwordHash: vendorScryptHashString() })).toBe('Password hash is in invalid format');
    expect(await reasons({ email: 'a@b.c', passwordHash: '$2a$x', hashingAlgorithm: ' ' })).toBe('Hashing Algorithm cannot be an empty string');
    expect(await reasons({ email: 'a@b.c', passwordHash: '$2a$x', hashingAlgorithm: 'md5' })).toBe('Unsupported password hashing algorithm');
    expect(await reasons({ email: 'a@b.c', passwordHash: '$f_scrypt$abc', hashingAlgorithm: 'vendor_scrypt' })).toBe(
      'Password hash is in invalid SCrypt format',
    );
    expect((await post('/recipe/user/passwordhash/import', { email: 'a@b.c', passwordHash: '$2y$broken' })).status).toBe(200);
  });

  it('answers the signer-key 500 to a vendor_scrypt hash when it has no signer key', async () => {
    const answer = await post('/recipe/user/passwordhash/import', {
      email: 'a@b.c',
      passwordHash: vendorScryptHashString(),
      hashingAlgorithm: 'VENDOR_SCRYPT ',
    });
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(/password_hashing_signer_key' cannot be null/);
  });

  it('creates a third-party user once, then updates its email and flag', async () => {
    const body = { thirdPartyId: 'github', thirdPartyUserId: '42', email: { id: 'Old@Example.com', isVerified: false } };
    expect((await post('/recipe/signinup', body)).json()).toMatchObject({ status: 'OK', createdNewUser: true });
    const again = await post('/recipe/signinup', { ...body, email: { id: 'new@example.com', isVerified: true } });
    expect(again.json()).toMatchObject({ status: 'OK', createdNewUser: false, recipeUserId: expect.any(String) });
    expect(double.thirdPartyUsers()).toEqual([
      expect.objectContaining({ thirdPartyId: 'github', thirdPartyUserId: '42', email: 'new@example.com', isVerified: true }),
    ]);
  });

  it('signs in imported users and records every request with its headers and parsed body', async () => {
    const withKey = await startCoreDouble({ signerKey: VENDOR_SCRYPT_VECTOR.signerKey });
    try {
      const importBody = { email: 'v@example.com', passwordHash: vendorScryptHashString(), hashingAlgorithm: 'vendor_scrypt' };
      const send = (path: string, body: unknown) =>
        request(`${withKey.url}${path}`, { method: 'POST', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body) });
      await (await send('/recipe/user/passwordhash/import', importBody)).body.text();
      const good = await (await send('/recipe/signin', { email: 'v@example.com', password: 'user1password' })).body.json();
      const bad = await (await send('/recipe/signin', { email: 'v@example.com', password: 'nope' })).body.json();
      expect(good).toMatchObject({ status: 'OK' });
      expect(bad).toEqual({ status: 'WRONG_CREDENTIALS_ERROR' });
      const [first] = withKey.requests();
      expect(first).toMatchObject({ number: 1, method: 'POST', path: '/recipe/user/passwordhash/import', body: importBody });
      expect(first?.headers['content-type']).toBe(JSON_TYPE);
    } finally {
      await withKey.close();
    }
  });

  it('can answer with the older flat user shape', async () => {
    const legacy = await startCoreDouble({ userShape: 'legacy' });
    try {
      const response = await request(`${legacy.url}/recipe/user/passwordhash/import`, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE },
        body: JSON.stringify({ email: 'a@b.c', passwordHash: await bcryptHashOf('pw') }),
      });
      const answer = (await response.body.json()) as { user: Record<string, unknown> };
      expect(Object.keys(answer.user).sort()).toEqual(['email', 'id', 'timeJoined']);
    } finally {
      await legacy.close();
    }
  });
});

describe('core double: faults', () => {
  it('fails the next n requests, a numbered request, and then answers normally again', async () => {
    double.faults.failNext(2, { status: 503, retryAfterSeconds: 3 });
    double.faults.failRequestNumber(4, { status: 429 });
    const statuses: number[] = [];
    const retryAfters: unknown[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await request(`${double.url}/hello`);
      statuses.push(response.statusCode);
      retryAfters.push(response.headers['retry-after']);
      await response.body.text();
    }
    expect(statuses).toEqual([503, 503, 200, 429, 200]);
    expect(retryAfters[0]).toBe('3');
  });

  it('drops a connection without answering', async () => {
    double.faults.dropNext(1);
    await expect(request(`${double.url}/hello`)).rejects.toMatchObject({ code: expect.stringMatching(/UND_ERR_SOCKET|ECONNRESET/) });
    expect(double.requests()).toHaveLength(1);
  });

  it('clears faults', async () => {
    double.faults.failNext(3, { status: 500 });
    double.faults.clearFaults();
    const response = await request(`${double.url}/hello`);
    await response.body.text();
    expect(response.statusCode).toBe(200);
  });
});
