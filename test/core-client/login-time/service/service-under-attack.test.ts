import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration, type LoginMigration } from '../../../../core-client/src/login-time/migrate-at-login.js';
import {
  startLoginService,
  type LoginService,
  type LoginServiceOptions,
  type RequestLogLine,
} from '../../../../core-client/src/login-time/service/login-service.js';
import { ServiceRefusalSchema } from '../../../../core-client/src/login-time/service/service-refusal.js';
import { openWaitingStore } from '../../../../core-client/src/login-time/store/open-store.js';
import type { WaitingStore } from '../../../../core-client/src/login-time/store/waiting-store.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../../core-double/index.js';
import { legacyHashVector } from '../hash-vectors.js';

/**
 * Issue 49, items 2 to 6: the service over real HTTP, on a real waiting store and the core double, as an attacker and
 * a crowd of users would meet it: its attempt limits, and the work and log lines a request without the key can cause.
 * Each test parks users of its own (`<test>-<n>@example.com`).
 */
const API_KEY = 'login-limits-test-api-key-0123456789';
const SERVICE_KEY = 'login-limits-service-key-0123456789';
// Django PBKDF2-SHA256 at 1,000 iterations: a real check, cheap enough for a crowd.
const vector = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));

let directory: string;
let core: CoreDouble;
let client: CoreClient;
let store: WaitingStore;
let login: LoginMigration;
const services: LoginService[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'login-limits-'));
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  store = await openWaitingStore(join(directory, 'waiting.sqlite'));
  login = await openLoginMigration({ store, core: client });
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

afterAll(async () => {
  await login.close();
  await store.close();
  await client.close();
  await core.close();
  rmSync(directory, { recursive: true, force: true });
});

async function park(prefix: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `${prefix}-${index}@example.com`);
  for (const email of emails) {
    await store.park({ email, sourceId: `old-${email}`, mapSourceId: false, emailVerified: true, family: 'django_pbkdf2_sha256', legacyHash: vector.hash });
  }
  return emails;
}

async function serve(options: Partial<LoginServiceOptions> = {}): Promise<LoginService> {
  const service = await startLoginService({
    serviceKey: new Secret(SERVICE_KEY),
    migrate: (attempt) => migrateAtLogin(login, attempt),
    ...options,
    settings: { port: 0, ...options.settings },
  });
  services.push(service);
  return service;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  outcome: unknown;
}

