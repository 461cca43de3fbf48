import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CORE_SECRET_KEYS } from '../../../infra/kubernetes/settings.js';
import { MOCK_PASSWORD, nameOfType } from '../support/pulumi-mocks.js';
import {
  CLAIM,
  DATABASE_URL,
  DEPLOYMENT,
  DISRUPTION_BUDGET,
  PRODUCTION,
  REHEARSAL,
  SECRET,
  SERVICE,
  STATEFUL_SET,
  onlyContainer,
  resourceOf,
  secretData,
  specOf,
  workloadSpec,
} from '../support/kubernetes.js';
import { API_KEY, SIGNER_KEY, runProgram } from '../support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

const hello = { httpGet: { path: '/hello', port: 3567 } };

describe('the core on Kubernetes', () => {
  it('runs the configured replicas of the image, probed on /hello, with requests equal to limits', async () => {
    const { resources } = await runProgram({ ...PRODUCTION, replicas: '3', coreCpu: '1500m', coreMemory: '2Gi' });
    const spec = workloadSpec(resources, 'auth-core');
    expect(spec.replicas).toBe(3);
    const core = onlyContainer(resources, 'auth-core');
    expect(core.image).toBe(PRODUCTION.image);
    for (const probe of [core.startupProbe, core.readinessProbe, core.livenessProbe]) expect(probe).toMatchObject(hello);
    expect(core.resources).toEqual({ requests: { cpu: '1500m', memory: '2Gi' }, limits: { cpu: '1500m', memory: '2Gi' } });
  });

  it('has resources by default: one CPU and 1Gi a core', async () => {
    const { resources } = await runProgram(PRODUCTION);
    expect(onlyContainer(resources, 'auth-core').resources).toEqual({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } });
  });

  it('rolls one pod at a time and never has more than one missing; a single core is replaced without a gap', async () => {
    const three = await runProgram({ ...PRODUCTION, replicas: '3' });
    expect(workloadSpec(three.resources, 'auth-core').strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } });
    vi.resetModules();
    const one = await runProgram(PRODUCTION);
    expect(workloadSpec(one.resources, 'auth-core').strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  });

  it.each([
    ['preferred', 'ScheduleAnyway'],
    ['required', 'DoNotSchedule'],
  ])('spreads the cores over nodes as coreSpread %s says (%s)', async (coreSpread, whenUnsatisfiable) => {
    const { resources } = await runProgram({ ...PRODUCTION, replicas: '4', coreSpread });
    const spec = workloadSpec(resources, 'auth-core');
    expect(spec.template.spec.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable,
        labelSelector: { matchLabels: spec.template.metadata.labels },
        matchLabelKeys: ['pod-template-hash'],
      },
    ]);
  });

  it('spreads preferably when coreSpread is left alone, so a one-node rehearsal cluster still schedules every core', async () => {
    const { resources } = await runProgram(PRODUCTION);
    expect(workloadSpec(resources, 'auth-core').template.spec.topologySpreadConstraints?.[0]).toMatchObject({ whenUnsatisfiable: 'ScheduleAnyway' });
  });

  it('puts the pods behind one Service and under a disruption budget of one, both selecting exactly the core pods', async () => {
    const { resources } = await runProgram({ ...PRODUCTION, replicas: '2' });
    const spec = workloadSpec(resources, 'auth-core');
    const labels = spec.template.metadata.labels;
    expect(spec.selector.matchLabels).toEqual(labels);
    expect(specOf(resources, SERVICE, 'auth-core')).toEqual({ type: 'ClusterIP', selector: labels, ports: [{ name: 'http', port: 3567, targetPort: 'http' }] });
    expect(specOf(resources, DISRUPTION_BUDGET, 'auth-core')).toEqual({ maxUnavailable: 1, selector: { matchLabels: labels } });
    expect(labels['app.kubernetes.io/component']).toBe('core');
  });

  it('gives the core its keys and database only from its Secret, through secretKeyRef', async () => {
    const { resources } = await runProgram({ ...PRODUCTION, signerKey: SIGNER_KEY });
    const secretName = nameOfType(resources, SECRET, 'auth-core-keys');
    const ref = (key: string) => ({ valueFrom: { secretKeyRef: { name: secretName, key } } });
    expect(onlyContainer(resources, 'auth-core').env).toEqual([
      { name: 'API_KEYS', ...ref(CORE_SECRET_KEYS.apiKey) },
      { name: 'DISABLE_TELEMETRY', value: 'true' },
      { name: 'VENDOR_PASSWORD_HASHING_SIGNER_KEY', ...ref(CORE_SECRET_KEYS.signerKey) },
      { name: 'POSTGRESQL_CONNECTION_URI', ...ref(CORE_SECRET_KEYS.databaseUrl) },
    ]);
    expect(secretData(resources, 'auth-core-keys')).toEqual({
      [CORE_SECRET_KEYS.apiKey]: API_KEY,
      [CORE_SECRET_KEYS.signerKey]: SIGNER_KEY,
      [CORE_SECRET_KEYS.databaseUrl]: DATABASE_URL,
    });
  });

  it('uses the external database in production and runs no PostgreSQL of its own', async () => {
    const { resources } = await runProgram(PRODUCTION);
    expect(resources.filter((resource) => resource.type === STATEFUL_SET || resource.type === CLAIM)).toEqual([]);
  });

  it('declares nothing on Docker', async () => {
    const { resources } = await runProgram({
      ...REHEARSAL,
      loginService: 'true',
      loginServiceImage: 'core-migrate:0.1',
      loginServiceKey: 'service-key-0123456789',
    });
    expect(resources.filter((resource) => resource.type.startsWith('docker:'))).toEqual([]);
  });

  it('declares the same resources during a preview, where the names the provider gives are not known yet', async () => {
    const config = { ...REHEARSAL, replicas: '2', loginService: 'true', loginServiceImage: 'core-migrate:0.1', loginServiceKey: 'service-key-0123456789' };
    const update = await runProgram(config);
    vi.resetModules();
    const preview = await runProgram(config, undefined, true);
    const names = (run: typeof update) => run.resources.map((resource) => `${resource.type} ${resource.name}`).sort();
    expect(names(preview)).toEqual(names(update));
  });

  it('puts every object in the configured namespace', async () => {
    const { resources } = await runProgram({ ...REHEARSAL, kubernetesNamespace: 'auth' });
    const objects = resources.filter((resource) => resource.type.startsWith('kubernetes:'));
    expect(objects.length).toBeGreaterThan(5);
    for (const object of objects) expect(object.inputs['metadata'], object.name).toMatchObject({ namespace: 'auth' });
  });
});

