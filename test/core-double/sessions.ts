import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_TENANT_ID } from '../../core-client/src/contract/names.js';
import { isJsonObject } from './answers.js';
import { SigningKeys, TokenRefused } from './signing-keys.js';
import type { Scope } from './store.js';

/*
 * The session recipe as a real core 10.0.7 answered the official Node SDK (../shared/spec/core-transcripts/
 * sdk-flows.json, flow 6): a session is a row (its handle, user, payloads, the hash of its current refresh token and
 * the refresh token's expiry); an access token is a JWT signed with the core's keys (signing-keys.ts) that the SDK
 * verifies on its own; a refresh token is the session's handle and user, encrypted, used once. Refreshing gives a
 * child refresh token and an access token that names its parent (`parentRefreshTokenHash1`); the child becomes the
 * session's current token when it is first used, or when that access token is verified against the database, which
 * then answers a new access token without the parent. A refresh token that is neither the current one nor its child is
 * token theft. The answers' forms and sentences are the recording's; the refusals it does not show were read off the
 * core's source, and are marked so.
 */

const ACCESS_TOKEN_LIFETIME_MS = 3_600_000;
/** `refresh_token_validity`'s default, 144,000 minutes. */
const REFRESH_TOKEN_LIFETIME_MS = 100 * 24 * 3_600_000;
/** The claims a core writes itself; a payload that sets one is refused (`The user payload contains protected field`). */
export const PROTECTED_CLAIMS = ['sub', 'exp', 'iat', 'sessionHandle', 'refreshTokenHash1', 'parentRefreshTokenHash1', 'antiCsrfToken', 'tId', 'rsub'];
/** Not recorded: a real core's message for an unreadable refresh token depends on what is wrong with it. */
const UNREADABLE_REFRESH_TOKEN = 'io.supertokens.exceptions.UnauthorisedException: Invalid refresh token';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface TokenInfo {
  token: string;
  expiry: number;
  createdTime: number;
}

interface StoredSession extends Scope {
  handle: string;
  /** As every answer names the user: the external id once mapped. */
  userId: string;
  recipeUserId: string;
  userDataInJWT: Record<string, unknown>;
  userDataInDatabase: Record<string, unknown>;
  refreshTokenHash2: string;
  expiry: number;
  timeCreated: number;
  useStaticKey: boolean;
}

/** What an access token says of its session, read back after its signature was checked. */
interface AccessTokenClaims {
  sessionHandle: string;
  userId: string;
  recipeUserId: string;
  tenantId: string;
  refreshTokenHash1: string;
  parentRefreshTokenHash1: string | null;
  antiCsrfToken: string | null;
  expiry: number;
  userData: Record<string, unknown>;
}

interface RefreshTokenPayload {
  sessionHandle: string;
  userId: string;
  parentRefreshTokenHash1?: string;
  nonce: string;
  antiCsrfToken?: string;
  tenantId?: string;
}

export type SessionAnswer = Record<string, unknown>;

const refused = (status: 'UNAUTHORISED' | 'TRY_REFRESH_TOKEN', message: string): SessionAnswer => ({ status, message });

function readClaims(payload: Record<string, unknown>): AccessTokenClaims {
  for (const claim of PROTECTED_CLAIMS) {
    if (!(claim in payload)) throw new TokenRefused(`Access token does not contain all the information. Maybe the structure has changed? ${claim}`);
  }
  const text = (name: string): string => {
    const value = payload[name];
    if (typeof value !== 'string') throw new TokenRefused(`Access token does not contain all the information. Maybe the structure has changed? ${name}`);
    return value;
  };
  const nullableText = (name: string): string | null => (payload[name] === null ? null : text(name));
  const exp = payload['exp'];
  if (typeof exp !== 'number') throw new TokenRefused('Access token does not contain all the information. Maybe the structure has changed? exp');
  const userData = Object.fromEntries(Object.entries(payload).filter(([name]) => !PROTECTED_CLAIMS.includes(name)));
  return {
    sessionHandle: text('sessionHandle'),
    userId: text('sub'),
    recipeUserId: text('rsub'),
    tenantId: text('tId'),
    refreshTokenHash1: text('refreshTokenHash1'),
    parentRefreshTokenHash1: nullableText('parentRefreshTokenHash1'),
    antiCsrfToken: nullableText('antiCsrfToken'),
    expiry: exp * 1000,
    userData,
  };
}

