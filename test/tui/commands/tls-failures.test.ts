import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { makeThrowawayCertificates, startTlsFront, type KeyPair, type ThrowawayCertificates, type TlsFront } from '../../support/tls-servers.js';
import { API_KEY, runCli, writeExport, type Run } from './push-support.js';

let core: CoreDouble;
let folder: string;
let certificates: ThrowawayCertificates;
const fronts: TlsFront[] = [];

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY], port: 0 });
  folder = await mkdtemp(join(tmpdir(), 'tls-commands-'));
  await writeExport(join(folder, 'users.ndjson'), 8);
  certificates = makeThrowawayCertificates();
});

afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()));
  await core.close();
});

async function front(pair: KeyPair, change?: { when: string; to: KeyPair }): Promise<TlsFront> {
  const started = await startTlsFront(pair, core.port, change);
  fronts.push(started);
  return started;
}

/** One sentence on standard error, no stack, exit 3. */
function expectSentence(run: Run, ...parts: string[]): void {
  expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
  for (const part of parts) expect(run.stdout + run.stderr).toContain(part);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('https:// to a core that speaks plain HTTP: a sentence and exit 3 in every command', () => {
  const httpsCore = (): string => core.url.replace('http://', 'https://');
  const notTls = ['does not speak TLS on that port (ERR_SSL_WRONG_VERSION_NUMBER)', 'http:// instead of https://'];

  it('check', async () => {
    expectSentence(await runCli(['check', '--core', httpsCore()], folder), ...notTls);
  });

  it('push, sending nothing', async () => {
    const run = await runCli(['push', 'users.ndjson', '--core', httpsCore(), '--journal', 'push.journal'], folder);
    expectSentence(run, 'nothing was sent', ...notTls);
    expect(core.users()).toEqual([]);
  });

  it('sync and rollback of a journal written over plain HTTP', async () => {
    const pushed = await runCli(['push', 'users.ndjson', '--core', core.url, '--journal', 'sync.journal'], folder);
    expect(pushed.exitCode).toBe(ExitCode.ok);
    const before = core.users().length;
    expectSentence(await runCli(['sync', 'users.ndjson', '--journal', 'sync.journal', '--core', httpsCore()], folder), ...notTls);
    expectSentence(await runCli(['rollback', '--journal', 'sync.journal', '--core', httpsCore()], folder), 'nothing was removed', ...notTls);
    expect(core.users()).toHaveLength(before);
  });
});

describe('a certificate this client refuses: the cause and the fix, exit 3', () => {
  it.each([
    ['self-signed', (all: ThrowawayCertificates) => all.selfSigned, 'DEPTH_ZERO_SELF_SIGNED_CERT', '--ca-file FILE'],
    ['of an unknown authority', (all: ThrowawayCertificates) => all.trusted, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', '--ca-file FILE'],
    ['expired', (all: ThrowawayCertificates) => all.expired, 'CERT_HAS_EXPIRED', "renew the core's certificate"],
  ] as const)('check, %s', async (_name, pair, code, fix) => {
    const tls = await front(pair(certificates));
    expectSentence(await runCli(['check', '--core', tls.url], folder), code, fix);
  });

  it('--ca-file trusts the authority: check, push and rollback over TLS', async () => {
    core.reset();
    const tls = await front(certificates.trusted);
    const ca = ['--ca-file', certificates.caFile];
    expect((await runCli(['check', '--core', tls.url, ...ca], folder)).exitCode).toBe(ExitCode.ok);
    expect((await runCli(['push', 'users.ndjson', '--core', tls.url, ...ca, '--journal', 'ca.journal'], folder)).exitCode).toBe(ExitCode.ok);
    expect(core.users()).toHaveLength(8);
    expect((await runCli(['rollback', '--journal', 'ca.journal', '--core', tls.url, ...ca], folder)).exitCode).toBe(ExitCode.ok);
    expect(core.users()).toEqual([]);
  });

  it('a CA file that is no certificate is named, and nothing is sent', async () => {
    const run = await runCli(['check', '--core', core.url.replace('http://', 'https://'), '--ca-file', 'users.ndjson'], folder);
    expect(run.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(run.stderr).toContain('holds no certificate in PEM form');
  });

  it('a push whose core shows an expired certificate after the pre-flight stops with the sentence, exit 3', async () => {
    core.reset();
    // Connections made before the first user's import keep their certificate; those the push opens after it meet the
    // expired one. (The pre-flight's tenant probe goes to the same path, but names no user of the export.)
    const tls = await front(certificates.trusted, { when: '"email":"user1@example.com"', to: certificates.expired });
    const run = await runCli(
      ['push', 'users.ndjson', '--core', tls.url, '--ca-file', certificates.caFile, '--concurrency', '4', '--journal', 'mid.journal'],
      folder,
    );
    expectSentence(run, 'Stopped early', 'CERT_HAS_EXPIRED', "renew the core's certificate");
    expect(tls.connections()).toBeGreaterThan(1);
  });

  it('a rollback whose core shows an expired certificate after its first removal stops with the sentence, exit 3', async () => {
    core.reset();
    const tls = await front(certificates.trusted);
    const ca = ['--ca-file', certificates.caFile];
    const pushed = await runCli(['push', 'users.ndjson', '--core', tls.url, ...ca, '--journal', 'undo.journal'], folder);
    expect(pushed.exitCode).toBe(ExitCode.ok);
    // A removal's body names the user; the probes before it name nobody.
    tls.changeCertificateWhen({ when: '"userId"', to: certificates.expired });
    const run = await runCli(['rollback', '--journal', 'undo.journal', '--core', tls.url, ...ca], folder);
    expectSentence(run, 'Stopped early', 'CERT_HAS_EXPIRED');
    expect(core.users().length).toBeGreaterThan(0);
  });
});
