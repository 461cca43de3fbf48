import { createServer } from 'node:net';
import type { JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import { maxAgeOf } from '../../../../core-client/src/login-time/old-token/key-document.js';
import type { OldTokenVerifier } from '../../../../core-client/src/login-time/old-token/old-token-verifier.js';
import { openTokenVerifier } from '../../../../core-client/src/login-time/old-token/open-token-verifier.js';
import { Secret } from '../../../../core-client/src/secret.js';
import {
  makeSigningKey,
  signToken,
  startTestIssuer,
  timesAround,
  type KeysMisbehaviour,
  type SigningKey,
  type TestIssuer,
} from '../../../support/token-issuer.js';

// How the token check fetches and keeps an issuer's keys: once for many tokens, as long as Cache-Control says within
// bounds, again for a rotated key at most once per 30 s, not at all for 5 s after a failure; and what it answers when
// the key endpoint hangs, trickles, answers too much, garbage or an error. The time is the test's (`now`), so no test
// waits for a lifetime to pass; only the time bound of a hanging call is real (300 ms here).
const clock = { ms: Date.now() };
const advance = (seconds: number): void => {
  clock.ms += seconds * 1000;
};

let issuer: TestIssuer;
let key: SigningKey;
let rotated: SigningKey;
const opened: OldTokenVerifier[] = [];

beforeAll(async () => {
  [issuer, key, rotated] = await Promise.all([startTestIssuer(), makeSigningKey('key-1'), makeSigningKey('key-2')]);
});

beforeEach(() => {
  clock.ms = Date.now();
  issuer.published = [key];
  issuer.cacheControl = undefined;
  issuer.keysMisbehave = undefined;
  issuer.discovery = undefined;
  issuer.requests.length = 0;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((verifier) => verifier.close()));
});

afterAll(async () => {
  await issuer?.close();
});

/** The provider's token check; its keys at their URL (no discovery) unless `discovery` is asked for. */
async function open(extra: Record<string, unknown> = {}, discovery = false): Promise<OldTokenVerifier> {
  const settings = OldSystemSettingsSchema.parse({
    kind: 'openid',
    tokenEndpoint: `${issuer.issuer}/protocol/openid-connect/token`,
    clientId: 'web-app',
    issuer: issuer.issuer,
    ...(!discovery && { tokenKeysUrl: issuer.keysUrl }),
    timeoutMs: 300,
    ...extra,
  });
  const verifier = await openTokenVerifier(settings, { now: () => clock.ms });
  if (!('verify' in verifier)) throw verifier;
  opened.push(verifier);
  return verifier;
}

/** A good token, its times around the test's clock, signed with `signer` (or under another `kid`). */
async function token(signer: SigningKey = key, header: Record<string, string> = {}): Promise<Secret> {
  const claims: JWTPayload = { iss: issuer.issuer, aud: 'web-app', sub: 'legacy-7', ...timesAround(Math.floor(clock.ms / 1000), 7200) };
  return new Secret(await signToken(signer, claims, header));
}

const verified = { outcome: 'verified', oldId: 'legacy-7' };

describe('the keys of an issuer', () => {
  it('are fetched once for many tokens arriving together', async () => {
    const verifier = await open();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => token()));
    const answers = await Promise.all(tokens.map((each) => verifier.verify(each)));
    expect(answers.every((answer) => answer.outcome === 'verified')).toBe(true);
    expect(issuer.keysAsked()).toBe(1);
  });

  it('are kept as long as Cache-Control says, never under 30 s nor over an hour, and 10 minutes when it says nothing', async () => {
    const cases: [string | undefined, number][] = [
      ['public, max-age=120, must-revalidate', 120],
      ['max-age=86400', 3600],
      ['no-store', 30],
      ['max-age=0', 30],
      [undefined, 600],
    ];
    for (const [cacheControl, keptSeconds] of cases) {
      issuer.cacheControl = cacheControl;
      const verifier = await open();
      const before = issuer.keysAsked();
      expect(await verifier.verify(await token())).toMatchObject(verified);
      advance(keptSeconds - 1);
      expect(await verifier.verify(await token())).toMatchObject(verified);
      expect({ cacheControl, asked: issuer.keysAsked() - before }).toEqual({ cacheControl, asked: 1 });
      advance(2);
      expect(await verifier.verify(await token())).toMatchObject(verified);
      expect({ cacheControl, asked: issuer.keysAsked() - before }).toEqual({ cacheControl, asked: 2 });
      clock.ms = Date.now();
    }
    expect([maxAgeOf('max-age="60"'), maxAgeOf('private, no-cache'), maxAgeOf('s-maxage=60'), maxAgeOf('max-age=ten')]).toEqual([60, 0, undefined, undefined]);
  });

  it('are fetched again for a token of a key they lack (a rotation), but not twice within 30 s', async () => {
    const verifier = await open();
    expect(await verifier.verify(await token())).toMatchObject(verified);
    issuer.published = [key, rotated];
    advance(31);
    expect(await verifier.verify(await token(rotated))).toMatchObject(verified);
    expect(issuer.keysAsked()).toBe(2);
    // An unknown kid right after: no fetch, refused.
    expect(await verifier.verify(await token(rotated, { kid: 'key-3' }))).toEqual({ outcome: 'refused', code: 'keyUnknown' });
    expect(issuer.keysAsked()).toBe(2);
    advance(31);
    expect(await verifier.verify(await token(rotated, { kid: 'key-3' }))).toEqual({ outcome: 'refused', code: 'keyUnknown' });
    expect(await verifier.verify(await token(rotated, { kid: 'key-4' }))).toEqual({ outcome: 'refused', code: 'keyUnknown' });
    expect(issuer.keysAsked()).toBe(3);
    // A key the issuer withdrew is trusted no longer once the keys held are fetched again.
    issuer.published = [rotated];
    advance(601);
    expect(await verifier.verify(await token(key))).toEqual({ outcome: 'refused', code: 'keyUnknown' });
    expect(await verifier.verify(await token(rotated))).toMatchObject(verified);
  });
});

