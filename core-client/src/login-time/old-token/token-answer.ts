import { z } from 'zod';

/** The old systems whose tokens can be checked: those that sign them with keys they publish. */
export const TokenIssuerKindSchema = z.enum(['firebase', 'cognito', 'openid']);
export type TokenIssuerKind = z.infer<typeof TokenIssuerKindSchema>;

/**
 * Why a token is refused, each a stable code (what a backend and its tests compare). A refused token proves nothing:
 * the backend answers it as it answers a missing session (401), whatever the code.
 */
export const TokenRefusalCodeSchema = z.enum([
  /** Not a signed JWT of the issuer's shape: too long, not three base64url parts, not JSON, a claim missing or of the wrong type. */
  'tokenMalformed',
  /** Signed with an algorithm the issuer does not use: `none` (unsigned, as the Firebase Auth emulator issues), HS256 and any shared-secret one, or another public-key one. */
  'algorithmRefused',
  /** No key the issuer publishes matches the token's `kid`, even after its keys were fetched again. */
  'keyUnknown',
  /** The signature does not match the issuer's key: forged, or altered after signing. */
  'signatureInvalid',
  /** `exp` has passed (beyond the allowed clock skew), or the token was issued more than a day ago. */
  'tokenExpired',
  /** `nbf`, `iat` or `auth_time` lies in the future beyond the allowed clock skew. */
  'tokenNotYetValid',
  /** `iss` is not the issuer set for the old system. */
  'issuerWrong',
  /** Issued for another application: `aud` (or a Cognito access token's `client_id`) is none of those accepted. */
  'audienceWrong',
  /** A Cognito token that is neither an ID token nor an access token (`token_use`). */
  'tokenUseRefused',
]);
export type TokenRefusalCode = z.infer<typeof TokenRefusalCodeSchema>;

/**
 * Why nothing could be decided: the issuer's keys (or its discovery document) could not be had. The token is neither
 * accepted nor refused; the backend answers "try later" (503).
 */
export const TokenKeysReasonSchema = z.enum([
  /** No answer in time, no connection, or an answer other than 200. */
  'keysUnreachable',
  /** An answer that is no key set: too large, not JSON, not a JWKS with a key, or no discovery document, one of another issuer, or one whose keys URL is refused. */
  'keysUnusable',
]);
export type TokenKeysReason = z.infer<typeof TokenKeysReasonSchema>;

/** What went wrong fetching the keys, for the operator (a log line, `/health`): never a URL's query, never a key. */
export const TokenKeysFailureSchema = z.enum([
  'timedOut',
  'connectionFailed',
  'statusNotOk',
  'tooLarge',
  'notJson',
  'notKeySet',
  'notDiscoveryDocument',
  'discoveryIssuerDiffers',
  'discoveryKeysUrlRefused',
]);
export type TokenKeysFailure = z.infer<typeof TokenKeysFailureSchema>;

/**
 * What checking one token of the old system answers (`OldTokenVerifier.verify`). Never the token, never a claim
 * beyond these: a verified token gives the user's old id (the id the export keyed them by, which the waiting store
 * and the core's user-id mapping know them by) and its email claim where it has one.
 */
export const OldTokenAnswerSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('verified'),
    kind: TokenIssuerKindSchema,
    oldId: z.string().min(1),
    /** The token's `email` claim, as the issuer wrote it; informative only: a user is found by `oldId`, never by email. */
    email: z.string().optional(),
    /** The token's `email_verified` claim, where it has one. */
    emailVerified: z.boolean().optional(),
    /** When the token expires (its `exp`), ISO 8601: a session opened from it need not outlive it. */
    expiresAt: z.iso.datetime(),
  }),
  z.object({ outcome: z.literal('refused'), code: TokenRefusalCodeSchema }),
  z.object({
    outcome: z.literal('tryLater'),
    reason: TokenKeysReasonSchema,
    failure: TokenKeysFailureSchema,
    retryAfterSeconds: z.number().int().positive(),
  }),
]);
export type OldTokenAnswer = z.infer<typeof OldTokenAnswerSchema>;
export type VerifiedOldToken = Extract<OldTokenAnswer, { outcome: 'verified' }>;
export type TokenKeysUnavailable = Extract<OldTokenAnswer, { outcome: 'tryLater' }>;

/** A failure's reason: the keys could not be reached, or what came back cannot be used. */
export function keysReasonOf(failure: TokenKeysFailure): TokenKeysReason {
  return failure === 'timedOut' || failure === 'connectionFailed' || failure === 'statusNotOk' ? 'keysUnreachable' : 'keysUnusable';
}
