import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

export interface RoundRobinProxy {
  /** The one address clients use, as a Service's. */
  url: string;
  /** Connections given to each backend so far, in the order the backends were given. */
  connections: number[];
  /** HTTP requests each backend was sent so far (request lines counted in the bytes the proxy copied). */
  requests: number[];
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy that gives each new connection to the next backend in turn and then only copies bytes: how a
 * Kubernetes Service spreads load (kube-proxy chooses a pod per connection, round-robin in IPVS mode, at random in
 * iptables mode), with an extra hop on this machine that a cluster's kernel-level forwarding does not have.
 */
export async function startRoundRobinProxy(backends: readonly string[]): Promise<RoundRobinProxy> {
  const targets = backends.map((backend) => new URL(backend));
  const connections = targets.map(() => 0);
  const requests = targets.map(() => 0);
  const sockets = new Set<Socket>();
  let next = 0;
  const server = createServer((client) => {
    const index = next % targets.length;
    next += 1;
    const target = targets[index];
    if (target === undefined) return void client.destroy();
    connections[index] = (connections[index] ?? 0) + 1;
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    // Either end going away takes the other with it, as a closed connection through a Service does.
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on(
      'data',
      countRequests((count) => (requests[index] = (requests[index] ?? 0) + count)),
    );
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy is not listening on a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

const REQUEST_LINE = 'POST /';

/**
 * Counts request lines in a client's bytes, across chunk boundaries. The push sends only POSTs, and its JSON bodies
 * cannot hold the text `POST /` at the start of a request: close enough to count requests without parsing HTTP.
 */
function countRequests(add: (count: number) => void): (chunk: Buffer) => void {
  let carried = '';
  return (chunk) => {
    const text = carried + chunk.toString('latin1');
    let count = 0;
    for (let at = text.indexOf(REQUEST_LINE); at !== -1; at = text.indexOf(REQUEST_LINE, at + REQUEST_LINE.length)) count += 1;
    add(count);
    // What could be the start of a request line cut by the chunk's end is looked at again with the next chunk.
    carried = text.slice(-(REQUEST_LINE.length - 1));
  };
}