/** The sessions of one store (shared by the doubles that share it), and the keys their tokens are signed with. */
export class SessionStore {
  readonly keys = new SigningKeys();
  readonly #sessions = new Map<string, StoredSession>();
  readonly #refreshTokenKey = randomBytes(32);

  /** `POST /recipe/session`: a session for any user id (the core does not check it names a user). */
  async create(
    scope: Scope,
    user: { userId: string; recipeUserId: string },
    userDataInJWT: Record<string, unknown>,
    userDataInDatabase: Record<string, unknown>,
    options: { enableAntiCsrf: boolean; useStaticKey: boolean },
    now = Date.now(),
  ): Promise<SessionAnswer> {
    const tenantSuffix = scope.tenantId === DEFAULT_TENANT_ID ? '' : `_${scope.tenantId}`;
    const antiCsrfToken = options.enableAntiCsrf ? randomUUID() : undefined;
    const session: StoredSession = {
      ...scope,
      handle: `${randomUUID()}${tenantSuffix}`,
      ...user,
      userDataInJWT,
      userDataInDatabase,
      refreshTokenHash2: '',
      expiry: 0,
      timeCreated: now,
      useStaticKey: options.useStaticKey,
    };
    const refreshToken = this.#newRefreshToken(session, undefined, antiCsrfToken, now);
    const accessToken = await this.#newAccessToken(session, sha256(refreshToken.token), null, userDataInJWT, antiCsrfToken ?? null, now);
    this.#sessions.set(session.handle, { ...session, refreshTokenHash2: sha256(sha256(refreshToken.token)), expiry: refreshToken.expiry });
    return { session: summary(session), accessToken, refreshToken, ...(antiCsrfToken === undefined ? {} : { antiCsrfToken }), status: 'OK' };
  }

