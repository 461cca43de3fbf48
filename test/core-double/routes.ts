import type { IncomingHttpHeaders } from 'node:http';
import {
  APP_PATH_SEGMENT_PREFIX,
  CoreErrorTexts,
  CoreHeaders,
  CorePaths,
  DEFAULT_APP_ID,
  DEFAULT_TENANT_ID,
  PASSWORDLESS_RECIPE_ID,
  type ScryptAlgorithmName,
} from '../../core-client/src/contract/names.js';
import { AnswerWith, type DoubleAnswer, fail, isJsonObject, textAnswer } from './answers.js';
import * as handlers from './handlers.js';
import * as identity from './identity-handlers.js';
import * as roles from './roles-handlers.js';
import * as passwordless from './passwordless-handlers.js';
import * as signup from './signup-handlers.js';
import * as emailPassword from './emailpassword-handlers.js';
import * as users from './user-handlers.js';
import * as sessions from './session-handlers.js';
import { EMAIL_PASSWORD_RECIPE_ID, SdkCorePaths } from './sdk-paths.js';
import type { IdentityFeatureName } from './identity-handlers.js';
import type { HandlerContext } from './handlers.js';
import type { Scope, UserStore } from './store.js';

export interface RouterSettings {
  apiKeys: readonly string[];
  signerKey: string | undefined;
  scryptAlgorithmName: ScryptAlgorithmName;
  tenants: ReadonlySet<string>;
  apps: ReadonlySet<string>;
  store: UserStore;
  userShape: 'recent' | 'legacy';
  /** e.g. `/core`, or empty. */
  pathPrefix: string;
  /** Identity features this double pretends not to have: their paths answer 404 `Not found`, as an older core. */
  missingFeatures: ReadonlySet<IdentityFeatureName>;
}

export interface IncomingCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

type Handler = (context: HandlerContext) => DoubleAnswer | Promise<DoubleAnswer>;

interface Route {
  method: 'GET' | 'POST' | 'PUT';
  handler: Handler;
  /** The identity feature this route belongs to (switchable off). */
  feature?: IdentityFeatureName;
  needsKey: boolean;
  /** `/hello` and `/apiversion` live at the root only; recipe routes also under a tenant/app prefix. */
  scoped: boolean;
  /** Served only to a request with this `rid` header (a path shared by recipes); a route without one serves the others. */
  recipeId?: string;
}

