import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { runPreflight } from '../../../core-client/src/connection/preflight.js';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { ContractViolation, TlsFailed, Transient, type TlsFailure } from '../../../core-client/src/http/errors.js';
import { Secret } from '../../../core-client/src/secret.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { makeThrowawayCertificates, startTlsFront, type KeyPair, type ThrowawayCertificates, type TlsFront } from '../../support/tls-servers.js';

const API_KEY = 'tls-api-key-0123456789-abcdefghij';

let core: CoreDouble;
let certificates: ThrowawayCertificates;
const fronts: TlsFront[] = [];

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY], port: 0 });
  certificates = makeThrowawayCertificates();
});

afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()));
  await core.close();
});

async function front(pair: (all: ThrowawayCertificates) => KeyPair): Promise<TlsFront> {
  const started = await startTlsFront(pair(certificates), core.port);
  fronts.push(started);
  return started;
}

function client(baseUrl: string, ca?: string): CoreClient {
  return new CoreClient({ baseUrl, apiKey: new Secret(API_KEY), ...(ca === undefined ? {} : { ca }) });
}

async function failureOf(baseUrl: string, ca?: string): Promise<TlsFailed> {
  const probe = client(baseUrl, ca);
  try {
    const error: unknown = await probe.hello().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(TlsFailed);
    return error as TlsFailed;
  } finally {
    await probe.close();
  }
}

describe('a core that cannot be reached over TLS is one sentence, never a stack', () => {
  it('https:// to a core that speaks plain HTTP: says so and gives the http:// fix', async () => {
    const error = await failureOf(core.url.replace('http://', 'https://'));
    expect(error.failure satisfies TlsFailure).toBe('notTls');
    expect(error.message).toContain('does not speak TLS on that port (ERR_SSL_WRONG_VERSION_NUMBER)');
    expect(error.message).toContain('http:// instead of https://');
    expect(core.requests()).toEqual([]);
  });

  it.each([
    ['a self-signed certificate', (all: ThrowawayCertificates) => all.selfSigned, false, 'untrustedCertificate', '--ca-file FILE'],
    ['a certificate of a private authority', (all: ThrowawayCertificates) => all.trusted, false, 'untrustedCertificate', '--ca-file FILE'],
    [
      'a certificate for another name (its authority trusted)',
      (all: ThrowawayCertificates) => all.otherName,
      true,
      'nameMismatch',
      'a host name the certificate names',
    ],
    ['an expired certificate (its authority trusted)', (all: ThrowawayCertificates) => all.expired, true, 'expiredCertificate', "renew the core's certificate"],
    [
      'an expired certificate of an authority not trusted',
      (all: ThrowawayCertificates) => all.expired,
      false,
      'expiredCertificate',
      "renew the core's certificate",
    ],
  ] as const)('%s', async (_name, pair, trustAuthority, failure, fix) => {
    const tls = await front(pair);
    const error = await failureOf(tls.url, trustAuthority ? readFileSync(certificates.caFile, 'utf8') : undefined);
    expect(error.failure).toBe(failure);
    expect(error.message).toContain(fix);
    expect(error.message).toContain(tls.url);
    // Not tried again: the same handshake would fail the same way.
    expect(tls.connections()).toBe(1);
  });

  it("the pre-flight's reachable step fails with the sentence, and nothing after it is tried", async () => {
    const tls = await front((all) => all.expired);
    const probe = client(tls.url);
    try {
      const report = await runPreflight(probe);
      expect(report.ok).toBe(false);
      expect(report.failure).toMatchObject({ step: 'reachable', errorKind: 'tlsFailed' });
      expect(report.failure?.sentence).toContain('CERT_HAS_EXPIRED');
      expect(report.steps.map((step) => step.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    } finally {
      await probe.close();
    }
  });

  it('http:// to a core that speaks TLS: the sentence says that a TLS server closes plain HTTP unanswered', async () => {
    const tls = await front((all) => all.trusted);
    const probe = client(tls.url.replace('https://', 'http://'));
    try {
      const report = await runPreflight(probe);
      expect(report.failure?.errorKind).toBe('transient');
      expect(report.failure?.sentence).toContain('UND_ERR_SOCKET');
      expect(report.failure?.sentence).toContain('if so, use https://');
      const error: unknown = await probe.hello({ retry: false }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Transient);
    } finally {
      await probe.close();
    }
  });

  it('a port where another protocol answers: a sentence about the address, not a parser stack', async () => {
    const other = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const probe = client(`http://127.0.0.1:${(other.address() as AddressInfo).port}`);
    try {
      const error: unknown = await probe.hello({ retry: false }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ContractViolation);
      expect((error as ContractViolation).message).toContain('did not answer GET /hello in HTTP');
      expect((await runPreflight(probe)).failure).toMatchObject({ step: 'reachable', errorKind: 'contractViolation' });
    } finally {
      await probe.close();
      other.close();
    }
  });

  it('the authority given as `ca` is trusted: the same core answers over TLS', async () => {
    const tls = await front((all) => all.trusted);
    const trusting = client(tls.url, readFileSync(certificates.caFile, 'utf8'));
    try {
      const report = await runPreflight(trusting);
      expect(report.ok).toBe(true);
      expect(tls.connections()).toBeGreaterThan(0);
    } finally {
      await trusting.close();
    }
  });
});
