import { randomUUID } from 'node:crypto';
import { CompactSign, type CryptoKey, type JWK, compactVerify, exportJWK, generateKeyPair } from 'jose';
import { isJsonObject } from './answers.js';

/*
 * The keys a core signs access tokens with, and the JWKS it publishes for them (`GET /.well-known/jwks.json`), as a
 * real core 10.0.7 answered (../shared/spec/core-transcripts/sdk-flows.json): two RS256 keys of 2048 bits, the
 * dynamic one first (kid `d-<its creation time in ms>`, the one new sessions are signed with), then the static one
 * (kid `s-<uuid>`, for sessions made with `useDynamicSigningKey: false`). The keys are made at the first call that
 * needs them, not at start: most tests of the double never open a session, and an RSA key takes tens of milliseconds.
 * One set serves every app of the double (a real core keeps one per app).
 */

const ALGORITHM = 'RS256';
const MODULUS_BITS = 2048;
/** `access_token_dynamic_signing_key_update_interval`'s default: 168 hours. */
const DYNAMIC_KEY_LIFETIME_MS = 168 * 3_600_000;
/** A real core publishes the next key this long before it signs with it, and tells verifiers to fetch again by then. */
const DYNAMIC_KEY_OVERLAP_MS = 60_000;
/** The access token's header says which form of payload it carries: 5 for the CDI versions from 4.0 on. */
export const ACCESS_TOKEN_VERSION = '5';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

interface KeySet {
  dynamic: SigningKey;
  static: SigningKey;
  dynamicCreatedAt: number;
}

async function makeKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { modulusLength: MODULUS_BITS, extractable: true });
  const { n, e } = await exportJWK(publicKey);
  if (n === undefined || e === undefined) throw new Error('jose exported an RSA public key without its modulus or exponent');
  // A real core's key order: kty, kid, n, e, alg, use.
  return { kid, privateKey, publicKey, jwk: { kty: 'RSA', kid, n, e, alg: ALGORITHM, use: 'sig' } };
}

/** Why a token was not accepted, in a real core's words (its `TRY_REFRESH_TOKEN` message). */
export class TokenRefused extends Error {}

export class SigningKeys {
  #keys: Promise<KeySet> | undefined;

  #keySet(): Promise<KeySet> {
    if (this.#keys === undefined) {
      const createdAt = Date.now();
      this.#keys = Promise.all([makeKey(`d-${createdAt}`), makeKey(`s-${randomUUID()}`)]).then(([dynamic, staticKey]) => ({
        dynamic,
        static: staticKey,
        dynamicCreatedAt: createdAt,
      }));
    }
    return this.#keys;
  }

  /** The public keys, dynamic first. */
  async jwks(): Promise<JWK[]> {
    const keys = await this.#keySet();
    return [keys.dynamic.jwk, keys.static.jwk];
  }

  /** The JWKS answer's `max-age`: until the next dynamic key is published (at least 1 s), as a real core counts it. */
  async cacheSeconds(now = Date.now()): Promise<number> {
    const { dynamicCreatedAt } = await this.#keySet();
    return Math.max(Math.trunc((dynamicCreatedAt + DYNAMIC_KEY_LIFETIME_MS - DYNAMIC_KEY_OVERLAP_MS - now) / 1000), 1);
  }

  /** A JWT with a real core's header (`kid`, `typ`, `version`, `alg`, in that order) over the payload as given. */
  async sign(payload: Record<string, unknown>, useStaticKey: boolean): Promise<string> {
    const keys = await this.#keySet();
    const key = useStaticKey ? keys.static : keys.dynamic;
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ kid: key.kid, typ: 'JWT', version: ACCESS_TOKEN_VERSION, alg: ALGORITHM })
      .sign(key.privateKey);
  }

  /**
   * The payload of a token signed with one of these keys. A token of another form, of an unknown key or with a
   * signature that does not verify throws TokenRefused with the core's message (read off its source: these
   * refusals are not in the recording).
   */
  async verify(token: string): Promise<{ payload: Record<string, unknown>; kid: string }> {
    const keys = await this.#keySet();
    const [headerPart, ...rest] = token.split('.');
    if (headerPart === undefined || rest.length !== 2) throw new TokenRefused(jwtProblem('Invalid JWT'));
    const header = parseJsonObject(Buffer.from(headerPart, 'base64url').toString('utf8'));
    if (header?.['typ'] !== 'JWT') throw new TokenRefused(jwtProblem('JWT header mismatch - typ'));
    if (header['alg'] !== ALGORITHM) throw new TokenRefused(jwtProblem('JWT header mismatch - alg'));
    const kid = header['kid'];
    if (typeof kid !== 'string') throw new TokenRefused(jwtProblem('JWT header missing - kid'));
    const key = [keys.dynamic, keys.static].find((candidate) => candidate.kid === kid);
    if (key === undefined) throw new TokenRefused('io.supertokens.exceptions.TryRefreshTokenException: Key not found');
    let payloadBytes: Uint8Array;
    try {
      payloadBytes = (await compactVerify(token, key.publicKey)).payload;
    } catch {
      throw new TokenRefused(jwtProblem('JWT verification failed'));
    }
    const payload = parseJsonObject(new TextDecoder().decode(payloadBytes));
    if (payload === undefined) throw new TokenRefused(jwtProblem('Invalid JWT'));
    return { payload, kid };
  }
}

const jwtProblem = (text: string): string => `io.supertokens.session.jwt.JWT$JWTException: ${text}`;

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
