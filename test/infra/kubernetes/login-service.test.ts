import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { valueOf } from '../support/pulumi-mocks.js';
import {
  CLAIM,
  CONFIG_MAP,
  PINNED_LOGIN_IMAGE,
  PRODUCTION,
  REHEARSAL,
  SERVICE,
  onlyContainer,
  resourceOf,
  secretData,
  specOf,
  workloadSpec,
} from '../support/kubernetes.js';
import { API_KEY, exported, runProgram } from '../support/run-program.js';

const SECRET_KEYS = ['apiKey', 'signerKey', 'registryPassword', 'databaseUrl', 'loginServiceKey', 'loginServiceStoreUrl'];

beforeEach(() => {
  vi.resetModules();
});

const SERVICE_KEY = 'login-service-key-0123456789';
const STORE_URL = 'postgresql://waiting:store-password@store.example/waiting';
const LOGIN = { loginService: 'true', loginServiceImage: PINNED_LOGIN_IMAGE, loginServiceKey: SERVICE_KEY };
const health = { httpGet: { path: '/health', port: 3568 } };

describe('the login-time service on Kubernetes', () => {
  it("runs the project's image as `login-migration serve` against the core's Service, probed on /health", async () => {
    const { resources, program } = await runProgram({ ...PRODUCTION, ...LOGIN, loginServicePort: '8080' });
    const service = onlyContainer(resources, 'login-migration');
    expect(service.image).toBe(PINNED_LOGIN_IMAGE);
    expect(service.args).toEqual(['login-migration', 'serve', '--host', '0.0.0.0', '--port', '3568', '--core', 'http://auth-core-mock:3567']);
    expect(service.readinessProbe).toMatchObject(health);
    expect(service.livenessProbe).toMatchObject(health);
    expect(specOf(resources, SERVICE, 'login-migration')).toMatchObject({ ports: [{ name: 'http', port: 8080, targetPort: 'http' }] });
    expect(await valueOf(exported(program.loginServiceUrl, 'loginServiceUrl'))).toBe('http://login-migration-mock.default.svc:8080');
  });

  it('keeps a single service on a SQLite file on a protected, retained claim, the old pod gone before the new one opens it', async () => {
    const { resources } = await runProgram({ ...REHEARSAL, ...LOGIN });
    const spec = workloadSpec(resources, 'login-migration');
    expect(spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    expect(resourceOf(resources, CLAIM, 'login-migration-store').options).toMatchObject({ retainOnDelete: true, protect: true });
    expect(spec.template.spec.volumes).toEqual([{ name: 'store', persistentVolumeClaim: { claimName: 'login-migration-store-mock' } }]);
    expect(spec.template.spec.securityContext).toMatchObject({ fsGroup: expect.any(Number) });
    const service = onlyContainer(resources, 'login-migration');
    expect(service.volumeMounts).toEqual([{ name: 'store', mountPath: '/var/lib/core-migrate' }]);
    expect(service.env).toContainEqual({ name: 'LOGIN_MIGRATION_STORE', value: '/var/lib/core-migrate/login-store.sqlite' });
  });

  it('runs several services on the PostgreSQL store, given only through the Secret, with no claim', async () => {
    const { resources } = await runProgram({ ...PRODUCTION, ...LOGIN, loginServiceReplicas: '3', loginServiceStoreUrl: STORE_URL });
    const spec = workloadSpec(resources, 'login-migration');
    expect(spec).toMatchObject({ replicas: 3, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
    expect(resources.filter((resource) => resource.type === CLAIM)).toEqual([]);
    const secretName = 'login-migration-keys-mock';
    expect(onlyContainer(resources, 'login-migration').env).toEqual([
      { name: 'LOGIN_MIGRATION_SERVICE_KEY', valueFrom: { secretKeyRef: { name: secretName, key: 'service-key' } } },
      { name: 'CORE_API_KEY', valueFrom: { secretKeyRef: { name: secretName, key: 'core-api-key' } } },
      { name: 'LOGIN_MIGRATION_STORE', valueFrom: { secretKeyRef: { name: secretName, key: 'store-url' } } },
    ]);
    expect(secretData(resources, 'login-migration-keys')).toEqual({ 'service-key': SERVICE_KEY, 'core-api-key': API_KEY, 'store-url': STORE_URL });
  });

  it('asks the old system of loginServiceVerifyWith: its settings a ConfigMap mounted read-only, its secret from the Secret', async () => {
    const settings = { kind: 'firebase', endpoint: 'https://identitytoolkit.googleapis.com' };
    const { resources } = await runProgram(
      { ...REHEARSAL, ...LOGIN, loginServiceVerifyWith: JSON.stringify(settings), loginServiceVerifyWithSecret: 'firebase-web-api-key-0123' },
      [...SECRET_KEYS, 'loginServiceVerifyWithSecret'],
    );
    const service = onlyContainer(resources, 'login-migration');
    expect(service.args?.slice(-2)).toEqual(['--verify-with', '/etc/core-migrate/verify-with.json']);
    expect(service.env).toContainEqual({
      name: 'LOGIN_MIGRATION_OLD_SYSTEM_SECRET',
      valueFrom: { secretKeyRef: { name: 'login-migration-keys-mock', key: 'old-system-secret' } },
    });
    expect(secretData(resources, 'login-migration-keys')).toMatchObject({ 'old-system-secret': 'firebase-web-api-key-0123' });
    expect(service.volumeMounts).toContainEqual({ name: 'verify-with', mountPath: '/etc/core-migrate', readOnly: true });
    expect(workloadSpec(resources, 'login-migration').template.spec.volumes).toContainEqual({
      name: 'verify-with',
      configMap: { name: 'login-migration-verify-with-mock' },
    });
    const map = resourceOf(resources, CONFIG_MAP, 'login-migration-verify-with');
    const file = z.object({ 'verify-with.json': z.string() }).parse(map.inputs['data'])['verify-with.json'];
    expect(JSON.parse(file)).toEqual({ ...settings, apiKey: { env: 'LOGIN_MIGRATION_OLD_SYSTEM_SECRET' } });
    expect(file).not.toContain('firebase-web-api-key-0123');
  });

  it('is not there unless asked for', async () => {
    const { resources, program } = await runProgram(PRODUCTION);
    expect(resources.filter((resource) => resource.name.startsWith('login-migration'))).toEqual([]);
    expect(program.loginServiceUrl).toBeUndefined();
  });
});
