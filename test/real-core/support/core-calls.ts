import { REAL_CORE_API_KEY } from './real-core.js';

/** A core's answer as a test reads it: the status code, and the body as JSON (or as text when it is not JSON). */
export interface CoreAnswer {
  status: number;
  contentType: string;
  body: unknown;
  text: string;
}

/** One call with the contract's two headers (the api-key may be left out or changed to test the refusal). */
export async function callCore(url: string, method: string, path: string, body?: unknown, apiKey: string | null = REAL_CORE_API_KEY): Promise<CoreAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (apiKey !== null) headers['api-key'] = apiKey;
  const answer = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await answer.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A core's errors are plain text (core-behaviour.md): keep them as they are.
  }
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body: parsed, text };
}

interface StatusBody {
  status?: string;
  user?: { id?: string };
}

async function jsonCall(url: string, method: string, path: string, body?: unknown): Promise<StatusBody & Record<string, unknown>> {
  const answer = await callCore(url, method, path, body);
  if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) {
    throw new Error(`${method} ${path} answered ${answer.status} ${answer.text}`);
  }
  return answer.body as StatusBody & Record<string, unknown>;
}

/** `POST /recipe/signin`: the user's id when the password is right, undefined when the core says wrong credentials. */
export async function signIn(url: string, email: string, password: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'POST', '/recipe/signin', { email, password });
  if (answer.status === 'WRONG_CREDENTIALS_ERROR') return undefined;
  if (answer.status !== 'OK' || answer.user?.id === undefined) throw new Error(`sign-in answered ${JSON.stringify(answer)}`);
  return answer.user.id;
}

export async function userCount(url: string): Promise<number> {
  const answer = await jsonCall(url, 'GET', '/users/count');
  if (typeof answer.count !== 'number') throw new Error(`count answered ${JSON.stringify(answer)}`);
  return answer.count;
}

/** `GET /recipe/user?email=`: the password user's id, or undefined when the core has none with that email. */
export async function passwordUserIdOf(url: string, email: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'GET', `/recipe/user?email=${encodeURIComponent(email)}`);
  return answer.status === 'UNKNOWN_EMAIL_ERROR' ? undefined : answer.user?.id;
}

/** The core's own id mapped to an old id (`GET /recipe/userid/map`), or undefined when none is. */
export async function coreIdMappedTo(url: string, externalId: string): Promise<string | undefined> {
  const answer = await jsonCall(url, 'GET', `/recipe/userid/map?userId=${encodeURIComponent(externalId)}&userIdType=EXTERNAL`);
  return answer.status === 'OK' && typeof answer.superTokensUserId === 'string' ? answer.superTokensUserId : undefined;
}

export async function isEmailVerified(url: string, userId: string, email: string): Promise<boolean> {
  const answer = await jsonCall(url, 'GET', `/recipe/user/email/verify?userId=${encodeURIComponent(userId)}&email=${encodeURIComponent(email)}`);
  return answer.isVerified === true;
}

export async function metadataOf(url: string, userId: string): Promise<Record<string, unknown>> {
  const answer = await jsonCall(url, 'GET', `/recipe/user/metadata?userId=${encodeURIComponent(userId)}`);
  return (answer.metadata ?? {}) as Record<string, unknown>;
}

/** The ids of the users that sign in with this third-party account (`GET /users/by-accountinfo`). */
export async function thirdPartyUserIds(url: string, thirdPartyId: string, thirdPartyUserId: string): Promise<string[]> {
  const query = `thirdPartyId=${encodeURIComponent(thirdPartyId)}&thirdPartyUserId=${encodeURIComponent(thirdPartyUserId)}`;
  const answer = await jsonCall(url, 'GET', `/users/by-accountinfo?${query}&doUnionOfAccountInfo=true`);
  const users = Array.isArray(answer.users) ? (answer.users as { id?: unknown }[]) : [];
  return users.map((user) => String(user.id));
}
