import { z } from 'zod';
import { expect } from 'vitest';
import { byType, onlyOne, type RegisteredResource } from './pulumi-mocks.js';
import { API_KEY, DIGEST } from './run-program.js';

export const DEPLOYMENT = 'kubernetes:apps/v1:Deployment';
export const STATEFUL_SET = 'kubernetes:apps/v1:StatefulSet';
export const SERVICE = 'kubernetes:core/v1:Service';
export const SECRET = 'kubernetes:core/v1:Secret';
export const CONFIG_MAP = 'kubernetes:core/v1:ConfigMap';
export const CLAIM = 'kubernetes:core/v1:PersistentVolumeClaim';
export const DISRUPTION_BUDGET = 'kubernetes:policy/v1:PodDisruptionBudget';

export const PINNED_CORE_IMAGE = `registry.example/auth-core:9.3@${DIGEST}`;
export const PINNED_LOGIN_IMAGE = `registry.example/core-migrate:0.1@${DIGEST}`;
export const DATABASE_URL = 'postgresql://core:database-password-0123@db.example:5432/core';

/** A production stack on a cluster: the least a team puts in its config. */
export const PRODUCTION = { target: 'kubernetes', apiKey: API_KEY, image: PINNED_CORE_IMAGE, databaseUrl: DATABASE_URL };
/** A rehearsal: PostgreSQL in the cluster, the image by tag. */
export const REHEARSAL = { target: 'kubernetes', apiKey: API_KEY, image: 'registry.example/auth-core:9.3', rehearsal: 'true' };
export const SECRET_CONFIG_KEYS = [
  'apiKey',
  'signerKey',
  'registryPassword',
  'databaseUrl',
  'loginServiceKey',
  'loginServiceStoreUrl',
  'loginServiceVerifyWithSecret',
];

const Labels = z.record(z.string(), z.string());
const Probe = z.looseObject({ httpGet: z.object({ path: z.string(), port: z.union([z.number(), z.string()]) }).optional() });

/** The parts of a pod's container these tests read, parsed from what the mock engine received. */
const ContainerSchema = z.object({
  name: z.string(),
  image: z.string(),
  args: z.array(z.string()).optional(),
  env: z
    .array(
      z.object({
        name: z.string(),
        value: z.string().optional(),
        valueFrom: z.object({ secretKeyRef: z.object({ name: z.string(), key: z.string() }).optional() }).optional(),
      }),
    )
    .optional(),
  resources: z.object({ requests: Labels.optional(), limits: Labels.optional() }).optional(),
  startupProbe: Probe.optional(),
  readinessProbe: Probe.optional(),
  livenessProbe: Probe.optional(),
  volumeMounts: z.array(z.object({ name: z.string(), mountPath: z.string(), readOnly: z.boolean().optional() })).optional(),
});
export type Container = z.infer<typeof ContainerSchema>;

const WorkloadSpecSchema = z.object({
  replicas: z.number(),
  selector: z.object({ matchLabels: Labels }),
  strategy: z.object({ type: z.string(), rollingUpdate: z.object({ maxSurge: z.number(), maxUnavailable: z.number() }).optional() }).optional(),
  template: z.object({
    metadata: z.object({ labels: Labels }),
    spec: z.object({
      containers: z.array(ContainerSchema),
      topologySpreadConstraints: z.array(z.looseObject({ labelSelector: z.object({ matchLabels: Labels }) })).optional(),
      imagePullSecrets: z.array(z.object({ name: z.string() })).optional(),
      securityContext: z.record(z.string(), z.unknown()).optional(),
      volumes: z
        .array(
          z.object({
            name: z.string(),
            persistentVolumeClaim: z.object({ claimName: z.string() }).optional(),
            configMap: z.object({ name: z.string() }).optional(),
          }),
        )
        .optional(),
    }),
  }),
});
export type WorkloadSpec = z.infer<typeof WorkloadSpecSchema>;

const ObjectSchema = z.record(z.string(), z.unknown());

/** The one resource of this type and name (a Deployment, its Service and its budget may share a name). */
export function resourceOf(resources: RegisteredResource[], type: string, name: string): RegisteredResource {
  return onlyOne(byType(resources, type), name);
}

/** A Deployment's (or, with its type, a StatefulSet's) spec, as the mock engine received it. */
export function workloadSpec(resources: RegisteredResource[], name: string, type = DEPLOYMENT): WorkloadSpec {
  return WorkloadSpecSchema.parse(resourceOf(resources, type, name).inputs['spec']);
}

export function onlyContainer(resources: RegisteredResource[], name: string, type = DEPLOYMENT): Container {
  const [container, ...others] = workloadSpec(resources, name, type).template.spec.containers;
  if (container === undefined || others.length > 0) throw new Error(`expected one container in ${name}`);
  return container;
}

export function specOf(resources: RegisteredResource[], type: string, name: string): Record<string, unknown> {
  return ObjectSchema.parse(resourceOf(resources, type, name).inputs['spec']);
}

/** A Secret's stringData, which the program must always pass as a Pulumi secret. */
export function secretData(resources: RegisteredResource[], name: string): Record<string, string> {
  const secret = resourceOf(resources, SECRET, name);
  expect(secret.secretInputs, name).toContain('stringData');
  return z.record(z.string(), z.string()).parse(secret.inputs['stringData']);
}

export function metadataOf(resource: RegisteredResource): Record<string, unknown> {
  return ObjectSchema.parse(resource.inputs['metadata'] ?? {});
}
