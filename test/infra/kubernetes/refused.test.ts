import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installMocks } from '../support/pulumi-mocks.js';
import { DATABASE_URL, PRODUCTION, REHEARSAL } from '../support/kubernetes.js';
import { API_KEY, CORE_IMAGE } from '../support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

/** Runs the program on a config it must refuse: it throws the sentence and has registered nothing. */
async function refusal(values: Record<string, string>): Promise<string> {
  const config = Object.fromEntries(Object.entries(values).map(([key, value]) => [`core-migrate:${key}`, value]));
  const { resources, settled } = await installMocks(config, ['core-migrate:apiKey', 'core-migrate:databaseUrl']);
  const failure = await import('../../../infra/index.js').then(
    () => undefined,
    (error: unknown) => error,
  );
  await settled();
  expect(resources).toEqual([]);
  expect(failure).toBeInstanceOf(pulumi.RunError);
  return failure instanceof Error ? failure.message : '';
}

describe('a Kubernetes config the program refuses before any resource', () => {
  it('several replicas with no database to share', async () => {
    const message = await refusal({ ...REHEARSAL, database: 'memory', replicas: '3' });
    expect(message).toMatch(/core-migrate:replicas is 3 but database is memory: each core would keep its own users in memory/);
    expect(message).toContain('pulumi config set core-migrate:database postgresql');
  });

  it('an image pinned by no digest in production, naming latest when that is the tag', async () => {
    const tagged = await refusal({ ...PRODUCTION, image: CORE_IMAGE });
    expect(tagged).toContain(`core-migrate:image ${CORE_IMAGE} is not pinned by digest on a production stack`);
    expect(tagged).toContain(`pulumi config set core-migrate:image ${CORE_IMAGE}@sha256:<digest>`);
    expect(tagged).toContain('pulumi config set core-migrate:rehearsal true');
    vi.resetModules();
    for (const image of ['registry.example/auth-core:latest', 'registry.example/auth-core']) {
      expect(await refusal({ ...PRODUCTION, image })).toMatch(
        /is not pinned by digest on a production stack \(`latest`, said or implied, is whatever was pushed last\)/,
      );
      vi.resetModules();
    }
  });

  it("the login-time service's image unpinned in production", async () => {
    const message = await refusal({
      ...PRODUCTION,
      loginService: 'true',
      loginServiceImage: 'registry.example/core-migrate:0.1',
      loginServiceKey: 'service-key-0123456789',
    });
    expect(message).toContain('core-migrate:loginServiceImage registry.example/core-migrate:0.1 is not pinned by digest on a production stack');
  });

  it('production with no external database, or with the memory one', async () => {
    const { databaseUrl: _url, ...withoutUrl } = PRODUCTION;
    expect(await refusal(withoutUrl)).toContain('core-migrate:databaseUrl is not set on a production stack');
    vi.resetModules();
    expect(await refusal({ ...withoutUrl, database: 'memory' })).toContain('core-migrate:database is memory on a production stack');
  });

  it('several login-time services on one SQLite file', async () => {
    const message = await refusal({
      ...REHEARSAL,
      loginService: 'true',
      loginServiceImage: 'core-migrate:0.1',
      loginServiceKey: 'service-key-0123456789',
      loginServiceReplicas: '2',
    });
    expect(message).toContain('core-migrate:loginServiceReplicas is 2 but loginServiceStoreUrl is not set');
  });

  it('Kubernetes keys on a Docker stack, where they would be ignored', async () => {
    const message = await refusal({ apiKey: API_KEY, image: CORE_IMAGE, databaseUrl: DATABASE_URL, coreSpread: 'required' });
    expect(message).toContain('core-migrate:databaseUrl, coreSpread are read only by target kubernetes, and this stack');
    expect(message).not.toContain(DATABASE_URL);
  });

  it('quotes no secret in any sentence', async () => {
    const message = await refusal({ ...PRODUCTION, image: CORE_IMAGE, database: 'memory' });
    expect(message).not.toContain(API_KEY);
    expect(message).not.toContain(DATABASE_URL);
  });
});

describe('the components, for a caller that skips the config', () => {
  it('refuse several cores on the memory database, and several services on one SQLite file', async () => {
    const { resources, settled } = await installMocks({}, []);
    const { KubernetesAuthCore } = await import('../../../infra/kubernetes/auth-core.js');
    const { KubernetesLoginService } = await import('../../../infra/kubernetes/login-service.js');
    const common = {
      image: CORE_IMAGE,
      apiKey: API_KEY,
      postgresImage: 'postgres:16',
      postgresStorage: '1Gi',
      cpu: '1',
      memory: '1Gi',
      spread: 'preferred' as const,
    };
    expect(() => new KubernetesAuthCore('probe', { ...common, database: 'memory', replicas: 2, coreUrl: 'http://127.0.0.1:3567' })).toThrow(
      /replicas is 2 but database is memory/,
    );
    expect(
      () =>
        new KubernetesLoginService('probe', { image: CORE_IMAGE, serviceKey: 'k', coreApiKey: API_KEY, coreUrl: 'http://core:3567', replicas: 2, port: 3568 }),
    ).toThrow(/cannot share one SQLite file/);
    await settled();
    expect(resources).toEqual([]);
  });
});
