import { createServer } from 'node:http';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { runPreflight, type PreflightReport } from '../../../core-client/src/connection/preflight.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';

const API_KEY = 'preflight-api-key-0123456789-abc';
const WRONG_KEY = 'wrong-api-key-0123456789-abcdefg';

let core: CoreDouble;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['tenant-a'], apps: ['app-a'], port: 0 });
});

afterAll(async () => {
  await core.close();
});

async function preflight(settings: { baseUrl: string; apiKey: string; tenantId?: string; appId?: string }): Promise<PreflightReport> {
  const apiKey = new Secret(settings.apiKey);
  const client = new CoreClient({ ...settings, apiKey });
  try {
    return await runPreflight(client);
  } finally {
    await client.close();
  }
}

function statuses(report: PreflightReport): Record<string, string> {
  return Object.fromEntries(report.steps.map((step) => [step.name, step.status]));
}

describe('runPreflight against the core double', () => {
  it('passes every step and reports versions and the round-trip time, creating no user', async () => {
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY, tenantId: 'tenant-a' });
    expect(report.ok).toBe(true);
    expect(statuses(report)).toEqual({ reachable: 'ok', keyAccepted: 'ok', tenantExists: 'ok', scryptName: 'ok' });
    expect(report.versions?.length).toBeGreaterThan(0);
    expect(report.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(report.failure).toBeUndefined();
    expect(report.steps[2]?.sentence).toBe('Tenant "tenant-a" exists.');
    expect(core.users()).toEqual([]);
  });

  it('probes the tenant under its app path', async () => {
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY, tenantId: 'tenant-a', appId: 'app-a' });
    expect(report.ok).toBe(true);
    expect(report.steps[2]?.sentence).toBe('Tenant "tenant-a" of app "app-a" exists.');
    const probe = core.requests().at(-1);
    expect(probe?.method).toBe('POST');
    expect(probe?.path).toBe('/appid-app-a/tenant-a/recipe/user/passwordhash/import');
  });

  it('lists the versions oldest first', async () => {
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY });
    const versions = report.versions ?? [];
    const numeric = versions.map((version) => version.split('.').map(Number));
    const sorted = [...numeric].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
    expect(numeric).toEqual(sorted);
  });

  it('fails the key step on a wrong key (401) and skips the tenant', async () => {
    const report = await preflight({ baseUrl: core.url, apiKey: WRONG_KEY });
    expect(report.ok).toBe(false);
    expect(statuses(report)).toEqual({ reachable: 'ok', keyAccepted: 'failed', tenantExists: 'skipped', scryptName: 'skipped' });
    expect(report.failure).toMatchObject({ step: 'keyAccepted', errorKind: 'authRejected' });
    expect(report.failure?.sentence).toContain('refused the api-key');
    expect(JSON.stringify(report)).not.toContain(WRONG_KEY);
  });

  it('fails the first step when nothing listens on the port', async () => {
    const gone = await startCoreDouble({ apiKeys: [API_KEY], port: 0 });
    await gone.close();
    const report = await preflight({ baseUrl: gone.url, apiKey: API_KEY });
    expect(report.ok).toBe(false);
    expect(statuses(report)).toEqual({ reachable: 'failed', keyAccepted: 'skipped', tenantExists: 'skipped', scryptName: 'skipped' });
    expect(report.failure).toMatchObject({ step: 'reachable', errorKind: 'transient' });
    expect(report.roundTripMs).toBeUndefined();
  });

  it('fails the tenant step for a tenant the core does not have', async () => {
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY, tenantId: 'no-such-tenant' });
    expect(statuses(report)).toEqual({ reachable: 'ok', keyAccepted: 'ok', tenantExists: 'failed', scryptName: 'skipped' });
    expect(report.failure).toMatchObject({ step: 'tenantExists', errorKind: 'tenantNotFound' });
    expect(report.failure?.sentence).toContain('no-such-tenant');
  });

  it('probes the tenant without creating a user', async () => {
    const before = core.users().length;
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY });
    expect(statuses(report)).toEqual({ reachable: 'ok', keyAccepted: 'ok', tenantExists: 'ok', scryptName: 'ok' });
    expect(core.users().length).toBe(before);
  });

  it('says a core URL has a path the core does not serve, as a real core answers it (403 to /apiversion), never that a recipe is disabled', async () => {
    // As a real core 10 at http://host:3567/auth: "/auth/hello" is served (the segment is read as a tenant), and
    // "/auth/apiversion" is refused 403 "Only public tenantId can call this API".
    const asRealCore = await startCoreDouble({ apiKeys: [API_KEY], port: 0, pathPrefix: '/auth' });
    try {
      asRealCore.faults.failRequestNumber(2, { status: 403, body: 'Only public tenantId can call this API' });
      const report = await preflight({ baseUrl: `${asRealCore.url}/auth`, apiKey: API_KEY });
      expect(statuses(report)).toEqual({ reachable: 'ok', keyAccepted: 'failed', tenantExists: 'skipped', scryptName: 'skipped' });
      expect(report.failure).toMatchObject({ step: 'keyAccepted', pathNotServed: '/auth' });
      expect(report.failure?.sentence).toBe(
        `The core URL ${asRealCore.url}/auth has a path (/auth) the core does not serve (it answered 403 to GET /auth/apiversion): a core answers at the ` +
          `root of its address and reads a first path segment as a tenant; give its address without the path (${asRealCore.url}), or the path of a proxy that serves the core under it.`,
      );
      expect(report.failure?.sentence).not.toContain('recipe is disabled');
    } finally {
      await asRealCore.close();
    }
  });

  it('says so too when the path is not served at all (404), and keeps the path of a proxy that serves the core under it', async () => {
    const unserved = await preflight({ baseUrl: `${core.url}/auth`, apiKey: API_KEY });
    expect(unserved.failure).toMatchObject({ step: 'reachable', pathNotServed: '/auth' });
    const proxied = await startCoreDouble({ apiKeys: [API_KEY], port: 0, pathPrefix: '/core' });
    try {
      const report = await preflight({ baseUrl: `${proxied.url}/core`, apiKey: API_KEY });
      expect(report.ok).toBe(true);
      // The same key refused at a served path is the key's fault, not the path's.
      const wrongKey = await preflight({ baseUrl: `${proxied.url}/core`, apiKey: WRONG_KEY });
      expect(wrongKey.failure).toMatchObject({ step: 'keyAccepted', errorKind: 'authRejected' });
      expect(wrongKey.failure?.pathNotServed).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('the scrypt variant: the pre-flight learns the name the core takes, without writing', () => {
  it('a core that takes the contract name: vendor_scrypt, learnt by one import that no core carries out', async () => {
    const before = core.requests().length;
    const report = await preflight({ baseUrl: core.url, apiKey: API_KEY });
    expect(report).toMatchObject({ ok: true, scryptAlgorithm: 'vendor_scrypt' });
    expect(report.steps.at(-1)).toMatchObject({ name: 'scryptName', status: 'ok', sentence: 'The core imports the scrypt variant as "vendor_scrypt".' });
    const probes = core
      .requests()
      .slice(before)
      .filter((request) => request.rawBody.includes('hashingAlgorithm'));
    expect(probes.map((request) => request.body)).toEqual([
      { email: 'core-migrate-probe@tenant.invalid', passwordHash: 'core-migrate-probe', hashingAlgorithm: 'vendor_scrypt' },
    ]);
    expect(core.writeCount()).toBe(0);
  });

  it('a core in the field, which takes firebase_scrypt: the client sends that name from then on', async () => {
    const field = await startCoreDouble({ apiKeys: [API_KEY], scryptAlgorithmName: 'firebase_scrypt' });
    const client = new CoreClient({ baseUrl: field.url, apiKey: new Secret(API_KEY) });
    try {
      const report = await runPreflight(client);
      expect(report).toMatchObject({ ok: true, scryptAlgorithm: 'firebase_scrypt' });
      expect(report.steps.at(-1)?.sentence).toBe(
        'The core imports the scrypt variant as "firebase_scrypt" (it does not know the contract\'s "vendor_scrypt").',
      );
      expect(client.scryptAlgorithmName).toBe('firebase_scrypt');
      expect(field.users()).toEqual([]);
    } finally {
      await client.close();
      await field.close();
    }
  });

  it('a core that knows neither name fails the step with a sentence naming both (a core answering unlike any of its kind)', async () => {
    const server = createServer((request, response) => {
      const answer =
        request.url === '/hello' ? 'Hello' : request.url === '/apiversion' ? '{"versions":["5.2"]}' : request.url?.endsWith('/import') ? '' : 'Not found';
      if (request.url?.endsWith('/import')) {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          response.writeHead(400, { 'content-type': 'text/html;charset=UTF-8' });
          response.end(body.includes('hashingAlgorithm') ? 'Unsupported password hashing algorithm\n' : 'Password hash is in invalid format\n');
        });
        return;
      }
      response.writeHead(answer === 'Not found' ? 404 : 200, { 'content-type': 'application/json;charset=UTF-8' });
      response.end(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const report = await preflight({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY });
      expect(report).toMatchObject({ ok: false, failure: { step: 'scryptName', errorKind: 'unexpected' } });
      expect(report.failure?.sentence).toContain('neither "vendor_scrypt" nor "firebase_scrypt"');
      expect(report.scryptAlgorithm).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
