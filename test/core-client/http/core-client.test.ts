import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthRejected,
  ContractViolation,
  RecordRejected,
  SignerKeyMissing,
  TenantNotFound,
  Transient,
  isCoreError,
} from '../../../core-client/src/http/errors.js';
import { CoreClient, type CoreClientOptions } from '../../../core-client/src/http/core-client.js';
import { CoreClientConfigError } from '../../../core-client/src/http/target.js';
import type { RetryPolicy } from '../../../core-client/src/http/retry.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR, argon2HashOf, bcryptHashOf, vendorScryptHashString } from '../../core-double/known-hashes.js';
import { startJunkServer } from './junk-server.js';

const API_KEY = 'client-test-key-0123456789-abc';
const fastRetry: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50, maxTotalMs: 60_000 };

let double: CoreDouble;
let sleeps: number[];
const clients: CoreClient[] = [];

/** A client whose retries do not really wait: the waits are recorded instead. */
function clientFor(url: string, options: Partial<CoreClientOptions> = {}): CoreClient {
  const client = new CoreClient({
    baseUrl: url,
    apiKey: new Secret(API_KEY),
    retry: fastRetry,
    retryHooks: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    ...options,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  double = await startCoreDouble({
    apiKeys: [API_KEY],
    signerKey: VENDOR_SCRYPT_VECTOR.signerKey,
    tenants: ['acme'],
    apps: ['shop'],
  });
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => {
  double.reset();
  sleeps = [];
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('CoreClient against the core double: outcomes', () => {
  it('imports a password user, then reports the same user as already existing', async () => {
    const client = clientFor(double.url);
    const body = { email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') };
    const first = await client.importPasswordHash(body);
    const second = await client.importPasswordHash(body);
    expect(first.outcome).toBe('imported');
    expect(second).toEqual({ outcome: 'alreadyExisted', userId: first.userId });
    expect(double.emailPasswordUsers()).toHaveLength(1);
  });

  it('creates a third-party user, then finds it existing', async () => {
    const client = clientFor(double.url);
    const body = { thirdPartyId: 'google', thirdPartyUserId: 'g-1', email: { id: 'bo@example.com', isVerified: true } };
    const first = await client.signInUp(body);
    expect(first.outcome).toBe('created');
    expect(await client.signInUp(body)).toEqual({ outcome: 'existing', userId: (first as { userId: string }).userId });
  });

  it('reports a 200 with a non-OK status as nonOkStatus with its reason', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(1, {
      status: 200,
      body: JSON.stringify({ status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR', reason: 'email already used by another account' }),
    });
    const result = await client.signInUp({ thirdPartyId: 'x', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: false } });
    expect(result).toEqual({
      outcome: 'nonOkStatus',
      status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR',
      reason: 'email already used by another account',
    });
  });

  it('understands the older flat user shape', async () => {
    const legacy = await startCoreDouble({ userShape: 'legacy' });
    try {
      const result = await clientFor(legacy.url).importPasswordHash({ email: 'a@b.c', passwordHash: await bcryptHashOf('pw') });
      expect(result).toEqual({ outcome: 'imported', userId: legacy.users()[0]?.id });
    } finally {
      await legacy.close();
    }
  });

  it('answers hello and apiVersion', async () => {
    const client = clientFor(double.url);
    expect((await client.hello()).roundTripMs).toBeGreaterThanOrEqual(0);
    expect((await client.apiVersion()).versions).toEqual(expect.arrayContaining(['2.21', '5.2']));
  });
});

describe('CoreClient: errors', () => {
  it('throws AuthRejected for a wrong key, without retrying', async () => {
    const client = clientFor(double.url, { apiKey: new Secret('wrong-key-0123456789-xyz') });
    await expect(client.apiVersion()).rejects.toBeInstanceOf(AuthRejected);
    expect(double.requests()).toHaveLength(1);
  });

  it('throws RecordRejected carrying the core text, without retrying', async () => {
    const client = clientFor(double.url);
    const error = await client.importPasswordHash({ email: 'a@b.c', passwordHash: 'md5:0cc175b9c0f1b6a8' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordRejected);
    expect((error as RecordRejected).coreMessage).toBe('Password hash is in invalid format');
    expect((error as RecordRejected).message).not.toContain('0cc175b9c0f1b6a8');
    expect(double.requests()).toHaveLength(1);
  });

  it('throws SignerKeyMissing when the core has no signer key', async () => {
    const keyless = await startCoreDouble();
    try {
      const client = clientFor(keyless.url);
      const error = await client
        .importPasswordHash({ email: 'a@b.c', passwordHash: vendorScryptHashString(), hashingAlgorithm: 'vendor_scrypt' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignerKeyMissing);
      expect((error as Error).message).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
      expect(keyless.requests()).toHaveLength(1);
    } finally {
      await keyless.close();
    }
  });

  it('throws TenantNotFound for a tenant the core does not have', async () => {
    const client = clientFor(double.url, { tenantId: 'ghost' });
    const error = await client.signInUp({ thirdPartyId: 'x', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantNotFound);
    expect((error as TenantNotFound).tenantId).toBe('ghost');
  });

  it('throws ContractViolation for a 200 that is not the contract', async () => {
    const junk = await startJunkServer((request, _body, response) => {
      if (request.url === '/hello') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('Howdy');
      } else if (request.url === '/apiversion') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"versions": "all of them"');
      } else if (request.url === '/recipe/signinup') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK"}');
      } else {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>a login page</html>');
      }
    });
    try {
      const client = clientFor(junk.url);
      await expect(client.hello()).rejects.toBeInstanceOf(ContractViolation);
      await expect(client.apiVersion()).rejects.toThrow(/not valid JSON/);
      await expect(client.signInUp({ thirdPartyId: 'x', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: true } })).rejects.toThrow(/user/);
      const error = await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ContractViolation);
      expect((error as ContractViolation).code).toBe('contractViolation');
      expect((error as Error).message).toMatch(/text\/html/);
    } finally {
      await junk.close();
    }
  });

  it('rejects bad settings with CoreClientConfigError', () => {
    expect(() => new CoreClient({ baseUrl: double.url, apiKey: API_KEY as unknown as Secret })).toThrow(CoreClientConfigError);
    expect(() => new CoreClient({ baseUrl: double.url, apiKey: new Secret(API_KEY), connections: 0 })).toThrow(/connections/);
    expect(() => new CoreClient({ baseUrl: double.url, apiKey: new Secret(API_KEY), tenantId: 'recipe' })).toThrow(CoreClientConfigError);
  });

  it('passes an abort through as the abort, not as a core error', async () => {
    const client = clientFor(double.url);
    const controller = new AbortController();
    const reason = new Error('operator pressed q');
    controller.abort(reason);
    await expect(client.hello({ signal: controller.signal })).rejects.toBe(reason);
  });
});

describe('CoreClient: retries', () => {
  it('retries 429 and waits what Retry-After says', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(2, { status: 429, retryAfterSeconds: 2 });
    expect((await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$04$x' })).outcome).toBe('imported');
    expect(sleeps).toEqual([2_000, 2_000]);
    expect(double.requests()).toHaveLength(3);
  });

  it('retries bursts of 500 and 503', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(2, { status: 500 });
    double.faults.failNext(1, { status: 503 });
    const result = await client.signInUp({ thirdPartyId: 'x', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: true } });
    expect(result.outcome).toBe('created');
    expect(double.requests()).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('gives up after maxAttempts of server errors with the last Transient', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(10, { status: 500 });
    const error = await client.hello().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).status).toBe(500);
    expect(double.requests()).toHaveLength(fastRetry.maxAttempts);
  });

  it('waits out more push-backs than it has attempts: 429 and 503 never use one up', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(5, { status: 503 });
    double.faults.failNext(5, { status: 429, retryAfterSeconds: 1 });
    expect(await client.hello()).toMatchObject({ roundTripMs: expect.any(Number) });
    expect(double.requests()).toHaveLength(11);
    expect(sleeps.slice(5)).toEqual([1_000, 1_000, 1_000, 1_000, 1_000]);
  });

  it('does not retry when a call says retry: false, so the caller sees every 429', async () => {
    const client = clientFor(double.url);
    double.faults.failNext(1, { status: 429, retryAfterSeconds: 5 });
    const error = await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$04$x' }, { retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).retryAfterMs).toBe(5_000);
    expect(double.requests()).toHaveLength(1);
  });

  it('retries dropped connections', async () => {
    const client = clientFor(double.url);
    double.faults.dropNext(2);
    expect((await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$04$x' })).outcome).toBe('imported');
    expect(double.requests()).toHaveLength(3);
  });

  it('turns a body that arrives too slowly into a timeout Transient, and keeps working afterwards', async () => {
    const client = clientFor(double.url, { requestTimeoutMs: 150, retry: false });
    double.faults.slowBodyNext(1, 5_000);
    const error = await client.apiVersion().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).reason).toBe('timeout');
    expect((await client.apiVersion()).versions.length).toBeGreaterThan(0);
  });

  it('turns headers that never come into a timeout Transient', async () => {
    const client = clientFor(double.url, { requestTimeoutMs: 150, retry: false });
    double.faults.setLatencyMs(5_000);
    const error = await client.hello().catch((e: unknown) => e);
    expect((error as Transient).reason).toBe('timeout');
  });

  it('turns a refused connection into a network Transient after retrying', async () => {
    const junk = await startJunkServer((_request, _body, response) => response.end());
    const url = junk.url;
    await junk.close();
    const error = await clientFor(url)
      .hello()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Transient);
    expect((error as Transient).reason).toBe('network');
    expect(sleeps).toHaveLength(fastRetry.maxAttempts - 1);
  });
});

