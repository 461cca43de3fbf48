import type * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { CORE_PORT } from '../config.js';

/** What the Kubernetes program runs when its optional keys are left alone (../kubernetes-keys.ts says why none defaults there). */
export const KUBERNETES_DEFAULTS = {
  coreCpu: '1',
  // A JVM with the core's default heap and its PostgreSQL pool; below 1Gi it is killed for memory under a push.
  coreMemory: '1Gi',
  coreSpread: 'preferred',
  postgresStorage: '10Gi',
  loginServiceReplicas: 1,
} as const;

export type CoreSpread = 'preferred' | 'required';

/** The keys of the core's Secret; each reaches the pods only as one environment variable through secretKeyRef. */
export const CORE_SECRET_KEYS = { apiKey: 'api-key', signerKey: 'signer-key', databaseUrl: 'database-url' } as const;

/** Labels that tell this stack's pods apart from another stack's in the same namespace. */
export function podLabels(component: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'core-migrate',
    'app.kubernetes.io/instance': pulumi.getStack(),
    'app.kubernetes.io/component': component,
  };
}

/** An environment variable whose value is one key of a Secret, never the value itself. */
export function fromSecret(variable: string, secretName: pulumi.Input<string>, key: string): k8s.types.input.core.v1.EnvVar {
  return { name: variable, valueFrom: { secretKeyRef: { name: secretName, key } } };
}

const coreHello = { httpGet: { path: '/hello', port: CORE_PORT } };

/**
 * GET /hello on the core. The start-up probe gives the JVM and the first database migration three minutes before
 * liveness counts (as the Docker program's wait does); readiness takes a core out of the Service within seconds.
 */
export const CORE_PROBES = {
  startupProbe: { ...coreHello, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 36 },
  readinessProbe: { ...coreHello, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 2 },
  livenessProbe: { ...coreHello, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6 },
};
