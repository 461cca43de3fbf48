import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CORE_HEALTH_PROBE } from '../../infra/core-settings.js';
import { MOCK_IMAGE_ID_PREFIX, MOCK_PASSWORD, byType, installMocks, onlyOne, valueOf, type RegisteredResource } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, NETWORK, RANDOM_PASSWORD, REMOTE_IMAGE, SIGNER_KEY, VOLUME, runProgram } from './support/run-program.js';

function coreContainer(resources: RegisteredResource[]): RegisteredResource {
  return onlyOne(resources, 'auth-core-core');
}

beforeEach(() => {
  vi.resetModules();
});

describe('the program with database=postgresql (the default)', () => {
  it('runs the core from the configured image, published on loopback:3567, restarting unless stopped', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    const coreImage = onlyOne(resources, 'auth-core-image');
    expect(coreImage.type).toBe(REMOTE_IMAGE);
    expect(coreImage.inputs).toMatchObject({ name: CORE_IMAGE, keepLocally: true });

    const core = coreContainer(resources);
    expect(core.type).toBe(CONTAINER);
    expect(core.inputs['image']).toBe(`${MOCK_IMAGE_ID_PREFIX}${CORE_IMAGE}`);
    expect(core.inputs['ports']).toEqual([{ internal: 3567, external: 3567, ip: '127.0.0.1', protocol: 'tcp' }]);
    expect(core.inputs['restart']).toBe('unless-stopped');
    expect(core.inputs['wait']).toBe(true);
    expect(core.inputs['waitTimeout']).toBeGreaterThan(0);
  });

  it('probes GET /hello from inside the container with bash alone', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    const healthcheck = coreContainer(resources).inputs['healthcheck'] as Record<string, unknown>;
    expect(healthcheck['tests']).toEqual(['CMD', 'bash', '-c', CORE_HEALTH_PROBE]);
    expect(CORE_HEALTH_PROBE).toContain('/dev/tcp/127.0.0.1/3567');
    expect(CORE_HEALTH_PROBE).toContain('GET /hello HTTP/1.0');
    expect(CORE_HEALTH_PROBE).toContain('grep -q Hello');
    expect(healthcheck).toMatchObject({ interval: expect.any(String), timeout: expect.any(String), retries: expect.any(Number) });
  });

  it('puts the core and PostgreSQL on the stack network, PostgreSQL under the alias the core is given', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    const networks = byType(resources, NETWORK);
    expect(networks.map((network) => network.name)).toEqual(['auth-core-network']);
    const networkName = 'auth-core-network-mock';
    expect(coreContainer(resources).inputs['networksAdvanced']).toEqual([{ name: networkName }]);
    const postgres = onlyOne(resources, 'auth-core-postgres');
    expect(postgres.inputs['networksAdvanced']).toEqual([{ name: networkName, aliases: ['postgres'] }]);
  });

  it('gives the core exactly these environment variables', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, signerKey: SIGNER_KEY });
    expect(coreContainer(resources).inputs['envs']).toEqual([
      `API_KEYS=${API_KEY}`,
      'DISABLE_TELEMETRY=true',
      `VENDOR_PASSWORD_HASHING_SIGNER_KEY=${SIGNER_KEY}`,
      `FIREBASE_PASSWORD_HASHING_SIGNER_KEY=${SIGNER_KEY}`,
      'POSTGRESQL_HOST=postgres',
      'POSTGRESQL_PORT=5432',
      'POSTGRESQL_USER=core',
      `POSTGRESQL_PASSWORD=${MOCK_PASSWORD}`,
      'POSTGRESQL_DATABASE_NAME=core',
    ]);
  });

  it('runs PostgreSQL with a named volume, a generated password and a pg_isready health check', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    expect(onlyOne(resources, 'auth-core-postgres-password')).toMatchObject({
      type: RANDOM_PASSWORD,
      inputs: { length: 32, special: false },
    });
    expect(onlyOne(resources, 'auth-core-postgres-image').inputs).toMatchObject({ name: 'postgres:16-alpine', keepLocally: true });
    const volumes = byType(resources, VOLUME);
    expect(volumes.map((volume) => volume.name)).toEqual(['auth-core-postgres-data']);

    const postgres = onlyOne(resources, 'auth-core-postgres');
    expect(postgres.inputs).toMatchObject({
      image: `${MOCK_IMAGE_ID_PREFIX}postgres:16-alpine`,
      restart: 'unless-stopped',
      wait: true,
      volumes: [{ volumeName: 'auth-core-postgres-data-mock', containerPath: '/var/lib/postgresql/data' }],
      envs: ['POSTGRES_USER=core', `POSTGRES_PASSWORD=${MOCK_PASSWORD}`, 'POSTGRES_DB=core'],
    });
    expect(postgres.inputs['ports']).toBeUndefined();
    expect((postgres.inputs['healthcheck'] as Record<string, unknown>)['tests']).toEqual(['CMD', 'pg_isready', '-U', 'core', '-d', 'core']);
  });

  it('keeps every secret encrypted: container envs in state, and the secret outputs', async () => {
    const { program, resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, signerKey: SIGNER_KEY });
    for (const name of ['auth-core-core', 'auth-core-postgres']) {
      const container = onlyOne(resources, name);
      expect(container.secretInputs, name).toContain('envs');
      expect(container.additionalSecretOutputs, name).toEqual(['envs']);
    }
    expect(await pulumi.isSecret(program.apiKey)).toBe(true);
    expect(await valueOf(program.apiKey)).toBe(API_KEY);
  });

  it('gives the component secret outputs even when its caller passes plain values', async () => {
    const { settled } = await installMocks({}, []);
    const { AuthCore } = await import('../../infra/auth-core.js');
    const component = new AuthCore('probe', {
      image: CORE_IMAGE,
      apiKey: API_KEY,
      signerKey: SIGNER_KEY,
      hostPort: 3567,
      bindAddress: '127.0.0.1',
      database: 'postgresql',
    });
    const password = component.postgresPassword;
    if (password === undefined) throw new Error('expected a database password for postgresql');
    expect(await pulumi.isSecret(password)).toBe(true);
    expect(await pulumi.isSecret(component.outputs.apiKey)).toBe(true);
    for (const container of component.coreContainers) expect(await pulumi.isSecret(container.envs)).toBe(true);
    await settled();
  });

  it('exports the outputs core-migrate check --stack reads', async () => {
    const { program } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    expect(await valueOf(program.coreUrl)).toBe('http://127.0.0.1:3567');
    expect(await valueOf(program.coreUrls)).toEqual(['http://127.0.0.1:3567']);
    expect(await valueOf(program.signerKeyConfigured)).toBe(false);
    expect(await valueOf(program.database)).toBe('postgresql');
  });
});