  /** `POST /recipe/session/verify` */
  async verify(
    accessToken: string,
    check: { antiCsrfToken: string | undefined; doAntiCsrfCheck: boolean; enableAntiCsrf: boolean; checkDatabase: boolean },
    now = Date.now(),
  ): Promise<SessionAnswer> {
    let claims: AccessTokenClaims;
    try {
      claims = readClaims((await this.keys.verify(accessToken)).payload);
      if (claims.expiry < now) throw new TokenRefused('Access token expired');
      const checksAntiCsrf = check.doAntiCsrfCheck && check.enableAntiCsrf;
      if (checksAntiCsrf && claims.antiCsrfToken === null) {
        throw new TokenRefused('Access token does not contain all the information. Maybe the structure has changed?');
      }
      if (checksAntiCsrf && check.antiCsrfToken !== claims.antiCsrfToken) throw new TokenRefused('anti-csrf check failed');
    } catch (error) {
      if (error instanceof TokenRefused) return refused('TRY_REFRESH_TOKEN', error.message);
      throw error;
    }
    const stored = check.checkDatabase ? this.#sessions.get(claims.sessionHandle) : undefined;
    if (check.checkDatabase && stored === undefined) return refused('UNAUTHORISED', 'Either the session has ended or has been blacklisted');
    const payloadChanged = stored !== undefined && !isDeepStrictEqual(claims.userData, stored.userDataInJWT);
    const fromToken = {
      handle: claims.sessionHandle,
      userId: claims.userId,
      recipeUserId: claims.recipeUserId,
      userDataInJWT: claims.userData,
      tenantId: claims.tenantId,
    };
    if (claims.parentRefreshTokenHash1 === null && !payloadChanged) return { session: fromToken, status: 'OK' };
    const session = this.#sessions.get(claims.sessionHandle);
    if (session === undefined) return refused('UNAUTHORISED', 'Session missing in db');
    const promote = claims.parentRefreshTokenHash1 !== null && session.refreshTokenHash2 === sha256(claims.parentRefreshTokenHash1);
    if (!promote && session.refreshTokenHash2 !== sha256(claims.refreshTokenHash1) && !payloadChanged) return { session: fromToken, status: 'OK' };
    if (promote) {
      // The refresh token this access token came with is the session's current one from now on.
      session.refreshTokenHash2 = sha256(claims.refreshTokenHash1);
      session.expiry = now + REFRESH_TOKEN_LIFETIME_MS;
    }
    const newToken = await this.#newAccessToken(
      { ...session, handle: claims.sessionHandle, userId: claims.userId, recipeUserId: claims.recipeUserId, tenantId: claims.tenantId },
      claims.refreshTokenHash1,
      null,
      session.userDataInJWT,
      claims.antiCsrfToken,
      now,
    );
    return { session: { ...fromToken, userDataInJWT: session.userDataInJWT }, accessToken: newToken, status: 'OK' };
  }

  /** `POST /recipe/session/refresh`; `useStaticKey` undefined keeps the session's choice. */
  async refresh(
    refreshToken: string,
    options: { antiCsrfToken: string | undefined; enableAntiCsrf: boolean; useStaticKey: boolean | undefined },
    now = Date.now(),
  ): Promise<SessionAnswer> {
    const payload = this.#readRefreshToken(refreshToken);
    if (payload === undefined) return refused('UNAUTHORISED', UNREADABLE_REFRESH_TOKEN);
    if (options.enableAntiCsrf && payload.antiCsrfToken !== undefined && payload.antiCsrfToken !== options.antiCsrfToken) {
      return refused('UNAUTHORISED', 'Anti CSRF token missing, or not matching');
    }
    const session = this.#sessions.get(payload.sessionHandle);
    if (session === undefined || session.expiry < now) return refused('UNAUTHORISED', 'Session missing in db or has expired');
    const isCurrent = session.refreshTokenHash2 === sha256(sha256(refreshToken));
    const isChildOfCurrent = payload.parentRefreshTokenHash1 !== undefined && session.refreshTokenHash2 === sha256(payload.parentRefreshTokenHash1);
    if (!isCurrent && !isChildOfCurrent) {
      return { status: 'TOKEN_THEFT_DETECTED', session: { handle: session.handle, userId: session.userId, recipeUserId: session.recipeUserId } };
    }
    if (isChildOfCurrent) {
      session.refreshTokenHash2 = sha256(sha256(refreshToken));
      session.expiry = now + REFRESH_TOKEN_LIFETIME_MS;
    }
    session.useStaticKey = options.useStaticKey ?? session.useStaticKey;
    // The token given is the session's current one: its child and an access token naming it as the parent.
    const antiCsrfToken = options.enableAntiCsrf ? randomUUID() : undefined;
    const child = this.#newRefreshToken(session, sha256(refreshToken), antiCsrfToken, now);
    const accessToken = await this.#newAccessToken(session, sha256(child.token), sha256(refreshToken), session.userDataInJWT, antiCsrfToken ?? null, now);
    return { session: summary(session), accessToken, refreshToken: child, ...(antiCsrfToken === undefined ? {} : { antiCsrfToken }), status: 'OK' };
  }

  /** `GET /recipe/session?sessionHandle=` */
  information(handle: string, now = Date.now()): SessionAnswer {
    const session = this.#sessions.get(handle);
    if (session === undefined || session.expiry <= now) return refused('UNAUTHORISED', 'Session does not exist.');
    return {
      sessionHandle: session.handle,
      userId: session.userId,
      recipeUserId: session.recipeUserId,
      userDataInDatabase: session.userDataInDatabase,
      expiry: session.expiry,
      userDataInJWT: session.userDataInJWT,
      timeCreated: session.timeCreated,
      status: 'OK',
      tenantId: session.tenantId,
    };
  }

  /** `POST /recipe/session/remove {sessionHandles}`: the handles that were there, in the order given. */
  revokeHandles(handles: readonly string[]): string[] {
    return handles.filter((handle) => this.#sessions.delete(handle));
  }

  /** `POST /recipe/session/remove {userId}`: the user's sessions (by the id they were made for) in the app, or in one tenant. */
  revokeUser(userId: string, appId: string, tenantId: string | undefined, now = Date.now()): string[] {
    const handles = [...this.#sessions.values()]
      .filter((session) => session.recipeUserId === userId && session.appId === appId && (tenantId === undefined || session.tenantId === tenantId))
      .filter((session) => session.expiry >= now)
      .map((session) => session.handle);
    return this.revokeHandles(handles);
  }

  /** Whether a session was made for this id (a user-id mapping is not removed while one is). */
  isUsedBy(userId: string): boolean {
    return [...this.#sessions.values()].some((session) => session.recipeUserId === userId);
  }

  /** Every session of a user that is removed. */
  forget(userIds: readonly string[]): void {
    for (const [handle, session] of this.#sessions) if (userIds.includes(session.recipeUserId)) this.#sessions.delete(handle);
  }

  clear(): void {
    this.#sessions.clear();
  }

  /** A real core's access token: its claims in the core's order, then the payload the application gave. */
  async #newAccessToken(
    session: Pick<StoredSession, 'handle' | 'userId' | 'recipeUserId' | 'tenantId' | 'useStaticKey'>,
    refreshTokenHash1: string,
    parentRefreshTokenHash1: string | null,
    userData: Record<string, unknown>,
    antiCsrfToken: string | null,
    now: number,
  ): Promise<TokenInfo> {
    const expires = now + ACCESS_TOKEN_LIFETIME_MS;
    const claims = {
      iat: Math.floor(now / 1000),
      exp: Math.floor(expires / 1000),
      sub: session.userId,
      tId: session.tenantId,
      rsub: session.recipeUserId,
      sessionHandle: session.handle,
      refreshTokenHash1,
      parentRefreshTokenHash1,
      antiCsrfToken,
      ...userData,
    };
    // The answer's times are whole seconds, as the token's.
    return { token: await this.keys.sign(claims, session.useStaticKey), expiry: expires - (expires % 1000), createdTime: now - (now % 1000) };
  }

  /** `<the payload, AES-GCM encrypted, base64>.<nonce>.V2`, the form a real core gives (the double's own key). */
  #newRefreshToken(session: StoredSession, parentRefreshTokenHash1: string | undefined, antiCsrfToken: string | undefined, now: number): TokenInfo {
    const nonce = sha256(randomUUID());
    const payload: RefreshTokenPayload = {
      sessionHandle: session.handle,
      userId: session.recipeUserId,
      ...(parentRefreshTokenHash1 === undefined ? {} : { parentRefreshTokenHash1 }),
      nonce,
      ...(antiCsrfToken === undefined ? {} : { antiCsrfToken }),
      ...(session.tenantId === DEFAULT_TENANT_ID ? {} : { tenantId: session.tenantId }),
    };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#refreshTokenKey, iv);
    const encrypted = Buffer.concat([iv, cipher.update(JSON.stringify(payload), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return { token: `${encrypted.toString('base64')}.${nonce}.V2`, expiry: now + REFRESH_TOKEN_LIFETIME_MS, createdTime: now };
  }

  #readRefreshToken(token: string): RefreshTokenPayload | undefined {
    const [sealed, nonce, type, ...rest] = token.split('.');
    if (sealed === undefined || nonce === undefined || type !== 'V2' || rest.length > 0) return undefined;
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < 12 + 16) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#refreshTokenKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const text = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
      const payload: unknown = JSON.parse(text);
      if (!isJsonObject(payload) || payload['nonce'] !== nonce) return undefined;
      const { sessionHandle, userId, parentRefreshTokenHash1, antiCsrfToken } = payload;
      if (typeof sessionHandle !== 'string' || typeof userId !== 'string') return undefined;
      return {
        sessionHandle,
        userId,
        nonce,
        ...(typeof parentRefreshTokenHash1 === 'string' ? { parentRefreshTokenHash1 } : {}),
        ...(typeof antiCsrfToken === 'string' ? { antiCsrfToken } : {}),
      };
    } catch {
      return undefined;
    }
  }
}

function summary(session: StoredSession): Record<string, unknown> {
  return {
    handle: session.handle,
    userId: session.userId,
    recipeUserId: session.recipeUserId,
    userDataInJWT: session.userDataInJWT,
    tenantId: session.tenantId,
  };
}
