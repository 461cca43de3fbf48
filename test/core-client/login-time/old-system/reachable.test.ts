import { afterEach, describe, expect, it } from 'vitest';
import { OldSystemSettingsSchema } from '../../../../core-client/src/login-time/old-system/old-system-settings.js';
import type { OldSystemVerifier } from '../../../../core-client/src/login-time/old-system/old-system-verifier.js';
import { openOldSystemVerifier } from '../../../../core-client/src/login-time/old-system/open-old-system.js';
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from './scripted-server.js';

// Each old system is a small server of the test's own on 127.0.0.1 (the emulators' own answers to the probe are what
// test/tui/commands/old-system-*.test.ts start the service against).
const ENV = { OLD_SYSTEM_KEY: 'key-never-sent-by-a-probe', OLD_SYSTEM_SECRET: 'secret-never-sent-by-a-probe' };

let server: ScriptedServer | undefined;
let verifier: OldSystemVerifier | undefined;

afterEach(async () => {
  await verifier?.close();
  await server?.close();
  verifier = undefined;
  server = undefined;
});

async function open(settings: unknown): Promise<OldSystemVerifier> {
  const opened = await openOldSystemVerifier(OldSystemSettingsSchema.parse(settings), { cwd: process.cwd(), env: ENV });
  if (!('check' in opened)) throw opened;
  verifier = opened;
  return opened;
}

const kinds: Array<[string, (url: string) => object, string]> = [
  [
    'firebase',
    (url) => ({ kind: 'firebase', apiKey: { env: 'OLD_SYSTEM_KEY' }, endpoint: `${url}/identitytoolkit.googleapis.com` }),
    '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword',
  ],
  ['cognito', (url) => ({ kind: 'cognito', region: 'eu-west-1', clientId: 'web', clientSecret: { env: 'OLD_SYSTEM_SECRET' }, endpoint: url }), '/'],
  [
    'openid',
    (url) => ({ kind: 'openid', tokenEndpoint: `${url}/realms/old/token?tenant=a`, clientId: 'migrator', clientSecret: { env: 'OLD_SYSTEM_SECRET' } }),
    '/realms/old/token',
  ],
  ['http', (url) => ({ kind: 'http', url: `${url}/api/check-password`, bearerToken: { env: 'OLD_SYSTEM_KEY' } }), '/api/check-password'],
  ['okta', (url) => ({ kind: 'okta', orgUrl: url, apiToken: { env: 'OLD_SYSTEM_SECRET' } }), '/api/v1/authn'],
];

describe.each(kinds)('whether the old system (%s) can be reached', (_kind, settings, probedPath) => {
  it('is asked a plain GET with no key, no email and no password: any answer below 500 is there, a 5xx is not', async () => {
    let answer: ScriptedAnswer = { status: 405, body: { message: 'Method GET not allowed' } };
    server = await startScriptedServer(() => answer);
    const opened = await open(settings(server.url));
    expect(await opened.reachable()).toBe(true);
    answer = { status: 404 };
    expect(await opened.reachable()).toBe(true);
    answer = { status: 502 };
    expect(await opened.reachable()).toBe(false);
    expect(server.received.map(({ method, path, body }) => ({ method, path, body }))).toEqual(
      Array.from({ length: 3 }, () => ({ method: 'GET', path: probedPath, body: '' })),
    );
    const sent = JSON.stringify(server.received);
    for (const secret of Object.values(ENV)) expect(sent).not.toContain(secret);
    expect(server.received.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('is not there when nothing listens any more, or nothing answers within its time', async () => {
    let hang = false;
    server = await startScriptedServer(() => (hang ? { status: 200, hang: true } : { status: 404 }));
    const opened = await open({ ...settings(server.url), timeoutMs: 300 });
    hang = true;
    expect(await opened.reachable()).toBe(false);
    await server.close();
    expect(await opened.reachable()).toBe(false);
  });
});
