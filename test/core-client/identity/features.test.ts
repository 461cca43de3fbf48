import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { IdentityProbeError, probeIdentityFeatures } from '../../../core-client/src/identity/features.js';
import { Secret } from '../../../core-client/src/secret.js';

let server: Server | undefined;
let client: CoreClient | undefined;

afterEach(async () => {
  await client?.close();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = client = undefined;
});

/** A core that answers each identity call with the status `answerFor` picks by path. */
async function coreAnswering(answerFor: (path: string) => { status: number; body: string }): Promise<CoreClient> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const { status, body } = answerFor(new URL(request.url ?? '/', 'http://core').pathname);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new CoreClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: new Secret('probe-test-api-key-0123456789') });
  return client;
}

describe('probing the identity calls', () => {
  it('reads a 400 as a call that exists (it refused a body with nothing to act on) and a 404 as a call the core lacks', async () => {
    const core = await coreAnswering((path) => (path.includes('/userid/map') ? { status: 400, body: 'Invalid userId' } : { status: 404, body: 'Not found' }));
    const support = await probeIdentityFeatures(core);
    expect(support).toMatchObject({ mapping: true, verification: false, metadata: false, lookup: false, removal: false });
  });

  it('takes a 200 to an empty write for an address that is not a core of this kind, not for a call it has', async () => {
    const core = await coreAnswering(() => ({ status: 200, body: '{"status":"OK"}' }));
    const failure = await probeIdentityFeatures(core).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(IdentityProbeError);
    expect((failure as IdentityProbeError).message).toMatch(/carried out POST \/recipe\/userid\/map with an empty body.*check the core address/);
  });

  it('turns any other answer into one typed error with a sentence, never a raw stack', async () => {
    const core = await coreAnswering(() => ({ status: 500, body: 'java.lang.NullPointerException' }));
    const failure = await probeIdentityFeatures(core).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(IdentityProbeError);
    expect((failure as IdentityProbeError).message).toMatch(/nothing was sent\. Run core-migrate check/);
  });
});
