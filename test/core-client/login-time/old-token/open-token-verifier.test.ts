import { exportSPKI, SignJWT, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import type { OldTokenVerifier } from '../../../../core-client/src/login-time/old-token/old-token-verifier.js';
import { openTokenVerifier } from '../../../../core-client/src/login-time/old-token/open-token-verifier.js';
import { OldTokenAnswerSchema, type OldTokenAnswer, type TokenRefusalCode } from '../../../../core-client/src/login-time/old-token/token-answer.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { makeSigningKey, signToken, startTestIssuer, timesAround, unsignedToken, type SigningKey, type TestIssuer } from '../../../support/token-issuer.js';

// Session migration's token check against issuers of the test's own on 127.0.0.1: an OpenID provider (discovery and
// JWKS) and one that serves Firebase's keys in Google's shape. cognito-local's real tokens, and the Firebase Auth
// emulator's, are checked in old-system-tokens.test.ts; the fetching of keys in issuer-keys.test.ts.
const clock = { ms: Date.now() };
const nowSeconds = (): number => Math.floor(clock.ms / 1000);
const GOOGLE_KEYS_PATH = '/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';
const PROJECT = 'demo-old-app';
const POOL = 'eu-west-1_AbCdEf123';

let provider: TestIssuer;
let google: TestIssuer;
let pool: TestIssuer;
let key: SigningKey;
let otherKey: SigningKey;
const opened: OldTokenVerifier[] = [];

beforeAll(async () => {
  [provider, google, pool, key, otherKey] = await Promise.all([
    startTestIssuer(),
    startTestIssuer({ keysPath: GOOGLE_KEYS_PATH }),
    startTestIssuer({ issuerPath: `/${POOL}`, keysPath: `/${POOL}/.well-known/jwks.json` }),
    makeSigningKey('key-1'),
    makeSigningKey('key-1'),
  ]);
  provider.published = [key];
  google.published = [key];
  pool.published = [key];
  // Google's answer for its securetoken keys says how long to keep them.
  google.cacheControl = 'public, max-age=19845, must-revalidate, no-transform';
});

afterEach(async () => {
  clock.ms = Date.now();
  await Promise.all(opened.splice(0).map((verifier) => verifier.close()));
});

afterAll(async () => {
  await Promise.all([provider?.close(), google?.close(), pool?.close()]);
});

async function open(settings: Record<string, unknown>): Promise<OldTokenVerifier> {
  const verifier = await openTokenVerifier(OldSystemSettingsSchema.parse(settings), { now: () => clock.ms });
  if (!('verify' in verifier)) throw verifier;
  opened.push(verifier);
  return verifier;
}

const openId = (extra: Record<string, unknown> = {}): Promise<OldTokenVerifier> =>
  open({
    kind: 'openid',
    tokenEndpoint: `${provider.issuer}/protocol/openid-connect/token`,
    clientId: 'web-app',
    issuer: provider.issuer,
    timeoutMs: 2000,
    ...extra,
  });

const firebase = (extra: Record<string, unknown> = {}): Promise<OldTokenVerifier> =>
  open({ kind: 'firebase', apiKey: { env: 'FIREBASE_WEB_API_KEY' }, projectId: PROJECT, tokenKeysUrl: google.keysUrl, timeoutMs: 2000, ...extra });

const userClaims = (extra: Claims = {}): JWTPayload => ({
  iss: provider.issuer,
  aud: 'web-app',
  sub: 'legacy-7',
  email: 'ann@example.com',
  email_verified: true,
  ...timesAround(nowSeconds()),
  ...extra,
});

/** A Firebase ID token's claims, as the service (and its emulator) writes them. */
const firebaseClaims = (extra: Claims = {}): JWTPayload => ({
  iss: `https://securetoken.google.com/${PROJECT}`,
  aud: PROJECT,
  sub: 'uid-Ann-0001',
  user_id: 'uid-Ann-0001',
  auth_time: nowSeconds() - 60,
  email: 'ann@example.com',
  email_verified: false,
  firebase: { identities: { email: ['ann@example.com'] }, sign_in_provider: 'password' },
  ...timesAround(nowSeconds()),
  ...extra,
});

/** Verifies, and holds the answer to its schema and to never holding the token. */
async function verify(verifier: OldTokenVerifier, token: string): Promise<OldTokenAnswer> {
  const answer = await verifier.verify(new Secret(token));
  expect(OldTokenAnswerSchema.parse(answer)).toEqual(answer);
  const [, payload = '', signature = ''] = token.split('.');
  for (const part of [token, payload, signature].filter((text) => text.length > 8)) expect(JSON.stringify(answer)).not.toContain(part);
  return answer;
}

/** Claims to add or change; `undefined` leaves a claim out (JSON has no undefined). */
type Claims = Record<string, unknown>;

const refused = (code: TokenRefusalCode): OldTokenAnswer => ({ outcome: 'refused', code });

describe('an OpenID provider of the test’s own (discovery, JWKS)', () => {
  it('verifies a token signed with a key it publishes: the old id, the email claims and when it expires', async () => {
    const verifier = await openId();
    const claims = userClaims();
    expect(await verify(verifier, await signToken(key, claims))).toEqual({
      outcome: 'verified',
      kind: 'openid',
      oldId: 'legacy-7',
      email: 'ann@example.com',
      emailVerified: true,
      expiresAt: new Date((claims.exp ?? 0) * 1000).toISOString(),
    });
    expect(provider.requests.slice(0, 2)).toEqual(['/realms/app/.well-known/openid-configuration', '/realms/app/protocol/openid-connect/certs']);
    // An audience among several, and audiences set for the token check apart from the client that checks passwords.
    expect(await verify(verifier, await signToken(key, userClaims({ aud: ['https://api.example.com', 'web-app'], email: undefined })))).toMatchObject({
      outcome: 'verified',
      oldId: 'legacy-7',
    });
    const spa = await openId({ tokenAudiences: ['spa-client'] });
    expect(await verify(spa, await signToken(key, userClaims({ aud: 'spa-client' })))).toMatchObject({ outcome: 'verified' });
    expect(await verify(spa, await signToken(key, userClaims()))).toEqual(refused('audienceWrong'));
  });

  it('refuses each kind of bad token with its own code, allowing only the clock skew set', async () => {
    const verifier = await openId();
    const now = nowSeconds();
    const cases: [string, Promise<string> | string, TokenRefusalCode][] = [
      ['expired beyond the skew', signToken(key, userClaims({ iat: now - 3600, exp: now - 31 })), 'tokenExpired'],
      ['issued more than a day ago', signToken(key, userClaims({ iat: now - 86_500, exp: now + 600 })), 'tokenExpired'],
      ['not before a minute from now', signToken(key, userClaims({ nbf: now + 60 })), 'tokenNotYetValid'],
      ['issued a minute from now', signToken(key, userClaims({ iat: now + 60 })), 'tokenNotYetValid'],
      ['of another issuer', signToken(key, userClaims({ iss: 'https://sso.example.com/realms/app' })), 'issuerWrong'],
      ['for another application', signToken(key, userClaims({ aud: 'another-app' })), 'audienceWrong'],
      ['signed by another key under the published kid', signToken(otherKey, userClaims()), 'signatureInvalid'],
      ['signed by a key the issuer does not publish', signToken(otherKey, userClaims(), { kid: 'key-9' }), 'keyUnknown'],
      ['without a subject', signToken(key, userClaims({ sub: undefined })), 'tokenMalformed'],
      ['with a subject that is no string', signToken(key, userClaims({ sub: 7 })), 'tokenMalformed'],
      ['without an expiry', signToken(key, userClaims({ exp: undefined })), 'tokenMalformed'],
      ['without an issue time', signToken(key, userClaims({ iat: undefined })), 'tokenMalformed'],
      ['without an audience', signToken(key, userClaims({ aud: undefined })), 'tokenMalformed'],
      ['not a token', 'not a token at all', 'tokenMalformed'],
      ['of two parts', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0', 'tokenMalformed'],
      ['whose header is not JSON', 'bm90IGpzb24.eyJzdWIiOiJ4In0.c2ln', 'tokenMalformed'],
      ['longer than 16 KiB', signToken(key, userClaims({ padding: 'x'.repeat(16 * 1024) })), 'tokenMalformed'],
    ];
    for (const [what, token, code] of cases) expect({ what, answer: await verify(verifier, await token) }).toEqual({ what, answer: refused(code) });
    // Within the skew (30 s by default; set here to none) a token just expired is still good.
    const justExpired = await signToken(key, userClaims({ iat: now - 3600, exp: now - 20 }));
    expect(await verify(verifier, justExpired)).toMatchObject({ outcome: 'verified' });
    expect(await verify(await openId({ tokenClockSkewSeconds: 0 }), justExpired)).toEqual(refused('tokenExpired'));
  });

  it('refuses a token altered after signing', async () => {
    const [header, , signature] = (await signToken(key, userClaims())).split('.');
    const [, otherPayload] = (await signToken(key, userClaims({ sub: 'legacy-1-the-admin' }))).split('.');
    expect(await verify(await openId(), `${header}.${otherPayload}.${signature}`)).toEqual(refused('signatureInvalid'));
  });

  it('refuses an unsigned token, one signed with the public key as an HMAC secret, and an algorithm the issuer does not use, asking for no key', async () => {
    const verifier = await openId();
    const asked = provider.keysAsked();
    const publicPem = await exportSPKI(await crypto.subtle.importKey('jwk', key.publicJwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']));
    const hmacWith = (secret: string): Promise<string> =>
      new SignJWT(userClaims()).setProtectedHeader({ alg: 'HS256', kid: 'key-1', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
    for (const token of [
      unsignedToken(userClaims()),
      unsignedToken(userClaims(), { alg: 'None' }),
      unsignedToken(userClaims(), { kid: 'key-1' }),
      await hmacWith(publicPem),
      await hmacWith(JSON.stringify(key.publicJwk)),
    ]) {
      expect(await verify(verifier, token)).toEqual(refused('algorithmRefused'));
    }
    expect(provider.keysAsked()).toBe(asked);
    // An ES256 key the issuer publishes is not used unless the settings name its algorithm.
    const ecKey = await makeSigningKey('ec-1', 'ES256');
    provider.published = [key, ecKey];
    try {
      const ecToken = await signToken(ecKey, userClaims());
      expect(await verify(verifier, ecToken)).toEqual(refused('algorithmRefused'));
      expect(await verify(await openId({ tokenAlgorithms: ['ES256'] }), ecToken)).toMatchObject({ outcome: 'verified', oldId: 'legacy-7' });
      expect(await verify(await openId({ tokenAlgorithms: ['ES256'] }), await signToken(key, userClaims()))).toEqual(refused('algorithmRefused'));
    } finally {
      provider.published = [key];
    }
  });
});

describe('Firebase ID tokens, against keys served in Google’s shape', () => {
  it('verifies one: the old id is the uid (sub, and user_id alike), with the email claims', async () => {
    expect(await verify(await firebase(), await signToken(key, firebaseClaims()))).toMatchObject({
      outcome: 'verified',
      kind: 'firebase',
      oldId: 'uid-Ann-0001',
      email: 'ann@example.com',
      emailVerified: false,
    });
    expect(google.requests).toEqual([GOOGLE_KEYS_PATH]);
  });

  it("refuses one of another project, or that breaks Firebase's own rules (uid, auth_time)", async () => {
    const verifier = await firebase();
    const other = 'demo-other-app';
    const cases: [string, Claims, TokenRefusalCode][] = [
      ['of another project', { iss: `https://securetoken.google.com/${other}`, aud: other }, 'issuerWrong'],
      ['for another project', { aud: other }, 'audienceWrong'],
      ['whose user_id is not its sub', { user_id: 'uid-Bob-0002' }, 'tokenMalformed'],
      ['whose uid is longer than 128 characters', { sub: 'u'.repeat(129), user_id: 'u'.repeat(129) }, 'tokenMalformed'],
      ['without auth_time', { auth_time: undefined }, 'tokenMalformed'],
      ['signed in a minute from now', { auth_time: nowSeconds() + 60 }, 'tokenNotYetValid'],
    ];
    for (const [what, extra, code] of cases) {
      expect({ what, answer: await verify(verifier, await signToken(key, firebaseClaims(extra))) }).toEqual({ what, answer: refused(code) });
    }
  });
});

describe('Cognito tokens, as AWS documents them, against keys at the pool’s jwks.json', () => {
  const cognito = (extra: Record<string, unknown> = {}): Promise<OldTokenVerifier> =>
    open({ kind: 'cognito', region: 'eu-west-1', clientId: 'app-client', userPoolId: POOL, issuer: pool.issuer, timeoutMs: 2000, ...extra });
  const common = (): JWTPayload => ({ iss: pool.issuer, sub: 'a1b2c3d4-0000-4000-8000-000000000001', ...timesAround(nowSeconds()) });
  const idToken = (extra: Claims = {}): JWTPayload => ({
    ...common(),
    token_use: 'id',
    aud: 'app-client',
    'cognito:username': 'ann-legacy',
    email: 'ann@example.com',
    email_verified: 'true',
    ...extra,
  });
  const accessToken = (extra: Claims = {}): JWTPayload => ({ ...common(), token_use: 'access', client_id: 'app-client', username: 'ann-legacy', ...extra });

  it('verifies ID and access tokens by their own client claim; the old id is the sub, or the username when set so', async () => {
    const verifier = await cognito();
    expect(await verify(verifier, await signToken(key, idToken()))).toMatchObject({
      outcome: 'verified',
      kind: 'cognito',
      oldId: 'a1b2c3d4-0000-4000-8000-000000000001',
      email: 'ann@example.com',
      emailVerified: true,
    });
    expect(await verify(verifier, await signToken(key, accessToken()))).toMatchObject({ outcome: 'verified', oldId: 'a1b2c3d4-0000-4000-8000-000000000001' });
    const byUsername = await cognito({ oldIdClaim: 'username' });
    for (const claims of [idToken(), accessToken()]) expect(await verify(byUsername, await signToken(key, claims))).toMatchObject({ oldId: 'ann-legacy' });
    // Each verifier fetched the keys where AWS publishes a pool's: <issuer>/.well-known/jwks.json.
    expect(pool.requests).toEqual([`/${POOL}/.well-known/jwks.json`, `/${POOL}/.well-known/jwks.json`]);
  });

  it('refuses a token that is neither, or of another client, or without the claim that is the old id', async () => {
    const verifier = await cognito();
    const byUsername = await cognito({ oldIdClaim: 'username' });
    const cases: [string, OldTokenVerifier, JWTPayload, TokenRefusalCode][] = [
      ['without token_use', verifier, idToken({ token_use: undefined }), 'tokenUseRefused'],
      ['a refresh token', verifier, idToken({ token_use: 'refresh' }), 'tokenUseRefused'],
      ['an ID token of another client', verifier, idToken({ aud: 'other-client' }), 'audienceWrong'],
      ['an ID token naming its client only as client_id', verifier, idToken({ aud: undefined, client_id: 'app-client' }), 'audienceWrong'],
      ['an access token of another client', verifier, accessToken({ client_id: 'other-client' }), 'audienceWrong'],
      ['an access token naming its client only as aud', verifier, accessToken({ client_id: undefined, aud: 'app-client' }), 'audienceWrong'],
      ['an ID token without cognito:username', byUsername, idToken({ 'cognito:username': undefined }), 'tokenMalformed'],
      ['an access token without username', byUsername, accessToken({ username: undefined }), 'tokenMalformed'],
      ['of another pool', verifier, idToken({ iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other' }), 'issuerWrong'],
    ];
    for (const [what, checker, claims, code] of cases) {
      expect({ what, answer: await verify(checker, await signToken(key, claims)) }).toEqual({ what, answer: refused(code) });
    }
  });
});

describe('the settings of the token check, in the --verify-with file', () => {
  const base = { firebase: { kind: 'firebase', apiKey: { env: 'K' } }, cognito: { kind: 'cognito', region: 'eu-west-1', clientId: 'app' } };

  it('say what each old system lacks for it, as a problem of --verify-with', async () => {
    const lacking = [
      base.firebase,
      base.cognito,
      { kind: 'openid', tokenEndpoint: 'https://sso.example.com/token', clientId: 'app' },
      { kind: 'http', url: 'https://old.example.com/check' },
    ];
    for (const settings of lacking) {
      const answer = await openTokenVerifier(OldSystemSettingsSchema.parse(settings));
      expect(answer).toMatchObject({ code: 'oldSystemTokensUnset', kind: 'setting', setting: 'verifyWith' });
    }
    // Opened, not asked: nothing is fetched before the first token.
    expect(await open({ ...base.cognito, userPoolId: 'eu-west-1_AbCdEf123' })).toMatchObject({
      kind: 'cognito',
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123',
    });
    expect(await open({ ...base.firebase, projectId: PROJECT })).toMatchObject({ kind: 'firebase', issuer: `https://securetoken.google.com/${PROJECT}` });
  });

  it('refuse plain http:// to another machine, a shared-secret or absent algorithm, a pool of another region and a large skew, naming the field', () => {
    const fieldsAtFault = (settings: Record<string, unknown>): string[] =>
      OldSystemSettingsSchema.safeParse(settings).error?.issues.map((issue) => issue.path.join('.')) ?? [];
    const openIdBase = { kind: 'openid', tokenEndpoint: 'https://sso.example.com/token', clientId: 'app' };
    expect(fieldsAtFault({ ...openIdBase, issuer: 'http://sso.example.com/realms/app' })).toEqual(['issuer']);
    expect(fieldsAtFault({ ...openIdBase, issuer: 'https://sso.example.com/', tokenKeysUrl: 'http://keys.example.com/' })).toEqual(['tokenKeysUrl']);
    expect(fieldsAtFault({ ...openIdBase, tokenAlgorithms: ['HS256'] })).toEqual(['tokenAlgorithms.0']);
    expect(fieldsAtFault({ ...openIdBase, tokenAlgorithms: ['none'] })).toEqual(['tokenAlgorithms.0']);
    expect(fieldsAtFault({ ...openIdBase, tokenClockSkewSeconds: 301 })).toEqual(['tokenClockSkewSeconds']);
    expect(fieldsAtFault({ ...base.cognito, userPoolId: 'us-east-1_AbCdEf123' })).toEqual(['userPoolId']);
    expect(fieldsAtFault({ ...base.cognito, userPoolId: 'local_0QqT09ZC', issuer: 'http://127.0.0.1:9229/local_0QqT09ZC' })).toEqual([]);
    expect(fieldsAtFault({ ...base.firebase, projectId: 'Not A Project' })).toEqual(['projectId']);
    expect(fieldsAtFault({ ...base.firebase, tokenKeysUrl: 'http://[::1]:8080/keys' })).toEqual([]);
  });
});