describe('CoreClient: requests on the wire', () => {
  it('sends the api-key on every request and the contract content type on bodies', async () => {
    const client = clientFor(double.url);
    await client.hello();
    await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$04$x' });
    const [hello, importCall] = double.requests();
    expect(hello?.headers['api-key']).toBe(API_KEY);
    expect(hello?.headers['content-type']).toBeUndefined();
    expect(importCall?.headers['api-key']).toBe(API_KEY);
    expect(importCall?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(importCall?.body).toEqual({ email: 'a@b.c', passwordHash: '$2a$04$x' });
  });

  it('sends only the contract fields, with hashingAlgorithm only when given', async () => {
    const client = clientFor(double.url);
    const extra = { email: 'a@b.c', passwordHash: vendorScryptHashString(), hashingAlgorithm: 'vendor_scrypt' as const, note: 'x' };
    await client.importPasswordHash(extra);
    expect(double.requests()[0]?.body).toEqual({
      email: 'a@b.c',
      passwordHash: vendorScryptHashString(),
      hashingAlgorithm: 'vendor_scrypt',
    });
  });

  it('puts tenant and app in the path, and keeps hello at the root', async () => {
    const body = { thirdPartyId: 'x', thirdPartyUserId: '1', email: { id: 'a@b.c', isVerified: true } };
    await clientFor(double.url, { tenantId: 'acme' }).signInUp(body);
    await clientFor(double.url, { appId: 'shop' }).signInUp(body);
    await clientFor(double.url, { appId: 'shop', tenantId: 'acme' }).signInUp(body);
    await clientFor(double.url, { appId: 'shop', tenantId: 'acme' }).hello();
    expect(double.requests().map((request) => request.path)).toEqual([
      '/acme/recipe/signinup',
      '/appid-shop/public/recipe/signinup',
      '/appid-shop/acme/recipe/signinup',
      '/hello',
    ]);
  });

  it('keeps the path prefix of the base URL', async () => {
    const proxied = await startCoreDouble({ pathPrefix: '/core' });
    try {
      const client = clientFor(`${proxied.url}/core/`, { tenantId: 'public' });
      await client.hello();
      await client.importPasswordHash({ email: 'a@b.c', passwordHash: '$2a$04$x' });
      expect(proxied.requests().map((request) => request.path)).toEqual(['/core/hello', '/core/recipe/user/passwordhash/import']);
    } finally {
      await proxied.close();
    }
  });
});

describe('CoreClient.signIn', () => {
  it.each([
    ['bcrypt', () => bcryptHashOf('s3cret-pass', '2y'), 's3cret-pass', undefined],
    ['argon2', () => argon2HashOf('s3cret-pass', 'argon2id'), 's3cret-pass', undefined],
    ['vendor scrypt', async () => vendorScryptHashString(), VENDOR_SCRYPT_VECTOR.password, 'vendor_scrypt' as const],
  ])('proves a %s user logs in after import, and refuses a wrong password', async (_family, makeHash, password, hashingAlgorithm) => {
    const client = clientFor(double.url);
    const passwordHash = await makeHash();
    await client.importPasswordHash({ email: 'user@example.com', passwordHash, ...(hashingAlgorithm ? { hashingAlgorithm } : {}) });
    expect(await client.signIn({ email: 'user@example.com', password: new Secret(password) })).toEqual({ outcome: 'signedIn' });
    expect(await client.signIn({ email: 'user@example.com', password: new Secret('not-it') })).toEqual({
      outcome: 'wrongCredentials',
    });
  });

  it('answers notAvailable when the core has no sign-in endpoint', async () => {
    const junk = await startJunkServer((_request, _body, response) => {
      response.writeHead(404, { 'content-type': 'text/html;charset=UTF-8' }).end('Not found\n');
    });
    try {
      expect(await clientFor(junk.url).signIn({ email: 'a@b.c', password: new Secret('pw') })).toEqual({ outcome: 'notAvailable' });
    } finally {
      await junk.close();
    }
  });
});

describe('CoreClient never shows secrets', () => {
  it('keeps the api-key, passwords and hashes out of describe, inspect and every error', async () => {
    const hash = '$2a$04$ThisIsTheSecretHashValue0123456789abcdefghijklmnopqrs';
    const password = 'the-typed-password';
    const echo = await startJunkServer((request, body, response) => {
      // A badly behaved server that echoes everything it got, headers included.
      response.writeHead(request.url === '/apiversion' ? 401 : 500, { 'content-type': 'text/plain' });
      response.end(`${JSON.stringify(request.headers)} ${body}`);
    });
    try {
      const client = clientFor(echo.url, { retry: false });
      const errors = await Promise.all([
        client.importPasswordHash({ email: 'a@b.c', passwordHash: hash }).catch((e: unknown) => e),
        client.signIn({ email: 'a@b.c', password: new Secret(password) }).catch((e: unknown) => e),
        client.apiVersion().catch((e: unknown) => e),
      ]);
      const timeoutClient = clientFor(double.url, { requestTimeoutMs: 100, retry: false });
      double.faults.setLatencyMs(2_000);
      errors.push(await timeoutClient.hello().catch((e: unknown) => e));
      double.faults.clearFaults();
      errors.push(
        await clientFor(double.url, { apiKey: new Secret(`${API_KEY}-wrong`) })
          .apiVersion()
          .catch((e: unknown) => e),
      );

      expect(errors.every(isCoreError)).toBe(true);
      const shown = [
        client.describe(),
        inspect(client, { depth: 10, showHidden: true }),
        ...errors.flatMap((error) => [String(error), (error as Error).message, inspect(error, { depth: 10 }), JSON.stringify(error)]),
      ].join('\n');
      expect(shown).not.toContain(API_KEY);
      expect(shown).not.toContain(hash);
      expect(shown).not.toContain(password);
      expect((errors[0] as Error).message).toContain('***');
    } finally {
      await echo.close();
    }
  });
});