/** Routes by path; a path may take several methods (`GET` to read, `POST`/`PUT` to write). */
const ROUTES: Readonly<Record<string, readonly Route[]>> = {
  [CorePaths.passwordHashImport]: [{ method: 'POST', handler: handlers.importPasswordHash, needsKey: true, scoped: true }],
  [CorePaths.signInUp]: [{ method: 'POST', handler: handlers.signInUp, needsKey: true, scoped: true }],
  [CorePaths.signIn]: [{ method: 'POST', handler: handlers.signIn, needsKey: true, scoped: true }],
  [CorePaths.signUp]: [{ method: 'POST', handler: signup.signUp, needsKey: true, scoped: true }],
  [CorePaths.hello]: [{ method: 'GET', handler: handlers.hello, needsKey: false, scoped: false }],
  [CorePaths.apiVersion]: [{ method: 'GET', handler: handlers.apiVersion, needsKey: true, scoped: false }],
  [CorePaths.userIdMap]: [
    { method: 'POST', handler: users.createMapping, needsKey: true, scoped: true, feature: 'mapping' },
    { method: 'GET', handler: identity.getMapping, needsKey: true, scoped: true, feature: 'mapping' },
  ],
  [CorePaths.emailVerifyToken]: [{ method: 'POST', handler: identity.createVerifyToken, needsKey: true, scoped: true, feature: 'verification' }],
  [CorePaths.emailVerifyRemove]: [{ method: 'POST', handler: identity.unverifyEmail, needsKey: true, scoped: true, feature: 'verification' }],
  [CorePaths.emailVerify]: [
    { method: 'POST', handler: identity.verifyEmail, needsKey: true, scoped: true, feature: 'verification' },
    { method: 'GET', handler: identity.isEmailVerified, needsKey: true, scoped: true, feature: 'verification' },
  ],
  [CorePaths.userMetadata]: [
    { method: 'PUT', handler: identity.updateMetadata, needsKey: true, scoped: true, feature: 'metadata' },
    { method: 'GET', handler: identity.getMetadata, needsKey: true, scoped: true, feature: 'metadata' },
  ],
  // One path, two features: `GET ?email=` finds a user, `PUT` changes its email (CorePaths.userEmailChange).
  [CorePaths.userByEmail]: [
    { method: 'GET', handler: identity.userByEmail, needsKey: true, scoped: true, feature: 'lookup' },
    { method: 'PUT', handler: passwordless.changeLogin, needsKey: true, scoped: true, feature: 'passwordless', recipeId: PASSWORDLESS_RECIPE_ID },
    { method: 'PUT', handler: identity.changeEmail, needsKey: true, scoped: true, feature: 'emailChange' },
    { method: 'PUT', handler: emailPassword.updateEmailOrPassword, needsKey: true, scoped: true, feature: 'emailChange', recipeId: EMAIL_PASSWORD_RECIPE_ID },
  ],
  [CorePaths.passwordlessCode]: [{ method: 'POST', handler: passwordless.createCode, needsKey: true, scoped: true, feature: 'passwordless' }],
  [CorePaths.passwordlessConsume]: [{ method: 'POST', handler: passwordless.consumeCode, needsKey: true, scoped: true, feature: 'passwordless' }],
  [CorePaths.passwordlessCodesRemove]: [{ method: 'POST', handler: passwordless.removeCodes, needsKey: true, scoped: true, feature: 'passwordless' }],
  [CorePaths.usersByAccountInfo]: [{ method: 'GET', handler: passwordless.usersByAccountInfo, needsKey: true, scoped: true, feature: 'passwordless' }],
  [CorePaths.removeUser]: [{ method: 'POST', handler: identity.removeUser, needsKey: true, scoped: true, feature: 'removal' }],
  '/users': [{ method: 'GET', handler: identity.listUsers, needsKey: true, scoped: true, feature: 'lookup' }],
  [CorePaths.userCount]: [{ method: 'GET', handler: identity.countUsers, needsKey: true, scoped: true, feature: 'lookup' }],
  [CorePaths.role]: [{ method: 'PUT', handler: roles.putRole, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.rolePermissions]: [{ method: 'GET', handler: roles.rolePermissions, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.roleUsers]: [{ method: 'GET', handler: roles.roleUsers, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.roles]: [{ method: 'GET', handler: roles.listRoles, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.userRole]: [{ method: 'PUT', handler: roles.addUserRole, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.userRoles]: [{ method: 'GET', handler: roles.userRoles, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.userRoleRemove]: [{ method: 'POST', handler: roles.removeUserRole, needsKey: true, scoped: true, feature: 'roles' }],
  [CorePaths.roleRemove]: [{ method: 'POST', handler: roles.removeRole, needsKey: true, scoped: true, feature: 'roles' }],
  // The official Node SDK's calls beyond core-migrate's (sdk-paths.ts; held to sdk-flows.json).
  [SdkCorePaths.passwordResetToken]: [{ method: 'POST', handler: emailPassword.createResetToken, needsKey: true, scoped: true }],
  [SdkCorePaths.passwordResetConsume]: [{ method: 'POST', handler: emailPassword.consumeResetToken, needsKey: true, scoped: true }],
  [SdkCorePaths.userById]: [{ method: 'GET', handler: users.getUserById, needsKey: true, scoped: true }],
  [SdkCorePaths.userIdMapRemove]: [{ method: 'POST', handler: users.removeMapping, needsKey: true, scoped: true, feature: 'mapping' }],
  [SdkCorePaths.session]: [
    { method: 'POST', handler: sessions.createSession, needsKey: true, scoped: true },
    { method: 'GET', handler: sessions.sessionInformation, needsKey: true, scoped: true },
  ],
  [SdkCorePaths.sessionVerify]: [{ method: 'POST', handler: sessions.verifySession, needsKey: true, scoped: true }],
  [SdkCorePaths.sessionRefresh]: [{ method: 'POST', handler: sessions.refreshSession, needsKey: true, scoped: true }],
  [SdkCorePaths.sessionRemove]: [{ method: 'POST', handler: sessions.removeSessions, needsKey: true, scoped: true }],
  [SdkCorePaths.jwks]: [{ method: 'GET', handler: sessions.jwks, needsKey: false, scoped: true }],
};

/** First path segments that are the core's own, never a tenant id. */
const ROUTE_ROOTS = new Set(['recipe', 'hello', 'apiversion', 'user', 'users', '.well-known']);

/** Splits `/appid-<app>/<tenant>/recipe/...` into its scope and the route. */
export function splitPath(pathname: string): { scope: Scope; route: string; prefixed: boolean } {
  let segments = pathname.split('/').filter((segment) => segment !== '');
  let appId = DEFAULT_APP_ID;
  let tenantId = DEFAULT_TENANT_ID;
  let prefixed = false;
  if (segments[0]?.startsWith(APP_PATH_SEGMENT_PREFIX)) {
    appId = segments[0].slice(APP_PATH_SEGMENT_PREFIX.length);
    segments = segments.slice(1);
    prefixed = true;
  }
  if (segments[0] !== undefined && !ROUTE_ROOTS.has(segments[0])) {
    tenantId = segments[0];
    segments = segments.slice(1);
    prefixed = true;
  }
  return { scope: { appId, tenantId }, route: `/${segments.join('/')}`, prefixed };
}

/** A real core's sentence for an app or tenant it does not have. */
function tenantNotFoundText(scope: Scope): string {
  return `${CoreErrorTexts.tenantNotFoundPrefix} => Tenant with the following connectionURIDomain, appId and tenantId combination not found: (, ${scope.appId}, ${scope.tenantId})`;
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers[CoreHeaders.apiKey];
  if (typeof header === 'string') return header;
  const bearer = /^Bearer\s+(.+)$/i.exec(headers[CoreHeaders.authorization] ?? '');
  return bearer?.[1]?.trim();
}

/**
 * The contract says `application/json; charset=utf-8`. A real core is laxer; the double refuses anything else on
 * purpose, so a client that forgets the header fails its tests instead of a migration.
 */
function isContractContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [mediaType, ...params] = value.split(';').map((part) => part.trim().toLowerCase());
  return mediaType === 'application/json' && params.length === 1 && params[0]?.replace(/\s+/g, '') === 'charset=utf-8';
}

function parseObjectBody(rawBody: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return fail(400, CoreErrorTexts.invalidJson);
  }
  return isJsonObject(parsed) ? parsed : fail(400, CoreErrorTexts.invalidJson);
}

export async function answerCall(call: IncomingCall, settings: RouterSettings): Promise<DoubleAnswer> {
  try {
    const url = new URL(call.path, 'http://double.invalid');
    const pathname = url.pathname;
    const { pathPrefix } = settings;
    if (pathPrefix !== '' && pathname !== pathPrefix && !pathname.startsWith(`${pathPrefix}/`)) {
      return textAnswer(404, CoreErrorTexts.notFound);
    }
    const { scope, route: routePath, prefixed } = splitPath(pathname.slice(pathPrefix.length));
    const routes = ROUTES[routePath] ?? [];
    const first = routes[0];
    if (first === undefined || (prefixed && !first.scoped)) return textAnswer(404, CoreErrorTexts.notFound);
    const rid = call.headers[CoreHeaders.recipeId];
    // A route for the request's recipe first; any other `rid` (or none) is served by the route without one, as a real core does.
    const route =
      routes.find((candidate) => candidate.method === call.method && candidate.recipeId !== undefined && candidate.recipeId === rid) ??
      routes.find((candidate) => candidate.method === call.method && candidate.recipeId === undefined);
    // A feature switched off is a call the core does not have at all: 404, also where the path serves another feature.
    const featureMissing = (candidate: Route): boolean => candidate.feature !== undefined && settings.missingFeatures.has(candidate.feature);
    const forThisRecipe = routes.filter((candidate) => candidate.recipeId === undefined || candidate.recipeId === rid);
    if (route === undefined ? forThisRecipe.every(featureMissing) : featureMissing(route)) return textAnswer(404, CoreErrorTexts.notFound);
    if (route === undefined) return textAnswer(405, CoreErrorTexts.methodNotSupported);
    const tenantKnown = settings.apps.has(scope.appId) && settings.tenants.has(scope.tenantId);
    const tenantMissing = textAnswer(400, tenantNotFoundText(scope));
    // A read names its tenant first; a write's body is checked field by field before the tenant is (as a real core does).
    if (!tenantKnown && route.method === 'GET') return tenantMissing;
    if (route.needsKey && settings.apiKeys.length > 0) {
      const key = presentedKey(call.headers);
      if (key === undefined || !settings.apiKeys.includes(key)) return textAnswer(401, CoreErrorTexts.invalidApiKey);
    }
    let body: Record<string, unknown> = {};
    if (route.method !== 'GET') {
      if (!isContractContentType(call.headers[CoreHeaders.contentType])) {
        return textAnswer(400, 'Content-Type must be application/json; charset=utf-8 (the core double is strict about it)');
      }
      body = parseObjectBody(call.rawBody);
    }
    const refuse = (): never => {
      throw new AnswerWith(tenantMissing);
    };
    // In an unknown tenant a write ends at its first use of the store, or where its handler asks for the tenant.
    const store = tenantKnown ? settings.store : new Proxy(settings.store, { get: refuse });
    const requireTenant = tenantKnown ? () => undefined : refuse;
    return await route.handler({
      scope,
      body,
      query: url.searchParams,
      store,
      requireTenant,
      signerKey: settings.signerKey,
      scryptAlgorithmName: settings.scryptAlgorithmName,
      userShape: settings.userShape,
    });
  } catch (error) {
    if (error instanceof AnswerWith) return error.answer;
    return textAnswer(500, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
}
