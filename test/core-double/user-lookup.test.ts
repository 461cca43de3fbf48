import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from './server.js';

const KEY = 'lookup-api-key-0123456789-abcdef';
const HASH = '$2a$04$abcdefghijklmnopqrstuu5Qb1pEqnkp1rIY7VHYy8MNq0exV3qHu';

describe('GET /recipe/user?email= on the core double (core-behaviour.md, "Finding and removing users")', () => {
  let core: CoreDouble;
  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [KEY], tenants: ['t1'] });
    const imported = await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'Ada@Example.com', passwordHash: HASH }),
    });
    expect(imported.status).toBe(200);
  });
  afterEach(async () => {
    await core.close();
  });

  const get = async (path: string, key: string | null = KEY): Promise<{ status: number; body: string }> => {
    const response = await fetch(`${core.url}${path}`, { headers: key === null ? {} : { 'api-key': key } });
    return { status: response.status, body: await response.text() };
  };

  it('answers OK with the user, or UNKNOWN_EMAIL_ERROR, per tenant', async () => {
    const found = await get('/recipe/user?email=ada%40example.com');
    expect(found.status).toBe(200);
    expect(JSON.parse(found.body)).toMatchObject({ status: 'OK', user: { emails: ['ada@example.com'] } });
    expect(JSON.parse((await get('/recipe/user?email=bob%40example.com')).body)).toEqual({ status: 'UNKNOWN_EMAIL_ERROR' });
    expect(JSON.parse((await get('/t1/recipe/user?email=ada%40example.com')).body)).toEqual({ status: 'UNKNOWN_EMAIL_ERROR' });
  });

  it('needs the key, and is a GET', async () => {
    expect((await get('/recipe/user?email=ada%40example.com', null)).status).toBe(401);
    const posted = await fetch(`${core.url}/recipe/user`, { method: 'POST', headers: { 'api-key': KEY } });
    expect(posted.status).toBe(405);
  });
});
