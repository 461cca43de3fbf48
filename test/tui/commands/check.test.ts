import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCheckCommand } from '../../../tui/src/commands/check.js';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { captureIO } from './captured-io.js';
import { fakePulumi, pathWithoutPulumi, stackOutputJson } from '../../core-client/connection/support/fake-pulumi.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';

const API_KEY = 'check-api-key-0123456789-abcdefg';
const WRONG_KEY = 'wrong-check-key-0123456789-abcdef';

let core: CoreDouble;
let keyDir: string;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['tenant-a'], port: 0 });
  keyDir = await mkdtemp(join(tmpdir(), 'check-key-'));
  await writeFile(join(keyDir, 'core.key'), `${API_KEY}\n`);
});

afterAll(async () => {
  await core.close();
});

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function check(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const { io, stdout, stderr } = captureIO({ env: { PATH: process.env['PATH'], ...env }, cwd: keyDir });
  // The check command alone, wired as cli.ts wires every command, so other commands cannot affect this suite.
  let exitCode: number = ExitCode.ok;
  const program = new Command('core-migrate')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  registerCheckCommand(program.command('check'), { io, setExitCode: (code) => (exitCode = code) });
  try {
    await program.parseAsync(['check', ...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = ExitCode.usageOrConfiguration;
  }
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

function expectNoKey(run: Run, ...keys: string[]): void {
  for (const key of keys) {
    expect(run.stdout).not.toContain(key);
    expect(run.stderr).not.toContain(key);
  }
}

describe('core-migrate check', () => {
  it('exits 0 when the core answers, the key is accepted and the tenant exists', async () => {
    const run = await check(['--core', core.url, '--tenant', 'tenant-a'], { CORE_API_KEY: API_KEY });
    expect(run.exitCode).toBe(ExitCode.ok);
    expect(run.stdout).toMatch(/ok\s+reachable\s+The core at .* answered \/hello in [\d.]+ ms\./);
    expect(run.stdout).toMatch(/ok\s+api-key\s+The api-key is accepted; the core speaks API versions 2\.7, .*5\.2 \(newest 5\.2\)\./);
    expect(run.stdout).toMatch(/ok\s+tenant\s+Tenant "tenant-a" exists\./);
    expect(run.stdout).toContain('core from --core, api-key from CORE_API_KEY');
    expect(run.stdout).toContain('All checks passed.');
    expect(run.stderr).toBe('');
    expectNoKey(run, API_KEY);
    expect(core.users()).toEqual([]);
  });

  it('prints one JSON object with --json, reading the key from --api-key-file', async () => {
    const run = await check(['--core', core.url, '--api-key-file', 'core.key', '--json']);
    expect(run.exitCode).toBe(ExitCode.ok);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      versions: expect.arrayContaining(['2.21', '5.2']),
      roundTripMs: expect.any(Number),
      connection: { coreUrl: core.url, tenantId: 'public', appId: 'public', sources: { coreUrl: 'flags', apiKey: 'flags' } },
    });
    expectNoKey(run, API_KEY);
  });

  it('takes the core and the key from a Pulumi stack', async () => {
    const pulumi = await fakePulumi({
      stdout: stackOutputJson({ apiKey: API_KEY, coreUrl: core.url, database: 'memory', signerKeyConfigured: false }),
    });
    const run = await check(['--stack', 'dev'], { PATH: pulumi.path });
    expect(run.exitCode).toBe(ExitCode.ok);
    expect((await pulumi.lastRun()).args).toEqual(['stack', 'output', '--json', '--show-secrets', '--stack', 'dev']);
    expect(run.stdout).toContain('core from stack dev, api-key from stack dev');
    expect(run.stdout).toContain('Signer key: not configured on the stack');
    expectNoKey(run, API_KEY);
  });

  it('exits 3 with a sentence when the key is refused (401)', async () => {
    const run = await check(['--core', core.url], { CORE_API_KEY: WRONG_KEY });
    expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
    expect(run.stdout).toMatch(/failed\s+api-key/);
    expect(run.stdout).toMatch(/skipped\s+tenant/);
    expect(run.stderr).toMatch(/^core-migrate check: The core refused the api-key .*\n$/);
    expectNoKey(run, WRONG_KEY);
  });

  it('exits 3 when nothing listens at the address', async () => {
    const gone = await startCoreDouble({ apiKeys: [API_KEY], port: 0 });
    await gone.close();
    const run = await check(['--core', gone.url], { CORE_API_KEY: API_KEY });
    expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
    expect(run.stdout).toMatch(/failed\s+reachable/);
    expect(run.stderr).toContain('is it running and reachable?');
    expectNoKey(run, API_KEY);
  });

  it('checks each of several cores (--core again), labelling every step with its core; one down fails the check', async () => {
    const replica = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['tenant-a'], shareStoreWith: core });
    const gone = await startCoreDouble({ apiKeys: [API_KEY], port: 0 });
    await gone.close();
    try {
      const both = await check(['--core', core.url, '--core', replica.url, '--tenant', 'tenant-a'], { CORE_API_KEY: API_KEY });
      expect(both.exitCode).toBe(ExitCode.ok);
      expect(both.stdout).toContain(`Pre-flight of ${core.url}, ${replica.url} (tenant tenant-a)`);
      for (const url of [core.url, replica.url]) {
        for (const label of ['reachable', 'api-key', 'tenant']) expect(both.stdout).toMatch(new RegExp(`ok\\s+${label}\\s+\\[${url}\\]`));
      }
      const json = JSON.parse((await check(['--core', core.url, '--core', replica.url, '--json'], { CORE_API_KEY: API_KEY })).stdout) as {
        connection: { coreUrls: string[] };
      };
      expect(json.connection.coreUrls).toEqual([core.url, replica.url]);

      const oneDown = await check(['--core', core.url, '--core', gone.url], { CORE_API_KEY: API_KEY });
      expect(oneDown.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
      expect(oneDown.stdout).toMatch(new RegExp(`failed\\s+reachable\\s+\\[${gone.url}\\]`));
      expect(oneDown.stderr).toContain(gone.url);
    } finally {
      await replica.close();
    }
  });

  it('exits 3 when the tenant does not exist', async () => {
    const run = await check(['--core', core.url, '--tenant', 'no-such-tenant', '--json'], { CORE_API_KEY: API_KEY });
    expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
    const report = JSON.parse(run.stdout) as { failure?: { step: string; errorKind: string } };
    expect(report.failure).toMatchObject({ step: 'tenantExists', errorKind: 'tenantNotFound' });
  });

  it('exits 2 when no key is found, saying where one can come from', async () => {
    const run = await check(['--core', core.url]);
    expect(run.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(run.stderr).toContain('set CORE_API_KEY, pass --api-key-file, or --stack');
    expect(run.stdout).toBe('');
  });

  it('exits 2 for an address that is not an http URL', async () => {
    const run = await check(['--core', 'ftp://127.0.0.1:3567'], { CORE_API_KEY: API_KEY });
    expect(run.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(run.stderr).toContain('must start with http:// or https://');
    expectNoKey(run, API_KEY);
  });

  it('exits 2 and refuses an api-key given on the command line, without repeating it', async () => {
    const run = await check(['--core', core.url, '--api-key', API_KEY]);
    expect(run.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(run.stderr).toContain('--api-key is not accepted');
    expectNoKey(run, API_KEY);
  });

  it('exits 2 when --stack is given but the Pulumi CLI is missing', async () => {
    const run = await check(['--stack', 'dev'], { PATH: await pathWithoutPulumi() });
    expect(run.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(run.stderr).toContain('The Pulumi CLI ("pulumi") was not found on PATH');
  });
});