describe('the program with database=memory', () => {
  it('declares no PostgreSQL at all, and the core gets no POSTGRESQL_* setting', async () => {
    const { program, resources } = await runProgram({
      apiKey: API_KEY,
      image: CORE_IMAGE,
      database: 'memory',
      hostPort: '13567',
      bindAddress: '0.0.0.0',
    });
    expect(byType(resources, RANDOM_PASSWORD)).toEqual([]);
    expect(byType(resources, VOLUME)).toEqual([]);
    expect(byType(resources, CONTAINER).map((container) => container.name)).toEqual(['auth-core-core']);
    expect(byType(resources, REMOTE_IMAGE).map((image) => image.name)).toEqual(['auth-core-image']);

    const core = coreContainer(resources);
    expect(core.inputs['envs']).toEqual([`API_KEYS=${API_KEY}`, 'DISABLE_TELEMETRY=true']);
    expect(core.inputs['ports']).toEqual([{ internal: 3567, external: 13567, ip: '0.0.0.0', protocol: 'tcp' }]);
    expect(core.secretInputs).toContain('envs');
    expect(await valueOf(program.coreUrl)).toBe('http://127.0.0.1:13567');
    expect(await valueOf(program.database)).toBe('memory');
    expect(await valueOf(program.signerKeyConfigured)).toBe(false);
    expect(program.databaseVolume).toBeUndefined();
  });
});

describe('the program with a broken config', () => {
  it('stops before declaring any resource, naming the key and the fix', async () => {
    const { resources } = await installMocks({ 'core-migrate:apiKey': 'short', 'core-migrate:image': CORE_IMAGE }, []);
    const failure = import('../../infra/index.js');
    await expect(failure).rejects.toBeInstanceOf(pulumi.RunError);
    await expect(failure).rejects.toThrow(/core-migrate:apiKey .*pulumi config set --secret core-migrate:apiKey/);
    await expect(failure).rejects.not.toThrow(/short/);
    expect(resources).toEqual([]);
  });
});