describe('PostgreSQL in the cluster, for a rehearsal', () => {
  it('is one StatefulSet pod on a volume claim, its password from its own Secret, reached through a headless Service', async () => {
    const { resources } = await runProgram({ ...REHEARSAL, postgresStorage: '20Gi' });
    const spec = workloadSpec(resources, 'auth-core-postgres', STATEFUL_SET);
    expect(spec.replicas).toBe(1);
    const claimName = nameOfType(resources, CLAIM, 'auth-core-postgres-data');
    expect(spec.template.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName } }]);
    expect(specOf(resources, CLAIM, 'auth-core-postgres-data')).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } });
    const postgres = onlyContainer(resources, 'auth-core-postgres', STATEFUL_SET);
    expect(postgres.env).toContainEqual({
      name: 'POSTGRES_PASSWORD',
      valueFrom: { secretKeyRef: { name: nameOfType(resources, SECRET, 'auth-core-postgres-password'), key: 'password' } },
    });
    expect(specOf(resources, SERVICE, 'auth-core-postgres')).toMatchObject({ clusterIP: 'None', selector: spec.template.metadata.labels });
    expect(secretData(resources, 'auth-core-postgres-password')).toEqual({ password: MOCK_PASSWORD });
    const serviceName = nameOfType(resources, SERVICE, 'auth-core-postgres');
    expect(secretData(resources, 'auth-core-keys')[CORE_SECRET_KEYS.databaseUrl]).toBe(`postgresql://core:${MOCK_PASSWORD}@${serviceName}:5432/core`);
  });

  it('keeps its volume claim as the Docker program keeps its volume: retained, and protected unless protectDatabase is false', async () => {
    const guarded = await runProgram(REHEARSAL);
    expect(resourceOf(guarded.resources, CLAIM, 'auth-core-postgres-data').options).toMatchObject({ retainOnDelete: true, protect: true });
    vi.resetModules();
    const lifted = await runProgram({ ...REHEARSAL, protectDatabase: 'false' });
    expect(resourceOf(lifted.resources, CLAIM, 'auth-core-postgres-data').options).toMatchObject({ retainOnDelete: true, protect: false });
    const kept = lifted.resources.filter((resource) => resource.options.retainOnDelete === true);
    expect(kept.map((resource) => resource.type)).toEqual([CLAIM]);
  });

  it('is not there for the memory database, and the core gets no database setting', async () => {
    const { resources } = await runProgram({ ...REHEARSAL, database: 'memory' });
    expect(resources.filter((resource) => resource.type === STATEFUL_SET || resource.type === CLAIM)).toEqual([]);
    expect(onlyContainer(resources, 'auth-core').env?.map((variable) => variable.name)).toEqual(['API_KEYS', 'DISABLE_TELEMETRY']);
    expect(Object.keys(secretData(resources, 'auth-core-keys'))).toEqual([CORE_SECRET_KEYS.apiKey]);
  });

  it('starts the cores once it is declared, as they create their tables in it', async () => {
    const { resources } = await runProgram(REHEARSAL);
    const waitsFor = resourceOf(resources, DEPLOYMENT, 'auth-core').options.dependencies;
    expect(waitsFor.some((urn) => urn.endsWith('::auth-core-postgres'))).toBe(true);
  });
});
