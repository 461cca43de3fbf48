import { describe, expect, it } from 'vitest';
import { StackConfigError, configWarnings, readStackConfig, type StackConfig, type StackConfigKey } from '../../infra/config.js';
import { DATABASE_URL, PRODUCTION, REHEARSAL } from './support/kubernetes.js';

function read(values: Partial<Record<StackConfigKey, string>>): StackConfig | StackConfigError {
  return readStackConfig({ get: (key) => values[key] });
}

function problemsOf(values: Partial<Record<StackConfigKey, string>>): readonly string[] {
  const result = read(values);
  if (!(result instanceof StackConfigError)) throw new Error('expected the config to be refused');
  return result.problems;
}

function accepted(values: Partial<Record<StackConfigKey, string>>): StackConfig {
  const result = read(values);
  if (result instanceof StackConfigError) throw new Error(result.message);
  return result;
}

describe('the Kubernetes keys', () => {
  it('are read as given, and left unset (the program has their defaults) when empty', () => {
    expect(
      accepted({
        ...PRODUCTION,
        kubernetesNamespace: 'auth',
        coreCpu: '500m',
        coreMemory: '2Gi',
        coreSpread: 'required',
        rehearsal: 'false',
        loginServiceReplicas: '',
      }),
    ).toMatchObject({
      target: 'kubernetes',
      kubernetesNamespace: 'auth',
      coreCpu: '500m',
      coreMemory: '2Gi',
      coreSpread: 'required',
      rehearsal: false,
      databaseUrl: DATABASE_URL,
    });
    const rehearsal = accepted(REHEARSAL);
    for (const key of ['coreCpu', 'coreMemory', 'coreSpread', 'postgresStorage', 'loginServiceReplicas', 'databaseUrl'] as const)
      expect(rehearsal[key], key).toBeUndefined();
  });

  it.each<[StackConfigKey, string, RegExp]>([
    ['target', 'swarm', /core-migrate:target must be docker or kubernetes/],
    ['kubernetesNamespace', 'Auth_NS', /core-migrate:kubernetesNamespace must be a namespace name/],
    ['coreCpu', 'lots', /core-migrate:coreCpu must be a CPU quantity/],
    ['coreMemory', '1GB', /core-migrate:coreMemory must be a memory quantity in Mi, Gi or Ti/],
    ['coreSpread', 'always', /core-migrate:coreSpread must be preferred or required/],
    ['postgresStorage', '10', /core-migrate:postgresStorage must be a size/],
    ['rehearsal', 'yes', /core-migrate:rehearsal must be true or false/],
    ['loginServiceReplicas', '0', /core-migrate:loginServiceReplicas must be a whole number from 1 to 8/],
    ['databaseUrl', 'mysql://db/core', /core-migrate:databaseUrl must be a postgresql:\/\/ URL/],
  ])('refuse a bad %s with one sentence', (key, value, sentence) => {
    const problems = problemsOf({ ...REHEARSAL, [key]: value });
    expect(problems).toEqual([expect.stringMatching(sentence)]);
  });

  it('drop the rules that come from Docker ports: replicas run behind one address', () => {
    expect(accepted({ ...PRODUCTION, replicas: '8', hostPort: '65535', coreUrl: 'https://auth-core.example', loginService: 'false' }).replicas).toBe(8);
    expect(
      accepted({
        ...PRODUCTION,
        replicas: '3',
        loginService: 'true',
        loginServiceImage: PRODUCTION.image,
        loginServiceKey: 'service-key-0123456789',
        loginServicePort: '3568',
      }).loginServicePort,
    ).toBe(3568);
  });

  it('warn of no bind address on Kubernetes, where nothing is published on a host', () => {
    expect(configWarnings(accepted({ ...PRODUCTION, bindAddress: '0.0.0.0' }))).toEqual([]);
  });

  it('refuse the memory database beside a database URL', () => {
    expect(problemsOf({ ...REHEARSAL, database: 'memory', databaseUrl: DATABASE_URL })).toEqual([
      expect.stringContaining('core-migrate:databaseUrl is set but database is memory'),
    ]);
  });
});
