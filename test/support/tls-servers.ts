import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';

/** A key and certificate in PEM. */
export interface KeyPair {
  key: string;
  cert: string;
}

/**
 * Throwaway certificates made with `openssl` for one suite: a private authority (`caFile`, to trust it), and server
 * certificates for 127.0.0.1 signed by it (`trusted`), for another name (`otherName`), out of their dates (`expired`),
 * and one signed by nobody (`selfSigned`). EC P-256 keys: quick to make.
 */
export interface ThrowawayCertificates {
  caFile: string;
  trusted: KeyPair;
  otherName: KeyPair;
  expired: KeyPair;
  selfSigned: KeyPair;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

function signed(dir: string, name: string, altName: string, days: number): KeyPair {
  openssl(dir, ['req', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${altName}\n`);
  // A negative number of days gives a certificate whose end lies before its start: expired from its first second.
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    String(days),
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ]);
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
}

export function makeThrowawayCertificates(): ThrowawayCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'tls-'));
  openssl(dir, ['req', '-x509', ...NEW_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=throwaway test authority']);
  openssl(dir, [
    'req',
    '-x509',
    ...NEW_KEY,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return {
    caFile: join(dir, 'ca.pem'),
    trusted: signed(dir, 'trusted', 'IP:127.0.0.1', 2),
    otherName: signed(dir, 'other', 'DNS:core.other.invalid', 2),
    expired: signed(dir, 'expired', 'IP:127.0.0.1', -1),
    selfSigned: { key: readFileSync(join(dir, 'self.key'), 'utf8'), cert: readFileSync(join(dir, 'self.pem'), 'utf8') },
  };
}

export interface TlsFront {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  /** The certificate new connections are shown from now on (connections already made keep theirs). */
  useCertificate: (pair: KeyPair) => void;
  /** From now on, `change` as `startTlsFront` takes it. */
  changeCertificateWhen: (change: CertificateChange) => void;
  /** Connections opened so far (a refused handshake counts too). */
  connections: () => number;
  close: () => Promise<void>;
}

/**
 * A TLS server on 127.0.0.1 (port 0) showing `pair`; with `forwardTo` (a plain HTTP core's port) each connection's
 * bytes go through to it, so a client that trusts the certificate talks to that core over TLS. With `change`, once a
 * request whose bytes hold `when` has gone through, the other connections are closed and every new one is shown `to`
 * instead (a core restarted with another certificate during a run).
 */
export interface CertificateChange {
  when: string;
  to: KeyPair;
}

export async function startTlsFront(pair: KeyPair, forwardTo?: number, firstChange?: CertificateChange): Promise<TlsFront> {
  let change = firstChange;
  let changed = false;
  let connections = 0;
  const open = new Set<TLSSocket>();
  const server: Server = createServer({ key: pair.key, cert: pair.cert }, (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    if (forwardTo === undefined) return void socket.end();
    const core = connect(forwardTo, '127.0.0.1');
    socket.pipe(core).pipe(socket);
    socket.on('data', (chunk: Buffer) => {
      if (change === undefined || changed || !chunk.toString('latin1').includes(change.when)) return;
      changed = true;
      server.setSecureContext({ key: change.to.key, cert: change.to.cert });
      for (const other of open) if (other !== socket) other.destroy();
    });
    socket.on('error', () => core.destroy());
    core.on('error', () => socket.destroy());
  });
  // A client that refuses the certificate ends the handshake: that is what the tests are about, not a server error.
  server.on('tlsClientError', () => undefined);
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    useCertificate: (next) => server.setSecureContext({ key: next.key, cert: next.cert }),
    changeCertificateWhen: (next) => {
      change = next;
      changed = false;
    },
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
