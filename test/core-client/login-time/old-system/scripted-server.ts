import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** What the scripted server received for one request. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the verifier's own time bound must end the call). */
  hang?: boolean;
}

/**
 * A small HTTP server of the test's own on 127.0.0.1, standing in for an old system the tests cannot run (an OpenID
 * provider, an old backend) or for answers an emulator never gives (the hosted Firebase's and Cognito's): each
 * request is answered by `answer`, and kept for the test to look at.
 */
export interface ScriptedServer {
  url: string;
  received: Received[];
  answer: (request: Received) => ScriptedAnswer;
  close(): Promise<void>;
}

/** `port`: 0 for any free one; a given one brings an old system back where a running service looks for it. */
export async function startScriptedServer(answer: (request: Received) => ScriptedAnswer, port = 0): Promise<ScriptedServer> {
  const scripted: ScriptedServer = { url: '', received: [], answer, close: () => Promise.resolve() };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: Received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      scripted.received.push(received);
      const reply = scripted.answer(received);
      if (reply.hang === true) return;
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the scripted server listens on TCP');
  scripted.url = `http://127.0.0.1:${address.port}`;
  scripted.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return scripted;
}
