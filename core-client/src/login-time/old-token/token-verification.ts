import { errors, jwtVerify } from 'jose';
import type { Secret } from '../../secret.js';
import { IssuerKeys, KeysUnavailable } from './issuer-keys.js';
import { KeyDocuments } from './key-document.js';
import type { OldTokenVerifier } from './old-token-verifier.js';
import { keysReasonOf, type OldTokenAnswer, type TokenRefusalCode } from './token-answer.js';
import type { TokenIssuer } from './token-issuer.js';

/** The longest token read: a Cognito ID token with many groups is a few kilobytes; past this it is not read at all. */
export const MAX_TOKEN_CHARACTERS = 16 * 1024;
/** A token issued longer ago than this is refused whatever its `exp` (session tokens live an hour, a day at most). */
export const MAX_TOKEN_AGE_SECONDS = 24 * 3600;
/** Three base64url parts; the third empty only for an unsigned token, which jose then refuses by its algorithm. */
const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]*$/;

const refused = (code: TokenRefusalCode): OldTokenAnswer => ({ outcome: 'refused', code });

/** The verifier of one issuer's tokens: its keys fetched through a client of its own, closed with it. */
export function tokenVerifierFor(issuer: TokenIssuer, now: () => number): OldTokenVerifier {
  const documents = new KeyDocuments(issuer.timeoutMs);
  const keys = new IssuerKeys(issuer.keys, documents, now);
  return {
    kind: issuer.kind,
    issuer: issuer.issuer,
    verify: (token) => verifyToken(token, issuer, keys, now),
    keysReady: async () => {
      const ready = await keys.ready();
      if (ready.ok) return { outcome: 'ready' };
      return { outcome: 'tryLater', reason: keysReasonOf(ready.failure), failure: ready.failure, retryAfterSeconds: ready.retryAfterSeconds };
    },
    close: () => documents.close(),
  };
}

async function verifyToken(token: Secret, issuer: TokenIssuer, keys: IssuerKeys, now: () => number): Promise<OldTokenAnswer> {
  const compact = token.reveal();
  if (compact.length > MAX_TOKEN_CHARACTERS || !COMPACT_JWS.test(compact)) return refused('tokenMalformed');
  const currentDate = new Date(now());
  let payload;
  try {
    ({ payload } = await jwtVerify(compact, keys.resolve, {
      issuer: issuer.issuer,
      ...(issuer.audiences !== undefined && { audience: issuer.audiences }),
      algorithms: issuer.algorithms,
      clockTolerance: issuer.clockSkewSeconds,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate,
    }));
  } catch (error) {
    return answerOf(error);
  }
  const user = issuer.readUser(payload, Math.floor(currentDate.getTime() / 1000));
  if (typeof user === 'string') return refused(user);
  const expiresAt = new Date((payload.exp ?? 0) * 1000);
  if (Number.isNaN(expiresAt.getTime())) return refused('tokenMalformed');
  return { outcome: 'verified', kind: issuer.kind, ...user, expiresAt: expiresAt.toISOString() };
}

/**
 * The answer for what jose (or the keys) threw. Errors carry the token's claims (`payload`) and never leave here. An
 * error of no known kind is a refusal too: a token nothing proved is never accepted.
 */
function answerOf(error: unknown): OldTokenAnswer {
  if (error instanceof KeysUnavailable) {
    return { outcome: 'tryLater', reason: keysReasonOf(error.failure), failure: error.failure, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return refused('algorithmRefused');
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused('signatureInvalid');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return refused('keyUnknown');
  if (error instanceof errors.JWTExpired) return refused('tokenExpired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason !== 'check_failed') return refused('tokenMalformed');
    if (error.claim === 'iss') return refused('issuerWrong');
    if (error.claim === 'aud') return refused('audienceWrong');
    if (error.claim === 'nbf' || error.claim === 'iat') return refused('tokenNotYetValid');
  }
  return refused('tokenMalformed');
}
