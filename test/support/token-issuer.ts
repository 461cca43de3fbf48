import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { base64url, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A token issuer of the test's own on 127.0.0.1: keys made here with jose, published as a JWKS (at an OpenID
 * provider's discovery path, or at a path shaped as Google's securetoken keys), tokens signed with them. It can
 * misbehave as an issuer's key endpoint might (hang, trickle, answer too much, garbage, an error, a redirect).
 */
export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export type KeysMisbehaviour = 'hang' | 'trickle' | 'huge' | 'hugeChunked' | 'garbage' | 'notKeySet' | 'emptyKeySet' | 'status500' | 'redirect';

export interface TestIssuer {
  /** Its base URL, `http://127.0.0.1:PORT`. */
  url: string;
  /** The issuer's name (`iss`): `url` + `issuerPath`. */
  issuer: string;
  /** The key set's URL. */
  keysUrl: string;
  /** Each path asked, in order. */
  requests: string[];
  /** The keys published now. */
  published: SigningKey[];
  /** Sent with the key set; undefined sends none. */
  cacheControl: string | undefined;
  keysMisbehave: KeysMisbehaviour | undefined;
  /** Replaces the discovery document's body. */
  discovery: unknown;
  keysAsked(): number;
  close(): Promise<void>;
}

export async function makeSigningKey(kid: string, alg: SigningKey['alg'] = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A token signed with `key`; `header` may change or add header parameters (another `kid`, a `typ`). */
export function signToken(key: SigningKey, claims: JWTPayload, header: Record<string, string> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }).sign(key.privateKey);
}

/** A token with `alg: none` and no signature, as the Firebase Auth emulator issues. */
export function unsignedToken(claims: JWTPayload, header: Record<string, string> = {}): string {
  const part = (value: unknown): string => base64url.encode(JSON.stringify(value));
  return `${part({ alg: 'none', typ: 'JWT', ...header })}.${part(claims)}.`;
}

/** Claims a token may carry, its times around `nowSeconds`. */
export function timesAround(nowSeconds: number, lifetimeSeconds = 3600): { iat: number; exp: number } {
  return { iat: nowSeconds - 10, exp: nowSeconds + lifetimeSeconds };
}

export async function startTestIssuer(options: { issuerPath?: string; keysPath?: string } = {}): Promise<TestIssuer> {
  const issuerPath = options.issuerPath ?? '/realms/app';
  const keysPath = options.keysPath ?? '/realms/app/protocol/openid-connect/certs';
  const issuer: TestIssuer = {
    url: '',
    issuer: '',
    keysUrl: '',
    requests: [],
    published: [],
    cacheControl: undefined,
    keysMisbehave: undefined,
    discovery: undefined,
    keysAsked: () => issuer.requests.filter((path) => path === keysPath).length,
    close: () => Promise.resolve(),
  };
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    issuer.requests.push(path);
    if (path === `${issuerPath}/.well-known/openid-configuration`) {
      const body = issuer.discovery ?? { issuer: issuer.issuer, jwks_uri: issuer.keysUrl, id_token_signing_alg_values_supported: ['RS256'] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } else if (path === keysPath) {
      answerKeys(issuer, request, response);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the issuer listens on TCP');
  issuer.url = `http://127.0.0.1:${address.port}`;
  issuer.issuer = `${issuer.url}${issuerPath}`;
  issuer.keysUrl = `${issuer.url}${keysPath}`;
  issuer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return issuer;
}

function answerKeys(issuer: TestIssuer, request: IncomingMessage, response: ServerResponse): void {
  const json = { 'content-type': 'application/json' };
  switch (issuer.keysMisbehave) {
    case 'hang':
      return;
    case 'trickle': {
      // The headers at once, then a byte now and then: only a bound on the whole call ends it.
      response.writeHead(200, json);
      const timer = setInterval(() => response.write(' '), 50);
      request.socket.once('close', () => clearInterval(timer));
      return;
    }
    case 'huge': {
      const body = JSON.stringify({ keys: [{ kty: 'oct', k: 'x'.repeat(300 * 1024) }] });
      response.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(body)) }).end(body);
      return;
    }
    case 'hugeChunked': {
      // No Content-Length: the size is known only as it streams, up to 4 MiB if nobody stops reading.
      response.writeHead(200, json);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = (): void => {
        while (sent < 64 && !response.destroyed) {
          sent += 1;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
      return;
    }
    case 'garbage':
      response.writeHead(200, json).end('<html>keys moved</html>');
      return;
    case 'notKeySet':
      response.writeHead(200, json).end(JSON.stringify({ keys: 'none today' }));
      return;
    case 'emptyKeySet':
      response.writeHead(200, json).end(JSON.stringify({ keys: [] }));
      return;
    case 'status500':
      response.writeHead(500, json).end('{}');
      return;
    case 'redirect':
      response.writeHead(302, { location: 'http://127.0.0.1:1/keys' }).end();
      return;
    case undefined:
      response
        .writeHead(200, { ...json, ...(issuer.cacheControl !== undefined && { 'cache-control': issuer.cacheControl }) })
        .end(JSON.stringify({ keys: issuer.published.map((key) => key.publicJwk) }));
  }
}
