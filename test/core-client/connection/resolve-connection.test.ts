import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionError } from '../../../core-client/src/connection/errors.js';
import { CoreClientConfigError } from '../../../core-client/src/http/target.js';
import { Problem } from '../../../core-client/src/problem.js';
import { describeProblem } from '../../../core-client/src/settings/setting-problem.js';
import { resolveConnection, type Connection } from '../../../core-client/src/connection/resolve-connection.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakePulumi, pathWithoutPulumi, stackOutputJson, type FakePulumi } from './support/fake-pulumi.js';

const STACK_KEY = 'stack-api-key-0123456789-abcdef';
const ENV_KEY = 'env-api-key-0123456789-abcdefgh';
const FILE_KEY = 'file-api-key-0123456789-abcdefg';

let stack: FakePulumi;
let keyDir: string;

beforeAll(async () => {
  stack = await fakePulumi({
    stdout: stackOutputJson({ apiKey: STACK_KEY, coreUrl: 'http://127.0.0.1:3567', database: 'memory', signerKeyConfigured: false }),
  });
  keyDir = await mkdtemp(join(tmpdir(), 'api-key-'));
  await writeFile(join(keyDir, 'core.key'), `${FILE_KEY}\n`);
  await writeFile(join(keyDir, 'empty.key'), '\n');
});

async function resolved(...args: Parameters<typeof resolveConnection>): Promise<Connection> {
  const result = await resolveConnection(...args);
  if (result instanceof Problem) throw result;
  return result;
}

