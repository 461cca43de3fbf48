import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionError } from '../../../core-client/src/connection/errors.js';
import { describeProblem } from '../../../core-client/src/settings/setting-problem.js';
import { listPulumiStacks, readStackConnection } from '../../../core-client/src/connection/pulumi-cli.js';
import { describe, expect, it } from 'vitest';
import { fakePulumi, pathWithoutPulumi, stackOutputJson } from './support/fake-pulumi.js';

const API_KEY = 'stack-api-key-0123456789-abcdef';

describe('readStackConnection', () => {
  it('runs `pulumi stack output --json --show-secrets --stack NAME` in the project folder and wraps the key', async () => {
    const pulumi = await fakePulumi({
      stdout: stackOutputJson({
        apiKey: API_KEY,
        coreContainerName: 'auth-core-core-4f2a9c1',
        coreUrl: 'http://127.0.0.1:3567',
        database: 'postgresql',
        signerKeyConfigured: true,
      }),
    });
    const projectDir = await realpath(await mkdtemp(join(tmpdir(), 'project-')));
    const result = await readStackConnection('dev', { cwd: projectDir, env: { PATH: pulumi.path } });

    expect(await pulumi.lastRun()).toEqual({
      args: ['stack', 'output', '--json', '--show-secrets', '--stack', 'dev'],
      cwd: projectDir,
    });
    if (result instanceof ConnectionError) throw result;
    expect(result.coreUrl).toBe('http://127.0.0.1:3567');
    expect(result.apiKey.reveal()).toBe(API_KEY);
    expect(result.signerKeyConfigured).toBe(true);
    expect(result.database).toBe('postgresql');
    expect(result.coreUrls).toEqual(['http://127.0.0.1:3567']);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });

  it('reads every core of a stack with replicas from coreUrls, the first being coreUrl', async () => {
    const coreUrls = ['http://127.0.0.1:3567', 'http://127.0.0.1:3568', 'http://127.0.0.1:3569'];
    const pulumi = await fakePulumi({
      stdout: stackOutputJson({ apiKey: API_KEY, coreUrl: coreUrls[0], coreUrls, database: 'postgresql', signerKeyConfigured: false }),
    });
    const result = await readStackConnection('dev', { env: { PATH: pulumi.path } });
    if (result instanceof ConnectionError) throw result;
    expect(result.coreUrls).toEqual(coreUrls);
  });

  it('refuses coreUrls that do not start with coreUrl, naming the output', async () => {
    const pulumi = await fakePulumi({
      stdout: stackOutputJson({
        apiKey: API_KEY,
        coreUrl: 'http://127.0.0.1:3567',
        coreUrls: ['http://127.0.0.1:3568'],
        database: 'postgresql',
        signerKeyConfigured: false,
      }),
    });
    const error = (await readStackConnection('dev', { env: { PATH: pulumi.path } })) as ConnectionError;
    expect(error.code).toBe('stackOutputsMissing');
    expect(error.message).toContain('no usable coreUrls output');
  });

  it('says to install the CLI, or to use --core and CORE_API_KEY, when pulumi is not on PATH', async () => {
    const result = await readStackConnection('dev', { env: { PATH: await pathWithoutPulumi() } });
    expect(result).toBeInstanceOf(ConnectionError);
    const error = result as ConnectionError;
    expect(error.code).toBe('pulumiMissing');
    expect(error.message).toMatch(/Pulumi CLI \("pulumi"\) was not found on PATH/);
    expect(error.message).toContain('install it');
    expect(error.message).toContain('--core');
    expect(error.message).toContain('CORE_API_KEY');
  });

  it('says to run pulumi up when the stack has no such outputs', async () => {
    const pulumi = await fakePulumi({ stdout: '{}\n' });
    const result = await readStackConnection('dev', { env: { PATH: pulumi.path } });
    expect(result).toBeInstanceOf(ConnectionError);
    const error = result as ConnectionError;
    expect(error.code).toBe('stackOutputsMissing');
    expect(describeProblem(error, 'flags')).toBe(
      'Stack "dev" has no usable coreUrl, apiKey, signerKeyConfigured and database outputs: run `pulumi up --stack dev` with this project\'s infra program first, ' +
        'or pass --core and CORE_API_KEY / --api-key-file instead of --stack.',
    );
  });

  it('names the missing output when only the key is absent, without quoting the outputs', async () => {
    const pulumi = await fakePulumi({ stdout: stackOutputJson({ coreUrl: 'http://127.0.0.1:3567', somethingElse: 'value-xyz' }) });
    const error = (await readStackConnection('dev', { env: { PATH: pulumi.path } })) as ConnectionError;
    expect(error.code).toBe('stackOutputsMissing');
    expect(error.message).toContain('no usable apiKey, signerKeyConfigured and database outputs');
    expect(error.message).not.toContain('value-xyz');
  });

  it("passes on the CLI's own error for an unknown stack, with what to check", async () => {
    const pulumi = await fakePulumi({ stderr: "error: no stack named 'prod' found\n", exitCode: 255 });
    const error = (await readStackConnection('prod', { env: { PATH: pulumi.path } })) as ConnectionError;
    expect(error.code).toBe('pulumiFailed');
    expect(error.message).toContain("(error: no stack named 'prod' found)");
    expect(error.message).toContain('pulumi stack ls');
  });

  it('points at PULUMI_CONFIG_PASSPHRASE when the secrets cannot be decrypted', async () => {
    const pulumi = await fakePulumi({
      stderr:
        'error: getting stack configuration: get stack secrets manager: passphrase must be set with ' +
        'PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables\n',
      exitCode: 255,
    });
    const error = (await readStackConnection('dev', { env: { PATH: pulumi.path } })) as ConnectionError;
    expect(error.code).toBe('pulumiFailed');
    expect(error.message).toMatch(/: set PULUMI_CONFIG_PASSPHRASE \(or PULUMI_CONFIG_PASSPHRASE_FILE\)/);
  });
});

describe('listPulumiStacks', () => {
  it('lists the names from `pulumi stack ls --json`', async () => {
    const pulumi = await fakePulumi({
      stdout: `${JSON.stringify(
        [
          { name: 'dev', current: true, lastUpdate: '2025-01-10T09:12:44.000Z', updateInProgress: false, resourceCount: 9, url: 'file://~' },
          { name: 'rehearsal', current: false, updateInProgress: false, url: 'file://~' },
        ],
        null,
        2,
      )}\n`,
    });
    expect(await listPulumiStacks({ env: { PATH: pulumi.path } })).toEqual(['dev', 'rehearsal']);
    expect((await pulumi.lastRun()).args).toEqual(['stack', 'ls', '--json']);
  });

  it('gives a ConnectionError when the CLI is missing', async () => {
    const result = await listPulumiStacks({ env: { PATH: await pathWithoutPulumi() } });
    expect(result).toBeInstanceOf(ConnectionError);
    expect((result as ConnectionError).code).toBe('pulumiMissing');
  });
});
