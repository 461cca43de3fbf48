import type { JWTPayload } from 'jose';
import { OldSystemSettingsProblem, type OldSystemSettings } from '../old-system/old-system-settings.js';
import type { KeysLocation } from './issuer-keys.js';
import type { TokenIssuerKind, TokenRefusalCode } from './token-answer.js';

/** Google's published keys for Firebase ID tokens, as a JWKS (the same keys as its x509 certificate list). */
export const FIREBASE_KEYS_URL = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';
/** How far clocks may differ, when the settings do not say. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

/** What a checked token says of its user: the old id, and the email claims where it has them. */
export interface TokenUser {
  oldId: string;
  email?: string;
  emailVerified?: boolean;
}

/**
 * One old system as an issuer of tokens: who signs (`iss`), with which keys and algorithms, for whom (`aud`, checked by
 * jose where the issuer puts it there), and how its claims name the user. `readUser` sees only a payload whose
 * signature, issuer, audience and times were checked.
 */
export interface TokenIssuer {
  kind: TokenIssuerKind;
  issuer: string;
  keys: KeysLocation;
  algorithms: string[];
  audiences?: string[];
  clockSkewSeconds: number;
  timeoutMs: number;
  readUser(payload: JWTPayload, nowSeconds: number): TokenUser | TokenRefusalCode;
}

const unset = (sentence: string): OldSystemSettingsProblem => new OldSystemSettingsProblem('oldSystemTokensUnset', sentence);

/**
 * The issuer the `--verify-with` settings describe, or what they lack for it: Firebase needs `projectId`, Cognito
 * `userPoolId`, OpenID `issuer`; an old backend asked over HTTP issues no token this can check.
 */
export function tokenIssuerOf(settings: OldSystemSettings): TokenIssuer | OldSystemSettingsProblem {
  const clockSkewSeconds = 'tokenClockSkewSeconds' in settings ? (settings.tokenClockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS) : DEFAULT_CLOCK_SKEW_SECONDS;
  switch (settings.kind) {
    case 'firebase': {
      if (settings.projectId === undefined) return unset('checking Firebase ID tokens needs projectId, the Firebase project id');
      const { projectId } = settings;
      return {
        kind: 'firebase',
        issuer: `https://securetoken.google.com/${projectId}`,
        keys: { keySet: new URL(settings.tokenKeysUrl ?? FIREBASE_KEYS_URL) },
        algorithms: ['RS256'],
        audiences: [projectId],
        clockSkewSeconds,
        timeoutMs: settings.timeoutMs,
        readUser: (payload, nowSeconds) => firebaseUser(payload, nowSeconds, clockSkewSeconds),
      };
    }
    case 'cognito': {
      if (settings.userPoolId === undefined) return unset('checking Cognito tokens needs userPoolId, the user pool id (e.g. eu-west-1_AbCdEf123)');
      const issuer = (settings.issuer ?? `https://cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`).replace(/\/+$/, '');
      const clientIds = settings.tokenClientIds ?? [settings.clientId];
      const oldIdClaim = settings.oldIdClaim ?? 'sub';
      return {
        kind: 'cognito',
        issuer,
        keys: { keySet: new URL(`${issuer}/.well-known/jwks.json`) },
        algorithms: ['RS256'],
        clockSkewSeconds,
        timeoutMs: settings.timeoutMs,
        readUser: (payload) => cognitoUser(payload, clientIds, oldIdClaim),
      };
    }
    case 'openid': {
      if (settings.issuer === undefined) return unset("checking OpenID tokens needs issuer, the provider's issuer as its tokens' iss write it");
      const { issuer } = settings;
      const keys: KeysLocation =
        settings.tokenKeysUrl === undefined
          ? { discovery: new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`), issuer }
          : { keySet: new URL(settings.tokenKeysUrl) };
      return {
        kind: 'openid',
        issuer,
        keys,
        algorithms: settings.tokenAlgorithms ?? ['RS256'],
        audiences: settings.tokenAudiences ?? [settings.clientId],
        clockSkewSeconds,
        timeoutMs: settings.timeoutMs,
        readUser: (payload) => userWithSub(payload, 255),
      };
    }
    default:
      return unset(`an old system of kind ${settings.kind} issues no token core-migrate can check: tokens are checked for firebase, cognito and openid`);
  }
}

/** The user's old id in `sub` (at most `maxLength` characters), and the email claims. */
function userWithSub(payload: JWTPayload, maxLength: number): TokenUser | TokenRefusalCode {
  const { sub } = payload;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > maxLength) return 'tokenMalformed';
  return { oldId: sub, ...emailOf(payload) };
}

/**
 * Firebase's rules for an ID token beyond the signature, issuer, audience and times (its "verify ID tokens using a
 * third-party JWT library"): `sub` the uid, 1 to 128 characters, and `auth_time` in the past. `user_id`, which the
 * token also carries, must be the same uid.
 */
function firebaseUser(payload: JWTPayload, nowSeconds: number, skewSeconds: number): TokenUser | TokenRefusalCode {
  const user = userWithSub(payload, 128);
  if (typeof user === 'string') return user;
  const { auth_time: authTime, user_id: userId } = payload;
  if (userId !== undefined && userId !== user.oldId) return 'tokenMalformed';
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) return 'tokenMalformed';
  if (authTime > nowSeconds + skewSeconds) return 'tokenNotYetValid';
  return user;
}

/**
 * AWS's rules for a Cognito token: an ID token (`token_use: id`) names its app client in `aud`, an access token
 * (`token_use: access`) in `client_id`, and no other token is one. The old id is `sub`, or the username (the ID token's
 * `cognito:username`, the access token's `username`) when the export was keyed by it.
 */
function cognitoUser(payload: JWTPayload, clientIds: readonly string[], oldIdClaim: 'sub' | 'username'): TokenUser | TokenRefusalCode {
  const use = payload['token_use'];
  if (use !== 'id' && use !== 'access') return 'tokenUseRefused';
  const audiences = use === 'id' ? (Array.isArray(payload.aud) ? payload.aud : [payload.aud]) : [payload['client_id']];
  if (!audiences.some((audience) => typeof audience === 'string' && clientIds.includes(audience))) return 'audienceWrong';
  const oldId = oldIdClaim === 'sub' ? payload.sub : payload[use === 'id' ? 'cognito:username' : 'username'];
  if (typeof oldId !== 'string' || oldId.length === 0 || oldId.length > 255) return 'tokenMalformed';
  return { oldId, ...emailOf(payload) };
}

/** `email` and `email_verified` where the token has them (Cognito's ID tokens may write the latter as "true"). */
function emailOf(payload: JWTPayload): Pick<TokenUser, 'email' | 'emailVerified'> {
  const { email, email_verified: verified } = payload;
  const emailVerified = typeof verified === 'boolean' ? verified : verified === 'true' ? true : verified === 'false' ? false : undefined;
  return {
    ...(typeof email === 'string' && email !== '' && { email }),
    ...(emailVerified !== undefined && { emailVerified }),
  };
}