async function signIn(service: LoginService, body: { email: string; password: string; clientAddress?: string }): Promise<Answer> {
  const response = await fetch(`${service.url}/migrate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { outcome?: unknown };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), outcome: answer.outcome };
}

const signUps = (): number => core.requests().filter((request) => request.path.endsWith('/recipe/signup')).length;

describe('the login service’s attempt limits, on a real store and core', () => {
  it('20 parallel right sign-ins of one parked user: one creates it, every one is answered migrated, none 429', async () => {
    const [email = ''] = await park('crowd', 1);
    const service = await serve();
    const before = signUps();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => signIn(service, { email, password: vector.password, ...(index % 2 === 0 && { clientAddress: '203.0.113.9' }) })),
    );
    expect(answers.map((answer) => [answer.status, answer.outcome])).toEqual(Array.from({ length: 20 }, () => [200, 'migrated']));
    expect(signUps() - before).toBe(1);
  });

  it('60 parallel right sign-ins of different users without clientAddress: every one migrated, none 429', async () => {
    const emails = await park('many', 60);
    // Every sign-in is held until all 60 are under way at once (or answered without a check): the crowd arrives together.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let underWayOrAnswered = 0;
    const arrived = (): void => {
      underWayOrAnswered += 1;
      if (underWayOrAnswered === emails.length) open();
    };
    const service = await serve({ migrate: async (attempt) => (arrived(), await gate, migrateAtLogin(login, attempt)) });
    const answers = await Promise.all(
      emails.map((email) =>
        signIn(service, { email, password: vector.password }).then((answer) => {
          if (answer.status === 429) arrived();
          return answer;
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 429)).toEqual([]);
    expect(answers.map((answer) => answer.outcome)).toEqual(emails.map(() => 'migrated'));
  });

  it('5 wrong passwords from 5 addresses cannot lock a user out: the right one from a sixth address migrates it', async () => {
    const [email = ''] = await park('stranger', 1);
    const service = await serve();
    for (let address = 1; address <= 5; address += 1) {
      expect(await signIn(service, { email, password: vector.wrongPassword, clientAddress: `198.51.100.${address}` })).toMatchObject({
        status: 200,
        outcome: 'wrongCredentials',
      });
    }
    expect(await signIn(service, { email, password: vector.password, clientAddress: '203.0.113.9' })).toMatchObject({ status: 200, outcome: 'migrated' });
  });

  it('an unknown, a migrated and a parked email are limited alike: the same statuses and Retry-After under repeated wrong tries', async () => {
    const [migrated = '', parked = ''] = await park('alike', 2);
    const service = await serve({ now: () => 5_000_000 });
    expect((await signIn(service, { email: migrated, password: vector.password })).outcome).toBe('migrated');
    const tries = async (email: string, clientAddress: string): Promise<[number, string | null][]> => {
      const seen: [number, string | null][] = [];
      for (let attempt = 0; attempt < 7; attempt += 1) {
        const answer = await signIn(service, { email, password: vector.wrongPassword, clientAddress });
        seen.push([answer.status, answer.retryAfter]);
      }
      return seen;
    };
    const unknown = await tries('alike-nobody@example.com', '192.0.2.1');
    expect(unknown).toEqual([...Array.from({ length: 5 }, () => [200, null]), [429, '180'], [429, '180']]);
    expect(await tries(migrated, '192.0.2.2')).toEqual(unknown);
    expect(await tries(parked, '192.0.2.3')).toEqual(unknown);
  });

  it('25 wrong passwords for a migrated email are limited: from one client after 5, from anywhere after 20', async () => {
    const [email = ''] = await park('oracle', 1);
    const service = await serve({ now: () => 6_000_000 });
    expect((await signIn(service, { email, password: vector.password })).outcome).toBe('migrated');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 25; attempt += 1)
      statuses.push((await signIn(service, { email, password: `${vector.wrongPassword}${attempt}`, clientAddress: '192.0.2.9' })).status);
    expect(statuses).toEqual([...Array.from({ length: 5 }, () => 200), ...Array.from({ length: 20 }, () => 429)]);
    // Without a client (or from ever new ones), the email's own count: 20 a window, then one every 45 s.
    const unnamed: number[] = [];
    for (let attempt = 0; attempt < 25; attempt += 1) unnamed.push((await signIn(service, { email, password: `${vector.wrongPassword}${attempt}` })).status);
    expect(unnamed.indexOf(429)).toBe(15);
    expect(new Set(unnamed.slice(15))).toEqual(new Set([429]));
  });

  it('compares the client as an address: IPv4-mapped IPv6 is its IPv4 address, IPv6 in any spelling or of one /64 is one client', async () => {
    const emails = await park('forms', 2);
    const [first = '', second = ''] = emails;
    const service = await serve({ now: () => 7_000_000, settings: { limits: { maxFailuresPerEmailFromClient: 1 } } });
    const wrong = (email: string, clientAddress: string): Promise<Answer> => signIn(service, { email, password: vector.wrongPassword, clientAddress });
    expect((await wrong(first, '203.0.113.50')).status).toBe(200);
    expect((await wrong(first, '::ffff:203.0.113.50')).status).toBe(429);
    expect((await wrong(first, '::FFFF:CB00:7132')).status).toBe(429);
    expect((await wrong(first, '203.0.113.51')).status).toBe(200);

    expect((await wrong(second, '2001:db8::1')).status).toBe(200);
    for (const form of ['2001:DB8::1', '2001:0db8::1', '2001:db8:0:0:0:0:0:1', '2001:db8::abcd:1234']) expect((await wrong(second, form)).status).toBe(429);
    expect((await wrong(second, '2001:db8:0:1::1')).status).toBe(200);
  });
});

/** A request sent from a given local address (127.0.0.2 is this machine too), which fetch cannot choose. */
function fromAddress(service: LoginService, localAddress: string, key: string): Promise<{ status: number; retryAfter: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ email: 'x@example.com', password: 'x' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const outgoing = httpRequest(`${service.url}/migrate`, { method: 'POST', localAddress, headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, retryAfter: incoming.headers['retry-after'], text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the login service’s work and log for requests without its key', () => {
  it('logs a path cut to a short printable prefix: a 15 KB path costs the log one short line', async () => {
    const logs: RequestLogLine[] = [];
    const service = await serve({ log: (line) => logs.push(line) });
    const long = `/${'A'.repeat(15_000)}`;
    expect((await fetch(`${service.url}${long}?${'q'.repeat(500)}`)).status).toBe(404);
    expect((await fetch(`${service.url}/%1B%5B2J${'B'.repeat(100)}`)).status).toBe(404);
    const [first, second] = logs;
    expect(first?.path).toBe(`/${'A'.repeat(63)}…`);
    expect(second?.path).toMatch(/^\/%1B%5B2JB+…$/);
    for (const line of logs) expect(JSON.stringify(line).length).toBeLessThan(300);
  });

  it('shares /health: a flood of probes runs the readiness checks 3 times, then once every healthRoundSeconds, not once a probe', async () => {
    let time = 8_000_000;
    let rounds = 0;
    let reason: 'coreUnreachable' | undefined = undefined;
    const service = await serve({
      now: () => time,
      readiness: [{ name: 'core', check: () => Promise.resolve(((rounds += 1), reason)) }],
    });
    for (let probe = 0; probe < 40; probe += 1) expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect(rounds).toBe(3);
    // The core goes away: the flood is told the last answer until a round is due, then the new one.
    reason = 'coreUnreachable';
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect(rounds).toBe(3);
    time += 5_000;
    for (let probe = 0; probe < 10; probe += 1) expect((await fetch(`${service.url}/health`)).status).toBe(503);
    expect(rounds).toBe(4);
  });

  it('limits wrong service keys per connecting address (429, Retry-After), holds no other address, and logs the client of each', async () => {
    const logs: RequestLogLine[] = [];
    const service = await serve({ now: () => 9_000_000, log: (line) => logs.push(line) });
    const wrongKey = 'a-wrong-service-key-0123456789';
    for (let guess = 0; guess < 10; guess += 1) expect((await fromAddress(service, '127.0.0.1', `${wrongKey}${guess}`)).status).toBe(401);
    const held = await fromAddress(service, '127.0.0.1', wrongKey);
    expect([held.status, held.retryAfter, ServiceRefusalSchema.parse(JSON.parse(held.text)).code]).toEqual([429, '6', 'serviceKeyAttemptsExceeded']);
    // Held whatever key it sends, so guessing stays bounded; another address is not held.
    expect((await fromAddress(service, '127.0.0.1', SERVICE_KEY)).status).toBe(429);
    expect((await fromAddress(service, '127.0.0.2', SERVICE_KEY)).status).toBe(200);
    expect((await fromAddress(service, '127.0.0.2', wrongKey)).status).toBe(401);
    expect(logs.map((line) => [line.status, line.client])).toEqual([
      ...Array.from({ length: 10 }, () => [401, '127.0.0.1']),
      [429, '127.0.0.1'],
      [429, '127.0.0.1'],
      [200, '127.0.0.2'],
      [401, '127.0.0.2'],
    ]);
    expect(JSON.stringify(logs)).not.toContain(wrongKey);
  });
});
