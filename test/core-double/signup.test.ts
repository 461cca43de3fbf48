import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreDouble, startCoreDouble } from './index.js';

const API_KEY = 'double-signup-key-0123456789';
let double: CoreDouble;

beforeAll(async () => {
  double = await startCoreDouble({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await double.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await request(`${double.url}${path}`, {
    method: 'POST',
    headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

// As a real core 10.0.7 answered (core-behaviour.md, "Creating a password user from a plain password").
describe('POST /recipe/signup on the double', () => {
  it('creates a password user the core hashes itself, who then signs in; a second sign-up of the email is EMAIL_ALREADY_EXISTS_ERROR', async () => {
    const created = await post('/recipe/signup', { email: ' A@Example.com', password: 'pw-1-secret' });
    expect(created.status).toBe(200);
    const answer = JSON.parse(created.text) as { status: string; user: { id: string; emails: string[] }; recipeUserId: string };
    expect(answer).toMatchObject({ status: 'OK', user: { emails: ['a@example.com'] } });
    expect(answer.recipeUserId).toBe(answer.user.id);
    expect(created.text).not.toContain('pw-1-secret');

    expect(JSON.parse((await post('/recipe/signup', { email: 'a@example.com', password: 'other' })).text)).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    expect(JSON.parse((await post('/recipe/signin', { email: 'a@example.com', password: 'pw-1-secret' })).text)).toMatchObject({ status: 'OK' });
    expect(JSON.parse((await post('/recipe/signin', { email: 'a@example.com', password: 'other' })).text)).toEqual({ status: 'WRONG_CREDENTIALS_ERROR' });
    expect(await post('/recipe/signup', { password: 'x' })).toMatchObject({ status: 400, text: "Field name 'email' is invalid in JSON input\n" });
  });
});
