import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';

const API_KEY = 'double-roles-key-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';

let double: CoreDouble;

beforeAll(async () => {
  double = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['acme'] });
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

describe('core double: user roles', () => {
  it('creates a role once, adds permissions to an existing one without removing any, and lists roles', async () => {
    expect((await call('PUT', '/recipe/role', { role: 'editor', permissions: ['read', 'write'] })).json).toEqual({ status: 'OK', createdNewRole: true });
    expect((await call('PUT', '/recipe/role', { role: 'editor', permissions: ['publish', 'read'] })).json).toEqual({ status: 'OK', createdNewRole: false });
    expect((await call('GET', '/recipe/role/permissions?role=editor')).json).toEqual({ status: 'OK', permissions: ['read', 'write', 'publish'] });
    expect((await call('PUT', '/recipe/role', { role: 'viewer' })).json).toEqual({ status: 'OK', createdNewRole: true });
    expect((await call('GET', '/recipe/role/permissions?role=viewer')).json).toEqual({ status: 'OK', permissions: [] });
    expect((await call('GET', '/recipe/role/permissions?role=nobody')).json).toEqual({ status: 'UNKNOWN_ROLE_ERROR' });
    expect((await call('GET', '/recipe/roles')).json).toEqual({ status: 'OK', roles: ['editor', 'viewer'] });
    // Roles are the app's: a tenant sees the same ones.
    expect((await call('GET', '/acme/recipe/roles')).json).toEqual({ status: 'OK', roles: ['editor', 'viewer'] });
  });

  it("refuses an empty role name and malformed permissions with the core's sentences", async () => {
    expect(await call('PUT', '/recipe/role', { role: '  ', permissions: [] })).toMatchObject({
      status: 400,
      text: "Field name 'role' cannot be an empty String\n",
    });
    expect(await call('PUT', '/recipe/role', { permissions: [] })).toMatchObject({ status: 400, text: "Field name 'role' is invalid in JSON input\n" });
    expect(await call('PUT', '/recipe/role', { role: 'a', permissions: 'read' })).toMatchObject({
      status: 400,
      text: "Field name 'permissions' is invalid in JSON input\n",
    });
    expect(await call('PUT', '/recipe/role', { role: 'a', permissions: [''] })).toMatchObject({
      status: 400,
      text: "Field name 'permissions' cannot be an empty String\n",
    });
    expect(await call('PUT', '/recipe/user/role', { userId: 'u', role: '' })).toMatchObject({
      status: 400,
      text: "Field name 'role' cannot be an empty String\n",
    });
    expect((await call('GET', '/recipe/roles')).json).toEqual({ status: 'OK', roles: [] });
  });

  it('gives users roles that exist, by the old id once mapped, per tenant; removes an assignment', async () => {
    const coreId = await importUser('ann@example.com');
    await call('POST', '/recipe/userid/map', { superTokensUserId: coreId, externalUserId: 'old-1' });
    expect((await call('PUT', '/recipe/user/role', { userId: 'old-1', role: 'admin' })).json).toEqual({ status: 'UNKNOWN_ROLE_ERROR' });
    await call('PUT', '/recipe/role', { role: 'admin', permissions: ['all'] });
    await call('PUT', '/recipe/role', { role: 'editor', permissions: [] });
    expect((await call('PUT', '/recipe/user/role', { userId: 'old-1', role: 'admin' })).json).toEqual({ status: 'OK', didUserAlreadyHaveRole: false });
    expect((await call('PUT', '/recipe/user/role', { userId: 'old-1', role: 'admin' })).json).toEqual({ status: 'OK', didUserAlreadyHaveRole: true });
    expect((await call('PUT', '/recipe/user/role', { userId: coreId, role: 'editor' })).json).toEqual({ status: 'OK', didUserAlreadyHaveRole: false });
    expect((await call('GET', '/recipe/user/roles?userId=old-1')).json).toEqual({ status: 'OK', roles: ['admin', 'editor'] });
    expect((await call('GET', '/recipe/role/users?role=admin')).json).toEqual({ status: 'OK', users: ['old-1'] });
    expect((await call('GET', '/acme/recipe/role/users?role=admin')).json).toEqual({ status: 'OK', users: [] });
    expect((await call('GET', '/recipe/role/users?role=ghost')).json).toEqual({ status: 'UNKNOWN_ROLE_ERROR' });
    expect((await call('GET', '/acme/recipe/user/roles?userId=old-1')).json).toEqual({ status: 'OK', roles: [] });
    expect((await call('POST', '/recipe/user/role/remove', { userId: 'old-1', role: 'editor' })).json).toEqual({ status: 'OK', didUserHaveRole: true });
    expect((await call('POST', '/recipe/user/role/remove', { userId: 'old-1', role: 'editor' })).json).toEqual({ status: 'OK', didUserHaveRole: false });
    expect((await call('POST', '/recipe/user/role/remove', { userId: 'old-1', role: 'ghost' })).json).toEqual({ status: 'UNKNOWN_ROLE_ERROR' });
    expect((await call('GET', '/recipe/user/roles?userId=old-1')).json).toEqual({ status: 'OK', roles: ['admin'] });
  });

  it('removing a role takes it from every user; removing a user takes its roles', async () => {
    const ann = await importUser('ann@example.com');
    const bob = await importUser('bob@example.com');
    await call('PUT', '/recipe/role', { role: 'admin', permissions: [] });
    await call('PUT', '/recipe/role', { role: 'editor', permissions: [] });
    for (const userId of [ann, bob]) {
      await call('PUT', '/recipe/user/role', { userId, role: 'admin' });
      await call('PUT', '/recipe/user/role', { userId, role: 'editor' });
    }
    expect((await call('POST', '/recipe/role/remove', { role: 'editor' })).json).toEqual({ status: 'OK', didRoleExist: true });
    expect((await call('POST', '/recipe/role/remove', { role: 'editor' })).json).toEqual({ status: 'OK', didRoleExist: false });
    expect((await call('GET', `/recipe/user/roles?userId=${bob}`)).json).toEqual({ status: 'OK', roles: ['admin'] });
    await call('POST', '/user/remove', { userId: ann });
    expect((await call('GET', `/recipe/user/roles?userId=${ann}`)).json).toEqual({ status: 'OK', roles: [] });
    expect((await call('GET', `/recipe/user/roles?userId=${bob}`)).json).toEqual({ status: 'OK', roles: ['admin'] });
  });

  it('a core without the recipe answers 404 "Not found" on every roles path', async () => {
    double.identity.setMissing(['roles']);
    const calls: ['GET' | 'POST' | 'PUT', string, unknown?][] = [
      ['PUT', '/recipe/role', { role: 'a', permissions: [] }],
      ['GET', '/recipe/role/permissions?role=a'],
      ['GET', '/recipe/roles'],
      ['GET', '/recipe/role/users?role=a'],
      ['PUT', '/recipe/user/role', { userId: 'u', role: 'a' }],
      ['GET', '/recipe/user/roles?userId=u'],
      ['POST', '/recipe/user/role/remove', { userId: 'u', role: 'a' }],
      ['POST', '/recipe/role/remove', { role: 'a' }],
    ];
    for (const [method, path, body] of calls) expect([method, path, (await call(method, path, body)).text]).toEqual([method, path, 'Not found\n']);
  });
});
