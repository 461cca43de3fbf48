import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { AuthCoreOutputs } from '../auth-core.js';
import { CORE_PORT, sharedDatabaseProblem, type Database } from '../config.js';
import { RehearsalPostgres } from './postgres.js';
import { CORE_PROBES, CORE_SECRET_KEYS, fromSecret, podLabels, type CoreSpread } from './settings.js';

export interface KubernetesAuthCoreArgs {
  /** The core's container image, pinned by digest in production. */
  image: string;
  /** Reaches the pods only through the core's Secret, inside a Pulumi secret whatever the caller passes. */
  apiKey: pulumi.Input<string>;
  signerKey?: pulumi.Input<string> | undefined;
  database: Database;
  /** An external PostgreSQL (production); without it and with database postgresql, a rehearsal StatefulSet. */
  databaseUrl?: pulumi.Input<string> | undefined;
  postgresImage: string;
  postgresStorage: string;
  protectDatabase?: boolean | undefined;
  replicas: number;
  cpu: string;
  memory: string;
  spread: CoreSpread;
  namespace?: string | undefined;
  imagePullSecrets?: k8s.types.input.core.v1.LocalObjectReference[] | undefined;
  /** The URL clients use: an ingress's, or the local end of `kubectl port-forward`. */
  coreUrl: string;
}

/**
 * The core as a Deployment of `replicas` pods behind one Service, spread over nodes, with a disruption budget, its
 * secrets in one Secret; and, for a rehearsal without a database URL, PostgreSQL in the cluster.
 */
export class KubernetesAuthCore extends pulumi.ComponentResource {
  readonly secret: k8s.core.v1.Secret;
  readonly deployment: k8s.apps.v1.Deployment;
  readonly service: k8s.core.v1.Service;
  readonly disruptionBudget: k8s.policy.v1.PodDisruptionBudget;
  readonly postgres: RehearsalPostgres | undefined;
  readonly outputs: AuthCoreOutputs;

  constructor(name: string, args: KubernetesAuthCoreArgs, opts?: pulumi.ComponentResourceOptions) {
    // Checked before registering: a refused component leaves nothing half-declared behind.
    const problem = sharedDatabaseProblem(args);
    if (problem !== undefined) throw new pulumi.RunError(problem);
    super('core-migrate:infra:KubernetesAuthCore', name, {}, opts);
    const child = { parent: this };
    const metadata = args.namespace === undefined ? {} : { namespace: args.namespace };
    const labels = podLabels('core');

    this.postgres =
      args.database === 'postgresql' && args.databaseUrl === undefined
        ? new RehearsalPostgres(
            `${name}-postgres`,
            {
              image: args.postgresImage,
              storage: args.postgresStorage,
              protect: args.protectDatabase,
              namespace: args.namespace,
              imagePullSecrets: args.imagePullSecrets,
            },
            child,
          )
        : undefined;
    const databaseUrl = args.database === 'memory' ? undefined : (args.databaseUrl ?? this.postgres?.url);

    // Auto-named: a changed key is a new Secret under a new name, so the Deployment rolls its pods onto it.
    this.secret = new k8s.core.v1.Secret(
      `${name}-keys`,
      {
        metadata,
        stringData: pulumi.secret({
          [CORE_SECRET_KEYS.apiKey]: args.apiKey,
          ...(args.signerKey === undefined ? {} : { [CORE_SECRET_KEYS.signerKey]: args.signerKey }),
          ...(databaseUrl === undefined ? {} : { [CORE_SECRET_KEYS.databaseUrl]: databaseUrl }),
        }),
      },
      child,
    );
    const secretName = this.secret.metadata.name;
    // Without POSTGRESQL_CONNECTION_URI the core runs its in-memory database.
    const env: k8s.types.input.core.v1.EnvVar[] = [
      fromSecret('API_KEYS', secretName, CORE_SECRET_KEYS.apiKey),
      { name: 'DISABLE_TELEMETRY', value: 'true' },
      ...(args.signerKey === undefined ? [] : [fromSecret('VENDOR_PASSWORD_HASHING_SIGNER_KEY', secretName, CORE_SECRET_KEYS.signerKey)]),
      ...(databaseUrl === undefined ? [] : [fromSecret('POSTGRESQL_CONNECTION_URI', secretName, CORE_SECRET_KEYS.databaseUrl)]),
    ];
    const resources = { cpu: args.cpu, memory: args.memory };

    this.deployment = new k8s.apps.v1.Deployment(
      `${name}`,
      {
        metadata,
        spec: {
          replicas: args.replicas,
          selector: { matchLabels: labels },
          // One pod at a time: a new one comes up before an old one goes, and never more than one is missing (N−1
          // ready); a single core is replaced without a gap.
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: Math.min(1, args.replicas - 1) } },
          template: {
            metadata: { labels },
            spec: {
              ...(args.imagePullSecrets === undefined ? {} : { imagePullSecrets: args.imagePullSecrets }),
              topologySpreadConstraints: [
                {
                  maxSkew: 1,
                  topologyKey: 'kubernetes.io/hostname',
                  whenUnsatisfiable: args.spread === 'required' ? 'DoNotSchedule' : 'ScheduleAnyway',
                  labelSelector: { matchLabels: labels },
                  // Only this revision's pods count: a rolling update does not skew against the pods it is replacing.
                  matchLabelKeys: ['pod-template-hash'],
                },
              ],
              containers: [
                {
                  name: 'core',
                  image: args.image,
                  ports: [{ name: 'http', containerPort: CORE_PORT }],
                  env,
                  resources: { requests: resources, limits: resources },
                  ...CORE_PROBES,
                },
              ],
            },
          },
        },
      },
      { ...child, ...(this.postgres === undefined ? {} : { dependsOn: [this.postgres] }) },
    );
    this.disruptionBudget = new k8s.policy.v1.PodDisruptionBudget(
      `${name}`,
      { metadata, spec: { maxUnavailable: 1, selector: { matchLabels: labels } } },
      child,
    );
    // kube-proxy picks a ready pod for each new connection: a client with several connections reaches several cores.
    this.service = new k8s.core.v1.Service(
      `${name}`,
      { metadata, spec: { type: 'ClusterIP', selector: labels, ports: [{ name: 'http', port: CORE_PORT, targetPort: 'http' }] } },
      child,
    );

    this.outputs = {
      coreUrl: pulumi.output(args.coreUrl),
      // One address: the Service spreads the connections, so the push needs no list of cores.
      coreUrls: pulumi.output([args.coreUrl]),
      apiKey: pulumi.secret(args.apiKey),
      signerKeyConfigured: pulumi.output(args.signerKey !== undefined),
      database: pulumi.output(args.database),
    };
    this.registerOutputs({ ...this.outputs, serviceName: this.service.metadata.name, deploymentName: this.deployment.metadata.name });
  }
}
