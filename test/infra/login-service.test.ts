import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StackConfigError, readStackConfig, type StackConfigKey } from '../../infra/config.js';
import { LOGIN_SERVICE_HEALTH_PROBE, LOGIN_STORE_SQLITE_PATH } from '../../infra/login-service.js';
import { MOCK_IMAGE_ID_PREFIX, byType, installMocks, onlyOne, valueOf } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, VOLUME, runProgram } from './support/run-program.js';

const SERVICE_IMAGE = 'registry.example/core-migrate:0.1';
const SERVICE_KEY = 'login-service-key-0123456789abcdef';
const STORE_URL = 'postgresql://migrate:store-password-42@db.internal/logins';
const SECRETS = ['apiKey', 'signerKey', 'registryPassword', 'loginServiceKey', 'loginServiceStoreUrl'];
const withService = { apiKey: API_KEY, image: CORE_IMAGE, loginService: 'true', loginServiceImage: SERVICE_IMAGE, loginServiceKey: SERVICE_KEY };

function problemsOf(values: Partial<Record<StackConfigKey, string>>): readonly string[] {
  const result = readStackConfig({ get: (key) => values[key] });
  if (!(result instanceof StackConfigError)) throw new Error('expected the config to be refused');
  return result.problems;
}

beforeEach(() => {
  vi.resetModules();
});

describe('the login-time migration service beside the core', () => {
  it('is not there unless asked for', async () => {
    const { program, resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    expect(resources.filter((resource) => resource.name.startsWith('login-migration'))).toEqual([]);
    expect(program.loginServiceUrl).toBeUndefined();
  });

  it('runs `login-migration serve` from its image on the core network, published on loopback:3568, reaching the first core by name', async () => {
    const { program, resources } = await runProgram(withService, SECRETS);
    const service = onlyOne(resources, 'login-migration-service');
    expect(service.type).toBe(CONTAINER);
    expect(service.inputs['image']).toBe(`${MOCK_IMAGE_ID_PREFIX}${SERVICE_IMAGE}`);
    expect(service.inputs['command']).toEqual(['login-migration', 'serve', '--host', '0.0.0.0', '--port', '3568', '--core', 'http://auth-core-core-mock:3567']);
    expect(service.inputs['ports']).toEqual([{ internal: 3568, external: 3568, ip: '127.0.0.1', protocol: 'tcp' }]);
    expect(service.inputs['networksAdvanced']).toEqual([{ name: 'auth-core-network-mock' }]);
    expect(service.inputs['healthcheck']).toMatchObject({ tests: ['CMD', 'node', '-e', LOGIN_SERVICE_HEALTH_PROBE] });
    expect(service.options.deleteBeforeReplace).toBe(true);
    expect(service.options.dependencies.some((urn) => urn.endsWith('::auth-core-core'))).toBe(true);
    expect(await valueOf(program.loginServiceUrl ?? pulumi.output(''))).toBe('http://127.0.0.1:3568');
  });

  it('keeps its keys and store in secret environment variables, never in its command', async () => {
    const { resources } = await runProgram({ ...withService, loginServiceStoreUrl: STORE_URL }, SECRETS);
    const service = onlyOne(resources, 'login-migration-service');
    expect(service.inputs['envs']).toEqual([`LOGIN_MIGRATION_SERVICE_KEY=${SERVICE_KEY}`, `CORE_API_KEY=${API_KEY}`, `LOGIN_MIGRATION_STORE=${STORE_URL}`]);
    expect(service.secretInputs).toContain('envs');
    expect(service.additionalSecretOutputs).toContain('envs');
    expect(JSON.stringify(service.inputs['command'])).not.toMatch(/store-password|login-service-key|test-api-key/);
    // A PostgreSQL store needs no volume here.
    expect(byType(resources, VOLUME).map((volume) => volume.name)).not.toContain('login-migration-store');
  });

  it('keeps a SQLite store on a volume that outlives the container and is protected', async () => {
    const { program, resources } = await runProgram(withService, SECRETS);
    const volume = onlyOne(resources, 'login-migration-store');
    expect(volume.options).toMatchObject({ retainOnDelete: true, protect: true });
    const service = onlyOne(resources, 'login-migration-service');
    expect(service.inputs['volumes']).toEqual([{ volumeName: 'login-migration-store-mock', containerPath: '/var/lib/core-migrate' }]);
    expect(service.inputs['envs']).toContain(`LOGIN_MIGRATION_STORE=${LOGIN_STORE_SQLITE_PATH}`);
    expect(await valueOf(program.loginStoreVolume ?? pulumi.output(''))).toBe('login-migration-store-mock');
  });

  it('refuses a config that cannot run it, each with the command that fixes it, and never quotes a secret', () => {
    expect(problemsOf({ apiKey: API_KEY, image: CORE_IMAGE, loginService: 'true' })).toEqual([
      expect.stringMatching(/^core-migrate:loginService is true but loginServiceImage is not set: run `pulumi config set core-migrate:loginServiceImage/),
      expect.stringMatching(/^core-migrate:loginService is true but loginServiceKey is not set: run `pulumi config set --secret core-migrate:loginServiceKey/),
    ]);
    expect(problemsOf({ ...withService, loginServiceKey: 'too-short' })).toEqual([expect.stringMatching(/loginServiceKey is shorter than 16/)]);
    expect(problemsOf({ ...withService, loginServiceStoreUrl: 'mysql://root:hunter2@db/x' }).join()).not.toContain('hunter2');
    expect(problemsOf({ ...withService, replicas: '3', loginServicePort: '3569' })).toEqual([
      expect.stringMatching(/loginServicePort 3569 is a port of the cores \(3567–3569\): run `pulumi config set core-migrate:loginServicePort 3570`/),
    ]);
    expect(problemsOf({ ...withService, loginService: 'yes' })).toEqual([expect.stringMatching(/loginService must be true or false/)]);
  });

  it('stops the program before any resource when the service is asked for without its key', async () => {
    const { resources } = await installMocks(
      {
        'core-migrate:apiKey': API_KEY,
        'core-migrate:image': CORE_IMAGE,
        'core-migrate:loginService': 'true',
        'core-migrate:loginServiceImage': SERVICE_IMAGE,
      },
      ['core-migrate:apiKey'],
    );
    await expect(import('../../infra/index.js')).rejects.toThrow(/loginServiceKey is not set/);
    expect(resources).toEqual([]);
  });
});
