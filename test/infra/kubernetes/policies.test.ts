import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseImageReference } from '../../../infra/image-reference.js';
import { MOCK_PASSWORD, byType, type RegisteredResource } from '../support/pulumi-mocks.js';
import {
  CLAIM,
  DATABASE_URL,
  DEPLOYMENT,
  DISRUPTION_BUDGET,
  PINNED_LOGIN_IMAGE,
  PRODUCTION,
  REHEARSAL,
  SECRET,
  SERVICE,
  STATEFUL_SET,
  metadataOf,
  workloadSpec,
  type WorkloadSpec,
} from '../support/kubernetes.js';
import { SIGNER_KEY, runProgram, type ProgramRun } from '../support/run-program.js';

const SERVICE_KEY = 'login-service-key-0123456789';
const OLD_SYSTEM_SECRET = 'old-backend-bearer-token-0123';

/** Policies as tests (as test/infra/policies.test.ts for Docker): each rule against every resource of every stack. */
const STACKS: Record<string, Record<string, string>> = {
  'production, three cores and the login-time service on its SQLite store': {
    ...PRODUCTION,
    replicas: '3',
    signerKey: SIGNER_KEY,
    loginService: 'true',
    loginServiceImage: PINNED_LOGIN_IMAGE,
    loginServiceKey: SERVICE_KEY,
  },
  'a rehearsal with PostgreSQL in the cluster, in a namespace, spread strictly': {
    ...REHEARSAL,
    replicas: '2',
    kubernetesNamespace: 'auth',
    coreSpread: 'required',
  },
  'a rehearsal on the memory database, unprotected': { ...REHEARSAL, database: 'memory', protectDatabase: 'false' },
  'a rehearsal in a namespace, the login-time service asking an old system': {
    ...REHEARSAL,
    kubernetesNamespace: 'auth',
    loginService: 'true',
    loginServiceImage: PINNED_LOGIN_IMAGE,
    loginServiceKey: SERVICE_KEY,
    loginServiceVerifyWith: JSON.stringify({ kind: 'http', url: 'https://old.example/check-password' }),
    loginServiceVerifyWithSecret: OLD_SYSTEM_SECRET,
  },
};
const SECRET_VALUES = [PRODUCTION.apiKey, SIGNER_KEY, DATABASE_URL, SERVICE_KEY, OLD_SYSTEM_SECRET, MOCK_PASSWORD];

function workloads(resources: RegisteredResource[]): [RegisteredResource, WorkloadSpec][] {
  return resources
    .filter((resource) => resource.type === DEPLOYMENT || resource.type === STATEFUL_SET)
    .map((resource) => [resource, workloadSpec(resources, resource.name, resource.type)]);
}

const Labels = z.record(z.string(), z.string());
const ServiceSpec = z.object({ selector: Labels });
const BudgetSpec = z.object({ selector: z.object({ matchLabels: Labels }) });

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

describe.each(Object.entries(STACKS))('Kubernetes: %s', (_label, config) => {
  let run: ProgramRun;

  beforeAll(async () => {
    vi.resetModules();
    run = await runProgram(config);
  });

  it('#pods: every container has a readiness probe, requests and a memory limit', () => {
    for (const [workload, spec] of workloads(run.resources)) {
      for (const container of spec.template.spec.containers) {
        expect(container.readinessProbe, workload.name).toBeDefined();
        expect(container.resources?.requests, workload.name).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
        expect(container.resources?.limits, workload.name).toMatchObject({ memory: expect.any(String) });
      }
    }
  });

  it("#secrets: every environment variable is a plain setting or a key of one of the stack's Secrets", () => {
    const secrets = byType(run.resources, SECRET).map((secret) => `${secret.name}-mock`);
    for (const [workload, spec] of workloads(run.resources)) {
      for (const variable of spec.template.spec.containers.flatMap((container) => container.env ?? [])) {
        if (variable.value === undefined) expect(secrets, `${workload.name} ${variable.name}`).toContain(variable.valueFrom?.secretKeyRef?.name);
        else for (const secret of SECRET_VALUES) expect(variable.value, `${workload.name} ${variable.name}`).not.toContain(secret);
      }
    }
    for (const warning of run.warnings) for (const secret of SECRET_VALUES) expect(warning).not.toContain(secret);
  });

  it('#selectors: each Service and budget selects the pods of exactly one workload', () => {
    const podLabels = workloads(run.resources).map(([, spec]) => spec.template.metadata.labels);
    for (const resource of [...byType(run.resources, SERVICE), ...byType(run.resources, DISRUPTION_BUDGET)]) {
      const spec = resource.inputs['spec'];
      const selector = resource.type === SERVICE ? ServiceSpec.parse(spec).selector : BudgetSpec.parse(spec).selector.matchLabels;
      expect(
        podLabels.filter((labels) => selects(selector, labels)),
        `${resource.type} ${resource.name}`,
      ).toHaveLength(1);
    }
  });

  it("#namespace: every object is in the stack's namespace, or all in the provider's own", () => {
    const namespaces = run.resources.filter((resource) => resource.type.startsWith('kubernetes:')).map((resource) => metadataOf(resource)['namespace']);
    expect(new Set(namespaces)).toEqual(new Set([config['kubernetesNamespace']]));
  });

  it('#data: only volume claims are retained, protected unless the stack lifts it', () => {
    const kept = run.resources.filter((resource) => resource.options.retainOnDelete === true || resource.options.protect === true);
    for (const resource of kept) expect(resource.type, resource.name).toBe(CLAIM);
    for (const claim of byType(run.resources, CLAIM))
      expect(claim.options, claim.name).toMatchObject({ retainOnDelete: true, protect: config['protectDatabase'] !== 'false' });
  });

  it('#images: pinned by digest in production, warned about in a rehearsal', () => {
    for (const [workload, spec] of workloads(run.resources)) {
      for (const { image } of spec.template.spec.containers) {
        const reference = parseImageReference(image);
        if (typeof reference === 'object' && reference.digest !== undefined) continue;
        expect(config['rehearsal'], `${workload.name} ${image}`).toBe('true');
        expect(run.warnings, image).toContainEqual(expect.stringContaining(`${image} is not pinned by digest`));
      }
    }
  });
});