describe('resolveConnection precedence', () => {
  it('takes everything from the stack when only --stack is given', async () => {
    const connection = await resolved({ stack: 'dev' }, { PATH: stack.path });
    expect(connection).toMatchObject({
      coreUrl: 'http://127.0.0.1:3567',
      source: 'stack',
      sources: { coreUrl: 'stack', apiKey: 'stack' },
      signerKeyConfigured: false,
    });
    expect(connection.coreUrls).toEqual(['http://127.0.0.1:3567']);
    expect(connection.apiKey.reveal()).toBe(STACK_KEY);
  });

  it("takes every core from the stack's coreUrls, and only the given core when --core beats the stack", async () => {
    const coreUrls = ['http://127.0.0.1:3567', 'http://127.0.0.1:3568'];
    const replicas = await fakePulumi({
      stdout: stackOutputJson({ apiKey: STACK_KEY, coreUrl: coreUrls[0], coreUrls, database: 'postgresql', signerKeyConfigured: false }),
    });
    expect((await resolved({ stack: 'dev' }, { PATH: replicas.path })).coreUrls).toEqual(coreUrls);
    expect((await resolved({ stack: 'dev', core: 'http://127.0.0.1:5000' }, { PATH: replicas.path })).coreUrls).toEqual(['http://127.0.0.1:5000']);
  });

  it('takes every --core given, in order, over the stack and the environment; refuses the set if one is not a URL', async () => {
    const cores = ['http://127.0.0.1:5000', 'http://127.0.0.1:5001'];
    const connection = await resolved({ stack: 'dev', core: cores }, { PATH: stack.path, CORE_URL: 'http://127.0.0.1:4000' });
    expect(connection).toMatchObject({ coreUrl: cores[0], coreUrls: cores, source: 'flags' });
    const refused = await resolveConnection({ core: [cores[0] ?? '', 'ftp://127.0.0.1:5001'] }, { CORE_API_KEY: ENV_KEY });
    expect(refused).toBeInstanceOf(CoreClientConfigError);
    expect((refused as CoreClientConfigError).message).toMatch(/must start with http:\/\/ or https:\/\//);
  });

  it('lets the environment beat the stack, value by value', async () => {
    const connection = await resolved({ stack: 'dev' }, { PATH: stack.path, CORE_API_KEY: ENV_KEY });
    expect(connection.sources).toEqual({ coreUrl: 'stack', apiKey: 'environment' });
    expect(connection.apiKey.reveal()).toBe(ENV_KEY);

    const both = await resolved({ stack: 'dev' }, { PATH: stack.path, CORE_API_KEY: ENV_KEY, CORE_URL: 'http://127.0.0.1:4000' });
    expect(both).toMatchObject({ coreUrl: 'http://127.0.0.1:4000', source: 'environment', sources: { coreUrl: 'environment', apiKey: 'environment' } });
  });

  it('lets flags beat the environment and the stack', async () => {
    const connection = await resolved(
      { stack: 'dev', core: 'http://127.0.0.1:5000', apiKeyFile: join(keyDir, 'core.key'), tenant: 'tenant-a', app: 'app-a' },
      { PATH: stack.path, CORE_API_KEY: ENV_KEY, CORE_URL: 'http://127.0.0.1:4000' },
    );
    expect(connection).toMatchObject({
      coreUrl: 'http://127.0.0.1:5000',
      tenantId: 'tenant-a',
      appId: 'app-a',
      source: 'flags',
      sources: { coreUrl: 'flags', apiKey: 'flags' },
    });
    expect(connection.apiKey.reveal()).toBe(FILE_KEY);
  });

  it('needs no Pulumi CLI at all without --stack', async () => {
    const connection = await resolved({}, { PATH: await pathWithoutPulumi(), CORE_URL: 'http://127.0.0.1:4000', CORE_API_KEY: ENV_KEY });
    expect(connection).toMatchObject({ coreUrl: 'http://127.0.0.1:4000', source: 'environment' });
    expect(connection).not.toHaveProperty('signerKeyConfigured');
    expect(connection).not.toHaveProperty('tenantId');
  });

  it('reads --api-key-file relative to the given folder and trims the newline', async () => {
    const connection = await resolved({ core: 'http://127.0.0.1:3567', apiKeyFile: 'core.key' }, {}, { cwd: keyDir });
    expect(connection.apiKey.reveal()).toBe(FILE_KEY);
  });

  it('treats empty environment values as unset', async () => {
    const result = await resolveConnection({ core: 'http://127.0.0.1:3567' }, { CORE_API_KEY: '  ' });
    expect((result as ConnectionError).code).toBe('noApiKey');
  });

  it('never shows the key when the connection is printed or serialised', async () => {
    const connection = await resolved({ apiKeyFile: join(keyDir, 'core.key'), stack: 'dev' }, { PATH: stack.path });
    expect(JSON.stringify(connection)).not.toContain(FILE_KEY);
    expect(String(connection.apiKey)).toBe('***');
  });
});

describe('resolveConnection errors', () => {
  it('says where a key can come from when there is none', async () => {
    const result = await resolveConnection({ core: 'http://127.0.0.1:3567' }, {});
    expect(result).toBeInstanceOf(ConnectionError);
    expect((result as ConnectionError).code).toBe('noApiKey');
    expect(describeProblem(result as ConnectionError, 'flags')).toContain('set CORE_API_KEY, pass --api-key-file, or --stack');
    expect((result as ConnectionError).setting).toBe('apiKeyFile');
  });

  it('says where the core address can come from when there is none', async () => {
    const result = (await resolveConnection({}, { CORE_API_KEY: ENV_KEY })) as ConnectionError;
    expect(result.code).toBe('noCoreUrl');
    expect(describeProblem(result, 'flags')).toContain('pass --core http://host:3567, set CORE_URL, or name a Pulumi stack with --stack');
  });

  it('names an api-key file that cannot be read, or is empty', async () => {
    const missing = (await resolveConnection({ core: 'http://127.0.0.1:3567', apiKeyFile: join(keyDir, 'nope.key') }, {})) as ConnectionError;
    expect(missing.code).toBe('apiKeyFileUnreadable');
    expect(missing.message).toContain(`${join(keyDir, 'nope.key')} cannot be read (ENOENT)`);
    const empty = (await resolveConnection({ core: 'http://127.0.0.1:3567', apiKeyFile: join(keyDir, 'empty.key') }, {})) as ConnectionError;
    expect(empty.code).toBe('apiKeyFileUnreadable');
    expect(empty.message).toContain('is empty');
  });

  it.each([
    [{ core: 'ftp://127.0.0.1:3567' }, /must start with http:\/\/ or https:\/\//, 'coreUrlInvalid', 'core'],
    [{ core: 'not a url' }, /is not a URL/, 'coreUrlInvalid', 'core'],
    [{ core: 'http://127.0.0.1:3567', tenant: 'Tenant_A' }, /tenant id "Tenant_A" cannot be used/, 'tenantInvalid', 'tenant'],
    [{ core: 'http://127.0.0.1:3567', app: 'App A' }, /app id "App A" cannot be used/, 'appInvalid', 'app'],
  ])('refuses %o as a setting, naming the setting as data', async (input, message, code, setting) => {
    const result = (await resolveConnection(input, { CORE_API_KEY: ENV_KEY })) as CoreClientConfigError;
    expect(result).toBeInstanceOf(CoreClientConfigError);
    expect(result.code).toBe(code);
    expect(result.setting).toBe(setting);
    expect(result.message).toMatch(message);
  });

  it('stops on a stack that cannot be read, even when flags give the rest', async () => {
    const result = (await resolveConnection(
      { stack: 'dev', core: 'http://127.0.0.1:3567' },
      { PATH: await pathWithoutPulumi(), CORE_API_KEY: ENV_KEY },
    )) as ConnectionError;
    expect(result.code).toBe('pulumiMissing');
  });
});
