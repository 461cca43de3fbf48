import { request as httpRequest } from 'node:http';
import bcryptjs from 'bcryptjs';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacyVerifierPool } from '../../../../core-client/src/hashes/legacy/verifier-pool.js';
import {
  startLoginService,
  type LoginService,
  type LoginServiceOptions,
  type RequestLogLine,
} from '../../../../core-client/src/login-time/service/login-service.js';
import type { NotReadyReason } from '../../../../core-client/src/login-time/service/readiness.js';
import { ServiceRefusalSchema } from '../../../../core-client/src/login-time/service/service-refusal.js';
import { Problem } from '../../../../core-client/src/problem.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { fixtureMigrate, waitingUsersFromFixtures } from '../../../support/login-migrate-fixture.js';

const SERVICE_KEY = 'service-key-0123456789abcdef';
const users = waitingUsersFromFixtures(['django_pbkdf2_sha256', 'phpass', 'sha512_crypt', 'passlib_bcrypt_sha256']);
const [django, phpass, sha512] = users;
if (django === undefined || phpass === undefined || sha512 === undefined) throw new Error('fixture users missing');

const services: LoginService[] = [];
const pools: LegacyVerifierPool[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

async function start(
  options: Partial<LoginServiceOptions> = {},
): Promise<{ service: LoginService; logs: RequestLogLine[]; migrate: ReturnType<typeof fixtureMigrate> }> {
  const pool = new LegacyVerifierPool({ size: 2 });
  pools.push(pool);
  const migrate = fixtureMigrate(users, pool.verify);
  const logs: RequestLogLine[] = [];
  const service = await startLoginService({
    serviceKey: new Secret(SERVICE_KEY),
    migrate,
    log: (line) => logs.push(line),
    ...options,
    settings: { port: 0, ...options.settings },
  });
  services.push(service);
  return { service, logs, migrate };
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function signIn(service: LoginService, body: unknown, init: { key?: string; contentType?: string } = {}): Promise<Answer> {
  const response = await fetch(`${service.url}/migrate`, {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json', authorization: `Bearer ${init.key ?? SERVICE_KEY}` },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** A raw request, for bodies fetch would not send as they are (invalid UTF-8, a Content-Length far beyond the body). */
function rawRequest(service: LoginService, headers: Record<string, string | number>, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${service.url}/migrate`, { method: 'POST', headers: { authorization: `Bearer ${SERVICE_KEY}`, ...headers } }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
    });
    // The service may close the connection after answering, before it reads what is still being sent.
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the login-time service over HTTP', () => {
  it('answers migrated for the right password, wrong credentials for a wrong one, not waiting for an unknown email', async () => {
    const { service } = await start();
    expect(await signIn(service, { email: django.email, password: 'not it' })).toMatchObject({ status: 200, body: { outcome: 'wrongCredentials' } });
    expect(await signIn(service, { email: `  ${django.email.toUpperCase()} `, password: django.password })).toMatchObject({
      status: 200,
      body: { outcome: 'migrated', userId: django.oldId },
    });
    expect(await signIn(service, { email: phpass.email, password: phpass.password })).toMatchObject({ body: { outcome: 'migrated', userId: phpass.oldId } });
    expect(await signIn(service, { email: 'nobody@example.com', password: 'whatever' })).toMatchObject({ status: 200, body: { outcome: 'notWaiting' } });
    // An email no user can have is not waiting either, and the store is not asked.
    expect(await signIn(service, { email: 'not an email', password: 'whatever' })).toMatchObject({ status: 200, body: { outcome: 'notWaiting' } });
  });

  it('after the wrong passwords allowed for an email, answers 429 with Retry-After and does not check the password', async () => {
    // A clock that stands still: a try comes back every 120 / 2 seconds, none of which pass.
    const { service, migrate } = await start({ settings: { limits: { maxFailuresPerEmail: 2, windowSeconds: 120 } }, now: () => 1_000_000 });
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect((await signIn(service, { email: sha512.email, password: 'guess' })).body.outcome).toBe('wrongCredentials');
    const checked = migrate.calls();
    const locked = await signIn(service, { email: sha512.email, password: sha512.password });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ outcome: 'tryLater', reason: 'tooManyAttempts', retryAfterSeconds: 60 });
    expect(locked.headers.get('retry-after')).toBe('60');
    expect(migrate.calls()).toBe(checked);
    // Another account is answered as usual.
    expect((await signIn(service, { email: phpass.email, password: phpass.password })).body.outcome).toBe('migrated');
  });

  it('bounds one end-user address across emails, as the backend names it in clientAddress', async () => {
    const { service } = await start({ settings: { limits: { maxFailuresPerClient: 2 } } });
    for (const user of [django, phpass]) await signIn(service, { email: user.email, password: 'guess', clientAddress: '203.0.113.9' });
    expect((await signIn(service, { email: sha512.email, password: sha512.password, clientAddress: '203.0.113.9' })).status).toBe(429);
    expect((await signIn(service, { email: sha512.email, password: sha512.password, clientAddress: '203.0.113.10' })).body.outcome).toBe('migrated');
  });

  it('refuses a missing or wrong service key with 401, before reading the body', async () => {
    const { service, migrate } = await start();
    expect(await signIn(service, { email: django.email, password: django.password }, { key: 'wrong-key-0123456789abcdef' })).toMatchObject({ status: 401 });
    const noKey = await fetch(`${service.url}/migrate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(migrate.calls()).toBe(0);
  });

  it('refuses bad bodies with a sentence that never quotes what was sent', async () => {
    const { service, migrate } = await start();
    const password = 'Pa55-do-not-echo';
    const refusals = [
      [await signIn(service, `{"email": "${django.email}", "password": "${password}"`), 'bodyNotJson'],
      [await signIn(service, { email: django.email, password, admin: true }), 'bodyShapeInvalid'],
      [await signIn(service, { email: django.email }), 'bodyShapeInvalid'],
      [await signIn(service, { email: django.email, password: 12345 }), 'bodyShapeInvalid'],
      [await signIn(service, { email: django.email, password, clientAddress: 'not-an-ip' }), 'bodyShapeInvalid'],
      [await signIn(service, [password]), 'bodyShapeInvalid'],
    ] as const;
    for (const [refusal, code] of refusals) {
      expect(refusal.status).toBe(400);
      expect(JSON.stringify(refusal.body)).not.toContain(password);
      expect(ServiceRefusalSchema.parse(refusal.body).code).toBe(code);
    }
    expect(await signIn(service, { email: django.email, password }, { contentType: 'text/plain' })).toMatchObject({ status: 415 });
    expect(await signIn(service, { email: django.email, password }, { contentType: 'application/json; charset=iso-8859-1' })).toMatchObject({ status: 415 });
    const latin1 = await rawRequest(service, { 'content-type': 'application/json' }, Buffer.from(`{"email":"${django.email}","password":"caf\xe9"}`, 'latin1'));
    expect(latin1.status).toBe(400);
    expect(ServiceRefusalSchema.parse(JSON.parse(latin1.text)).code).toBe('bodyNotUtf8');
    expect(migrate.calls()).toBe(0);
  });

  it('refuses a huge body with 413 without reading it, and goes on serving', async () => {
    const { service } = await start({ settings: { maxBodyBytes: 1024 } });
    const declared = await rawRequest(service, { 'content-type': 'application/json', 'content-length': 50 * 1024 * 1024 }, Buffer.alloc(0)).catch(
      (error: unknown) => error,
    );
    expect(declared).toMatchObject({ status: 413 });
    const streamed = await rawRequest(service, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, Buffer.alloc(64 * 1024, 0x61)).catch(
      (error: unknown) => error,
    );
    // Either the answer arrived, or the service closed the connection on a body it would not read: never a 200.
    if (!(streamed instanceof Error)) expect(streamed).toMatchObject({ status: 413 });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect((await signIn(service, { email: django.email, password: django.password })).body.outcome).toBe('migrated');
  });

  it('answers /health while a sign-in is still being migrated', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pool = new LegacyVerifierPool({ size: 1 });
    pools.push(pool);
    const inner = fixtureMigrate(users, pool.verify);
    const { service } = await start({ migrate: async (attempt) => (await held, inner(attempt)) });
    const order: string[] = [];
    const signingIn = signIn(service, { email: django.email, password: django.password }).then((answer) =>
      order.push(`migrate ${String(answer.body.outcome)}`),
    );
    const health = await fetch(`${service.url}/health`);
    order.push(`health ${health.status}`);
    release();
    await signingIn;
    expect(order).toEqual(['health 200', 'migrate migrated']);
  });

  it('answers /health 503 notReady with every reason its readiness checks give, and 200 ok once they all pass', async () => {
    let coreReason: NotReadyReason | undefined = 'coreKeyRefused';
    let storeReason: NotReadyReason | undefined = 'storeUnavailable';
    // A flood of probes shares the last answer: the clock is moved a round on before each change is looked for.
    let time = 1_000_000;
    const { service, logs } = await start({
      now: () => time,
      readiness: [
        { name: 'core', check: () => Promise.resolve(coreReason) },
        { name: 'store', check: () => Promise.resolve(storeReason) },
      ],
    });
    const answers = await Promise.all([1, 2, 3].map(() => fetch(`${service.url}/health`)));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ status: 'notReady', reasons: ['coreKeyRefused', 'storeUnavailable'] });
    }
    coreReason = undefined;
    time += 5_000;
    expect(await (await fetch(`${service.url}/health`)).json()).toEqual({ status: 'notReady', reasons: ['storeUnavailable'] });
    storeReason = undefined;
    time += 5_000;
    const ready = await fetch(`${service.url}/health`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok' }]);
    expect(logs.filter((line) => line.path === '/health').map((line) => [line.status, line.reason])).toContainEqual([503, 'coreKeyRefused,storeUnavailable']);
  });

  it('answers 503 busy with Retry-After when the verifier pool is full, and checks nothing', async () => {
    const pool = new LegacyVerifierPool({ size: 1, maxQueued: 0 });
    pools.push(pool);
    const { service } = await start({ migrate: fixtureMigrate(users, pool.verify) });
    // The pool's only thread holds a costly check while the sign-in arrives.
    const costly = `bcrypt_sha256$${bcryptjs.hashSync(createHash('sha256').update('x').digest('hex'), 12)}`;
    const holding = pool.verify(new Secret('x'), costly);
    const answer = await signIn(service, { email: django.email, password: django.password });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ outcome: 'tryLater', reason: 'busy', retryAfterSeconds: 1 });
    expect(answer.headers.get('retry-after')).toBe('1');
    expect((await holding).outcome).toBe('match');
    expect((await signIn(service, { email: django.email, password: django.password })).body.outcome).toBe('migrated');
  });

  it('a failing migration is a 500 whose body and log hold no word of the error', async () => {
    const password = 'secret-in-an-error';
    const { service, logs } = await start({
      migrate: () => Promise.reject(new VerifierPoolBusyLookalike(`could not check ${password}`)),
    });
    const answer = await signIn(service, { email: django.email, password });
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body) + JSON.stringify(logs)).not.toContain(password);
    expect(logs.at(-1)).toMatchObject({ status: 500, reason: 'VerifierPoolBusyLookalike' });
  });

  it('answers a failure outside any sign-in with a JSON body and its code, and goes on serving', async () => {
    let failing = true;
    const { service } = await start({
      readiness: [{ name: 'flaky', check: () => (failing ? Promise.reject(new Error('the check broke')) : Promise.resolve(undefined)) }],
    });
    const broken = await fetch(`${service.url}/health`);
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ServiceRefusalSchema.parse(await broken.json()).code).toBe('internalError');
    failing = false;
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
  });

  it('refuses with a code a client can branch on: a wrong key, a wrong type, a wrong method, a wrong path', async () => {
    const { service } = await start();
    const codeOf = async (answer: Response): Promise<[number, string]> => [answer.status, ServiceRefusalSchema.parse(await answer.json()).code];
    expect(await codeOf(await fetch(`${service.url}/migrate`, { method: 'POST', body: '{}' }))).toEqual([401, 'serviceKeyRefused']);
    const typed = (contentType: string): Promise<Response> =>
      fetch(`${service.url}/migrate`, { method: 'POST', headers: { authorization: `Bearer ${SERVICE_KEY}`, 'content-type': contentType }, body: '{}' });
    expect(await codeOf(await typed('text/plain'))).toEqual([415, 'contentTypeRefused']);
    expect(await codeOf(await typed('application/json; charset=iso-8859-1'))).toEqual([415, 'charsetRefused']);
    expect(await codeOf(await fetch(`${service.url}/migrate`))).toEqual([405, 'methodNotAllowed']);
    expect(await codeOf(await fetch(`${service.url}/health`, { method: 'POST' }))).toEqual([405, 'methodNotAllowed']);
    expect(await codeOf(await fetch(`${service.url}/elsewhere`))).toEqual([404, 'pathNotFound']);
    const oversized = await rawRequest(service, { 'content-type': 'application/json', 'content-length': 9000 }, Buffer.alloc(0)).catch(
      (error: unknown) => error,
    );
    // Either the answer arrived, or the service closed the connection on a body it would not read.
    if (!(oversized instanceof Error)) expect(oversized).toMatchObject({ status: 413, text: expect.stringContaining('"code":"bodyTooLarge"') });
  });

  it('refuses to start where it cannot listen with a problem naming the port: serviceCannotListen, exit 2', async () => {
    const { service } = await start();
    const port = Number(new URL(service.url).port);
    const refused = await start({ settings: { port } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Problem);
    expect(refused).toMatchObject({ code: 'serviceCannotListen', setting: 'port', exitCode: 2 });
  });

  it('serves concurrent sign-ins of several users, each answered for itself', async () => {
    const { service } = await start();
    const attempts = users.flatMap((user) => [
      { user, password: user.password },
      { user, password: `${user.password}!` },
    ]);
    const answers = await Promise.all(attempts.map(({ user, password }) => signIn(service, { email: user.email, password })));
    for (const [index, { user, password }] of attempts.entries()) {
      const outcome = answers[index]?.body.outcome;
      // The right password migrates; a wrong one is wrong, or not waiting once the right one has migrated the user.
      if (password === user.password) expect(outcome).toBe('migrated');
      else expect(['wrongCredentials', 'notWaiting']).toContain(outcome);
    }
  });

  it('logs one line per request: outcome and a digest of the email, never the email, password or hash', async () => {
    const { service, logs } = await start();
    await signIn(service, { email: django.email, password: 'wrong-password-1' });
    await signIn(service, { email: django.email, password: django.password });
    await fetch(`${service.url}/health`);
    expect(logs.map((line) => [line.path, line.status, line.outcome])).toEqual([
      ['/migrate', 200, 'wrongCredentials'],
      ['/migrate', 200, 'migrated'],
      ['/health', 200, undefined],
    ]);
    expect(logs[0]?.email).toMatch(/^[0-9a-f]{16}$/);
    expect(logs[0]?.email).toBe(logs[1]?.email);
    const text = JSON.stringify(logs);
    for (const secret of [django.email, django.password, 'wrong-password-1', django.hash]) expect(text).not.toContain(secret);
  });

  it('close waits for the sign-in under way, then stops listening', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const underWay = new Promise<void>((resolve) => (arrived = resolve));
    const { service } = await start({
      migrate: async () => {
        arrived();
        await held;
        return { outcome: 'notWaiting' };
      },
    });
    const signingIn = signIn(service, { email: django.email, password: 'x' });
    await underWay;
    const closing = service.close();
    release();
    expect((await signingIn).body.outcome).toBe('notWaiting');
    await closing;
    await expect(fetch(`${service.url}/health`)).rejects.toThrow();
  });
});

/** An error whose message holds a password, as a careless store or core client might throw. */
class VerifierPoolBusyLookalike extends Error {
  override readonly name = 'VerifierPoolBusyLookalike';
}
