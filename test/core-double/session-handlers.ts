import { type DoubleAnswer, fail, fieldInvalid, isJsonObject, jsonAnswer, optionalBoolean, optionalString, requireBoolean, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { PROTECTED_CLAIMS } from './sessions.js';
import { queryParameter } from './user-handlers.js';

/*
 * The session recipe's calls, as a real core 10.0.7 answered the official Node SDK (sdk-flows.json, flows 5 and 6):
 * the fields each call reads, in the core's words when one is wrong; the sessions themselves are sessions.ts.
 */

function requireObject(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = body[field];
  return isJsonObject(value) ? value : fieldInvalid(field);
}

/** The id a session is made for, as answers name the user: the external id of a mapped user, given either id; any other id as given. */
function sessionUserId(context: HandlerContext, userId: string): string {
  const coreId = context.store.resolve(userId);
  const user = coreId === undefined ? undefined : context.store.byCoreId(coreId);
  return user === undefined ? userId : (user.externalId ?? user.id);
}

/** POST /recipe/session {userId, userDataInJWT, userDataInDatabase, enableAntiCsrf, useDynamicSigningKey?} */
export async function createSession(context: HandlerContext): Promise<DoubleAnswer> {
  const { body } = context;
  const userId = requireString(body, 'userId');
  const enableAntiCsrf = requireBoolean(body, 'enableAntiCsrf');
  const userDataInJWT = requireObject(body, 'userDataInJWT');
  const userDataInDatabase = requireObject(body, 'userDataInDatabase');
  const useDynamicSigningKey = optionalBoolean(body, 'useDynamicSigningKey');
  context.requireTenant();
  if (Object.keys(userDataInJWT).some((claim) => PROTECTED_CLAIMS.includes(claim))) return fail(400, 'The user payload contains protected field');
  const id = sessionUserId(context, userId);
  const options = { enableAntiCsrf, useStaticKey: useDynamicSigningKey === false };
  return jsonAnswer(await context.store.sessions.create(context.scope, { userId: id, recipeUserId: id }, userDataInJWT, userDataInDatabase, options));
}

/** GET /recipe/session?sessionHandle= — a handle is unique across tenants (`<uuid>_<tenant>` outside `public`). */
export function sessionInformation(context: HandlerContext): DoubleAnswer {
  return jsonAnswer(context.store.sessions.information(queryParameter(context, 'sessionHandle')));
}

/** POST /recipe/session/verify {accessToken, antiCsrfToken?, doAntiCsrfCheck, enableAntiCsrf, checkDatabase?} */
export async function verifySession(context: HandlerContext): Promise<DoubleAnswer> {
  const { body } = context;
  const accessToken = requireString(body, 'accessToken');
  const antiCsrfToken = optionalString(body, 'antiCsrfToken');
  const doAntiCsrfCheck = requireBoolean(body, 'doAntiCsrfCheck');
  const enableAntiCsrf = requireBoolean(body, 'enableAntiCsrf');
  const checkDatabase = optionalBoolean(body, 'checkDatabase') === true;
  return jsonAnswer(await context.store.sessions.verify(accessToken, { antiCsrfToken, doAntiCsrfCheck, enableAntiCsrf, checkDatabase }));
}

/**
 * POST /recipe/session/refresh {refreshToken, antiCsrfToken?, enableAntiCsrf, useDynamicSigningKey} — a real core of CDI
 * 5 requires `useDynamicSigningKey` (the SDK always sends it); the double, which does not read `cdi-version`, takes its
 * absence as "keep the session's key".
 */
export async function refreshSession(context: HandlerContext): Promise<DoubleAnswer> {
  const { body } = context;
  const refreshToken = requireString(body, 'refreshToken');
  const antiCsrfToken = optionalString(body, 'antiCsrfToken');
  const enableAntiCsrf = requireBoolean(body, 'enableAntiCsrf');
  const useDynamicSigningKey = optionalBoolean(body, 'useDynamicSigningKey');
  const useStaticKey = useDynamicSigningKey === undefined ? undefined : !useDynamicSigningKey;
  return jsonAnswer(await context.store.sessions.refresh(refreshToken, { antiCsrfToken, enableAntiCsrf, useStaticKey }));
}

function sessionHandlesOf(body: Record<string, unknown>): string[] | undefined {
  const raw = body['sessionHandles'];
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) return fieldInvalid('sessionHandles');
  return raw.map((handle: unknown) => (typeof handle === 'string' ? handle : fieldInvalid('sessionHandles')));
}

/**
 * POST /recipe/session/remove — either `{sessionHandles}`, or `{userId}` with `revokeAcrossAllTenants` (default true)
 * and `revokeSessionsForLinkedAccounts` (no linked accounts here); `sessionHandlesRevoked` lists what was there.
 */
export function removeSessions(context: HandlerContext): DoubleAnswer {
  const { body } = context;
  const userId = optionalString(body, 'userId');
  const handles = sessionHandlesOf(body);
  if ((userId === undefined) === (handles === undefined)) return fail(400, 'Invalid JSON input - use one of userId or sessionHandles array');
  const acrossAllTenants = optionalBoolean(body, 'revokeAcrossAllTenants');
  if (userId === undefined && acrossAllTenants !== undefined) {
    return fail(400, 'Invalid JSON input - revokeAcrossAllTenants can only be set if userId is set');
  }
  if (userId === undefined && optionalBoolean(body, 'revokeSessionsForLinkedAccounts') !== undefined) {
    return fail(400, 'Invalid JSON input - revokeSessionsForLinkedAccounts can only be set if userId is set');
  }
  context.requireTenant();
  const { sessions } = context.store;
  const revoked =
    userId === undefined
      ? sessions.revokeHandles(handles ?? [])
      : sessions.revokeUser(userId, context.scope.appId, acrossAllTenants === false ? context.scope.tenantId : undefined);
  return jsonAnswer({ status: 'OK', sessionHandlesRevoked: revoked });
}

/** GET /.well-known/jwks.json — public (no api-key needed), with the core's `Cache-Control`. */
export async function jwks(context: HandlerContext): Promise<DoubleAnswer> {
  const { keys } = context.store.sessions;
  const answer = jsonAnswer({ keys: await keys.jwks() });
  return { ...answer, headers: { 'cache-control': `max-age=${await keys.cacheSeconds()}, must-revalidate` } };
}
