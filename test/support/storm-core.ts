import { type IncomingMessage, type ServerResponse, Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ERROR_CONTENT_TYPE } from '../../core-client/src/contract/names.js';

export interface StormCoreOptions {
  /** How long every request is answered 429 once the storm begins. */
  stormMs: number;
  /** The Retry-After each 429 carries, in seconds. Default 1, as the gateways seen in front of cores send. */
  retryAfterSeconds?: number;
  /** Default: the storm begins with the first request. `false`: only when `begin()` is called. */
  beginOnFirstRequest?: boolean;
}

export interface StormCore {
  /** Where to point a command: the storm in front of the core. */
  url: string;
  /** Starts (or restarts) the storm now. */
  begin(): void;
  /** Requests answered 429 so far. */
  pushBacks(): number;
  /** Requests passed on to the core so far. */
  forwarded(): number;
  close(): Promise<void>;
}

/**
 * A rate limit in front of a core (a gateway, or the core's own): once the storm begins, every request for `stormMs`
 * is answered 429 `Too Many Requests` with `Retry-After`, and nothing reaches the core; afterwards every request is
 * passed on to `core` as it came, and its answer back as it came. Bound to 127.0.0.1, port 0.
 */
export async function startStormCore(core: { url: string }, options: StormCoreOptions): Promise<StormCore> {
  const target = new URL(core.url);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let stormUntil: number | undefined;
  let pushBacks = 0;
  let forwarded = 0;
  const begin = (): void => {
    stormUntil = performance.now() + options.stormMs;
  };

  const pushBack = (request: IncomingMessage, response: ServerResponse): void => {
    pushBacks += 1;
    // The body is read so that the connection stays usable, as a gateway would.
    request.resume();
    request.on('end', () => {
      response.writeHead(429, { 'content-type': ERROR_CONTENT_TYPE, 'retry-after': String(options.retryAfterSeconds ?? 1) });
      response.end('Too Many Requests\n');
    });
  };

  const forward = (request: IncomingMessage, response: ServerResponse): void => {
    forwarded += 1;
    const onward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    onward.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': ERROR_CONTENT_TYPE });
      response.end('Bad Gateway\n');
    });
    request.pipe(onward);
  };

  const server = createServer((request, response) => {
    if (stormUntil === undefined && options.beginOnFirstRequest !== false) begin();
    if (stormUntil !== undefined && performance.now() < stormUntil) pushBack(request, response);
    else forward(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    begin,
    pushBacks: () => pushBacks,
    forwarded: () => forwarded,
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
