import type { ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreClient, type CoreClientOptions } from '../../../core-client/src/http/core-client.js';
import { ContractViolation, Transient } from '../../../core-client/src/http/errors.js';
import { CoreClientConfigError } from '../../../core-client/src/http/target.js';
import type { RetryPolicy } from '../../../core-client/src/http/retry.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startJunkServer } from './junk-server.js';

const API_KEY = 'bounds-test-key-0123456789';
const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const fastRetry: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50, maxTotalMs: 60_000 };
const importBody = { email: 'ann@example.com', passwordHash: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' };

const servers: { close: () => Promise<void> }[] = [];
const clients: CoreClient[] = [];

/** A node:http server on 127.0.0.1, port 0, that answers as `answer` says once the request is read. */
async function misbehaving(answer: (response: ServerResponse) => void): Promise<{ url: string }> {
  const server = await startJunkServer((_request, _body, response) => answer(response));
  servers.push(server);
  return server;
}

function clientFor(url: string, sleeps: number[], options: Partial<CoreClientOptions> = {}): CoreClient {
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

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('Retry-After is honoured up to a cap', () => {
  for (const value of ['86400', '99999999999', '9'.repeat(400), 'Wed, 01 Jan 3000 00:00:00 GMT']) {
    it(`Retry-After: ${value.slice(0, 30)} is a transient failure retried with normal backoff, not a wait`, async () => {
      const server = await misbehaving((response) => {
        response.writeHead(429, { 'retry-after': value, 'content-type': 'text/plain' });
        response.end('slow down');
      });
      const sleeps: number[] = [];
      const error = await clientFor(server.url, sleeps, {
        retry: { ...fastRetry, maxTotalMs: 500 },
        retryHooks: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
      })
        .importPasswordHash(importBody)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Transient);
      expect((error as Transient).retryAfterMs).toBeUndefined();
      expect((error as Transient).message).toMatch(/longer than the 60s this client waits at most/);
      // A push-back uses no attempt: it was waited out until the total budget, each wait within the normal backoff.
      expect(sleeps.length).toBeGreaterThan(fastRetry.maxAttempts);
      for (const ms of sleeps) expect(ms).toBeLessThanOrEqual(fastRetry.maxDelayMs);
      expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(500);
    });
  }

  it('a Retry-After within the cap is waited exactly; the cap is a client option', async () => {
    let retryAfter = '2';
    const server = await misbehaving((response) => {
      response.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'text/plain' });
      response.end('slow down');
    });
    const sleeps: number[] = [];
    const client = clientFor(server.url, sleeps, { maxRetryAfterMs: 2_000, retry: { ...fastRetry, maxTotalMs: 3_000 } });
    await expect(client.importPasswordHash(importBody)).rejects.toBeInstanceOf(Transient);
    expect(sleeps).toEqual([2_000]);
    retryAfter = '3';
    const error = (await client.importPasswordHash(importBody).catch((caught: unknown) => caught)) as Transient;
    expect(error.retryAfterMs).toBeUndefined();
    expect(sleeps.length).toBeGreaterThan(1);
    for (const ms of sleeps.slice(1)) expect(ms).toBeLessThanOrEqual(fastRetry.maxDelayMs);
  });
});

describe('timers a client sets stay within what setTimeout can count', () => {
  it.each([{ requestTimeoutMs: 2 ** 31 }, { maxRetryAfterMs: 99_999_999_999_000 }])('refuses %j', (options) => {
    expect(() => new CoreClient({ baseUrl: 'http://127.0.0.1:9', apiKey: new Secret(API_KEY), ...options })).toThrow(CoreClientConfigError);
  });
});

describe('answer bodies are capped', () => {
  it('stops reading a 64 MiB answer early: a contract violation, and the server sees the socket closed', async () => {
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    let closedEarly: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (closedEarly = resolve));
    const server = await misbehaving((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = (): void => {
        while (written < total && !response.destroyed) {
          written += piece.length;
          if (!response.write(piece)) {
            response.once('drain', pump);
            return;
          }
        }
        if (written >= total) response.end();
      };
      response.on('close', () => {
        if (written < total) closedEarly();
      });
      pump();
    });
    const error = await clientFor(server.url, [], { retry: false })
      .importPasswordHash(importBody)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as Error).message).toMatch(/longer than 1 MiB/);
    await closed;
    expect(written).toBeLessThan(total);
  });

  it('refuses an answer whose Content-Length is over the cap without reading it', async () => {
    const server = await misbehaving((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) });
      response.write('{"status":"OK"');
    });
    const error = await clientFor(server.url, [], { retry: false })
      .importPasswordHash(importBody)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractViolation);
  });
});

describe('one deadline for headers and body together', () => {
  it.each([
    ['chunked', {}],
    ['with a declared length', { 'content-length': '100000' }],
  ])('a body that trickles forever (%s) ends as a timeout, not a hang', async (_name, lengthHeader) => {
    const timers: NodeJS.Timeout[] = [];
    const server = await misbehaving((response) => {
      response.writeHead(200, { 'content-type': 'application/json', ...lengthHeader });
      response.write('{');
      // A byte well within undici's per-chunk timeout, forever.
      timers.push(setInterval(() => response.write(' '), 50));
    });
    try {
      const error = await clientFor(server.url, [], { retry: false, requestTimeoutMs: 400 })
        .importPasswordHash(importBody)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Transient);
      expect((error as Transient).reason).toBe('timeout');
      expect((error as Error).message).toMatch(/within 400 ms \(headers and body together\)/);
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it('headers that trickle forever end as a timeout too', async () => {
    // Below HTTP: a status line, then one byte of a header every 50 ms, never the blank line that ends the headers.
    const timers: NodeJS.Timeout[] = [];
    const server = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
        timers.push(setInterval(() => socket.writable && socket.write('a'), 50));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await clientFor(`http://127.0.0.1:${port}`, [], { retry: false, requestTimeoutMs: 400 })
        .importPasswordHash(importBody)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Transient);
      expect((error as Transient).reason).toBe('timeout');
    } finally {
      for (const timer of timers) clearInterval(timer);
      // The client's socket is the server's last connection: closed first, so the server can close.
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("the caller's abort ends a request whose body never ends, with the caller's reason", async () => {
    const server = await misbehaving((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
    });
    const stop = new AbortController();
    const pending = clientFor(server.url, [], { retry: false }).importPasswordHash(importBody, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('stopped by the operator')), 100);
    await expect(pending).rejects.toThrow('stopped by the operator');
  });
});

describe('the signer key is redacted like the api-key', () => {
  it('a core that echoes the signer key in an error body never gets it into the error', async () => {
    const server = await misbehaving((response) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`Invalid hash for signer key ${SIGNER_KEY} and api key ${API_KEY}`);
    });
    const error = await clientFor(server.url, [], { retry: false, redact: [new Secret(SIGNER_KEY)] })
      .importPasswordHash(importBody)
      .catch((caught: unknown) => caught);
    const text = JSON.stringify({ message: (error as Error).message, coreMessage: (error as { coreMessage?: string }).coreMessage });
    expect(text).not.toContain(SIGNER_KEY);
    expect(text).not.toContain(API_KEY);
    expect(text).toContain('***');
  });
});