describe('a key endpoint that misbehaves', () => {
  const cases: [KeysMisbehaviour, string, string][] = [
    ['hang', 'keysUnreachable', 'timedOut'],
    ['trickle', 'keysUnreachable', 'timedOut'],
    ['status500', 'keysUnreachable', 'statusNotOk'],
    ['redirect', 'keysUnreachable', 'statusNotOk'],
    ['huge', 'keysUnusable', 'tooLarge'],
    ['hugeChunked', 'keysUnusable', 'tooLarge'],
    ['garbage', 'keysUnusable', 'notJson'],
    ['notKeySet', 'keysUnusable', 'notKeySet'],
    ['emptyKeySet', 'keysUnusable', 'notKeySet'],
  ];

  it.each(cases)('%s: nothing is decided (tryLater %s, %s)', async (misbehaviour, reason, failure) => {
    issuer.keysMisbehave = misbehaviour;
    const verifier = await open();
    expect(await verifier.verify(await token())).toEqual({ outcome: 'tryLater', reason, failure, retryAfterSeconds: 5 });
    expect(issuer.requests.filter((path) => !path.startsWith('/realms/app/protocol'))).toEqual([]);
  });

  it('is not asked again for 5 s after a failure; then the keys are had and the token verified', async () => {
    issuer.keysMisbehave = 'status500';
    const verifier = await open();
    expect(await verifier.keysReady()).toMatchObject({ outcome: 'tryLater', reason: 'keysUnreachable', failure: 'statusNotOk' });
    issuer.keysMisbehave = undefined;
    advance(2);
    expect(await verifier.verify(await token())).toEqual({ outcome: 'tryLater', reason: 'keysUnreachable', failure: 'statusNotOk', retryAfterSeconds: 3 });
    expect(issuer.keysAsked()).toBe(1);
    advance(3);
    expect(await verifier.verify(await token())).toMatchObject(verified);
    expect(await verifier.keysReady()).toEqual({ outcome: 'ready' });
    expect(issuer.keysAsked()).toBe(2);
  });

  it('nobody listening: keysUnreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const port = address !== null && typeof address === 'object' ? address.port : 0;
    const verifier = await open({ tokenKeysUrl: `http://127.0.0.1:${port}/keys` });
    expect(await verifier.verify(await token())).toMatchObject({ outcome: 'tryLater', reason: 'keysUnreachable', failure: 'connectionFailed' });
  });
});

describe('discovery of the keys (OpenID)', () => {
  it('finds them at jwks_uri, asking the discovery document again whenever the keys are fetched', async () => {
    const verifier = await open({}, true);
    expect(await verifier.verify(await token())).toMatchObject(verified);
    advance(601);
    expect(await verifier.verify(await token())).toMatchObject(verified);
    expect(issuer.requests).toEqual([
      '/realms/app/.well-known/openid-configuration',
      '/realms/app/protocol/openid-connect/certs',
      '/realms/app/.well-known/openid-configuration',
      '/realms/app/protocol/openid-connect/certs',
    ]);
  });

  it('refuses a document of another issuer, one whose keys are on plain http to another machine, and one that is no discovery document', async () => {
    const cases: [unknown, string][] = [
      [{ issuer: 'https://sso.example.com/realms/app', jwks_uri: issuer.keysUrl }, 'discoveryIssuerDiffers'],
      [{ issuer: `${issuer.issuer}/`, jwks_uri: issuer.keysUrl }, 'discoveryIssuerDiffers'],
      [{ issuer: issuer.issuer, jwks_uri: 'http://keys.example.com/certs' }, 'discoveryKeysUrlRefused'],
      [{ issuer: issuer.issuer }, 'notDiscoveryDocument'],
      [[], 'notDiscoveryDocument'],
    ];
    for (const [document, failure] of cases) {
      issuer.discovery = document;
      const answer = await (await open({}, true)).verify(await token());
      expect({ document, answer }).toEqual({ document, answer: { outcome: 'tryLater', reason: 'keysUnusable', failure, retryAfterSeconds: 5 } });
    }
    expect(issuer.keysAsked()).toBe(0);
  });
});
