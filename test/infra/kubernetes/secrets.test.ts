import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MOCK_PASSWORD, type RegisteredResource } from '../support/pulumi-mocks.js';
import {
  DATABASE_URL,
  DEPLOYMENT,
  PINNED_LOGIN_IMAGE,
  PRODUCTION,
  REHEARSAL,
  SECRET,
  SECRET_CONFIG_KEYS,
  STATEFUL_SET,
  secretData,
  workloadSpec,
} from '../support/kubernetes.js';
import { API_KEY, SIGNER_KEY, runProgram } from '../support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

const REGISTRY_PASSWORD = 'registry-password-0123';
const SERVICE_KEY = 'login-service-key-0123456789';
const STORE_URL = 'postgresql://waiting:store-password-0123@store.example/waiting';
const OLD_SYSTEM_SECRET = 'openid-client-secret-0123';
const EVERY_SECRET = {
  signerKey: SIGNER_KEY,
  registryAddress: 'registry.example',
  registryUsername: 'deploy',
  registryPassword: REGISTRY_PASSWORD,
  loginService: 'true',
  loginServiceImage: PINNED_LOGIN_IMAGE,
  loginServiceKey: SERVICE_KEY,
  loginServiceStoreUrl: STORE_URL,
  loginServiceReplicas: '2',
  loginServiceVerifyWith: JSON.stringify({ kind: 'openid', tokenEndpoint: 'https://sso.example/token', clientId: 'migrator' }),
  loginServiceVerifyWithSecret: OLD_SYSTEM_SECRET,
};
const SECRET_VALUES = [
  API_KEY,
  SIGNER_KEY,
  DATABASE_URL,
  'database-password-0123',
  REGISTRY_PASSWORD,
  SERVICE_KEY,
  STORE_URL,
  'store-password-0123',
  OLD_SYSTEM_SECRET,
  MOCK_PASSWORD,
];

/** Each secret found in plain text in a resource's inputs, walking every input to its leaves. */
function leaks(resources: RegisteredResource[]): string[] {
  return resources.flatMap((resource) =>
    resource.plainText.flatMap((text) =>
      SECRET_VALUES.filter((secret) => text.includes(secret)).map((secret) => `${resource.type} ${resource.name}: ${secret}`),
    ),
  );
}

describe('secrets on Kubernetes', () => {
  it.each<[string, Record<string, string>, string[] | undefined]>([
    ['production with every secret set', { ...PRODUCTION, ...EVERY_SECRET }, SECRET_CONFIG_KEYS],
    ['production with the secrets stored in plain text (set without --secret)', { ...PRODUCTION, ...EVERY_SECRET }, []],
    [
      'a rehearsal with PostgreSQL in the cluster and the SQLite store',
      { ...REHEARSAL, ...EVERY_SECRET, loginServiceStoreUrl: '', loginServiceReplicas: '' },
      SECRET_CONFIG_KEYS,
    ],
  ])('are nowhere in plain text in any input of any resource: %s', async (_label, config, secretKeys) => {
    const { resources } = await runProgram(config, secretKeys);
    expect(resources.some((resource) => resource.type === DEPLOYMENT)).toBe(true);
    expect(leaks(resources)).toEqual([]);
  });

  it('reach the pods only as environment from Secrets: no container has a value that is a secret', async () => {
    const { resources } = await runProgram({ ...REHEARSAL, ...EVERY_SECRET, loginServiceStoreUrl: '', loginServiceReplicas: '' });
    const workloads = [
      ...resources.filter((resource) => resource.type === DEPLOYMENT).map((resource) => workloadSpec(resources, resource.name)),
      workloadSpec(resources, 'auth-core-postgres', STATEFUL_SET),
    ];
    expect(workloads).toHaveLength(3);
    const secretNames = resources.filter((resource) => resource.type === SECRET).map((resource) => `${resource.name}-mock`);
    for (const container of workloads.flatMap((workload) => workload.template.spec.containers)) {
      for (const variable of container.env ?? []) {
        if (variable.value !== undefined) expect(SECRET_VALUES, variable.name).not.toContain(variable.value);
        else expect(secretNames, variable.name).toContain(variable.valueFrom?.secretKeyRef?.name);
      }
    }
  });

  it('are where the walk would have found them, so the walk can fail', async () => {
    const { resources } = await runProgram({ ...PRODUCTION, ...EVERY_SECRET });
    expect(secretData(resources, 'auth-core-keys')).toMatchObject({ 'api-key': API_KEY, 'database-url': DATABASE_URL });
    expect(secretData(resources, 'login-migration-keys')).toMatchObject({
      'service-key': SERVICE_KEY,
      'store-url': STORE_URL,
      'old-system-secret': OLD_SYSTEM_SECRET,
    });
    const registry: unknown = JSON.parse(secretData(resources, 'registry')['.dockerconfigjson'] ?? '{}');
    expect(registry).toEqual({
      auths: { 'registry.example': { username: 'deploy', password: REGISTRY_PASSWORD, auth: Buffer.from(`deploy:${REGISTRY_PASSWORD}`).toString('base64') } },
    });
    const unwrapped = resources.map((resource) => ({ ...resource, plainText: JSON.stringify(resource.inputs).split('"') }));
    expect(leaks(unwrapped)).not.toEqual([]);
  });

  it('keeps the api-key a secret output', async () => {
    const { program } = await runProgram(PRODUCTION, []);
    expect(await pulumi.isSecret(program.apiKey)).toBe(true);
  });
});
