import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { LOGIN_SERVICE_PORT } from '../config.js';
import { LOGIN_SERVICE_ENV, LOGIN_STORE_DIRECTORY, LOGIN_STORE_SQLITE_PATH } from '../login-service.js';
import {
  OLD_SYSTEM_SECRET_ENV,
  VERIFY_WITH_DIRECTORY,
  VERIFY_WITH_FILE_NAME,
  VERIFY_WITH_PATH,
  verifyWithFileContent,
  type VerifyWith,
} from '../old-system.js';
import { fromSecret, podLabels } from './settings.js';

export interface KubernetesLoginServiceArgs {
  /** The project's image (entrypoint `core-migrate`), pinned by digest in production. */
  image: string;
  serviceKey: pulumi.Input<string>;
  coreApiKey: pulumi.Input<string>;
  /** The core as the pods reach it: its Service's name in the namespace. */
  coreUrl: pulumi.Input<string>;
  /** More than one needs storeUrl: several services share one PostgreSQL store, never a SQLite file. */
  replicas: number;
  /** The Service's port (the pods listen on LOGIN_SERVICE_PORT). */
  port: number;
  storeUrl?: pulumi.Input<string> | undefined;
  /** The old system asked for the users parked without a usable hash (`--verify-with`), and its secret. */
  verifyWith?: VerifyWith | undefined;
  verifyWithSecret?: pulumi.Input<string> | undefined;
  /** Default true: `pulumi destroy` and replacements refuse to touch the SQLite store's volume claim. */
  protectStore?: boolean | undefined;
  namespace?: string | undefined;
  imagePullSecrets?: k8s.types.input.core.v1.LocalObjectReference[] | undefined;
}

const SECRET_KEYS = { serviceKey: 'service-key', coreApiKey: 'core-api-key', store: 'store-url', oldSystem: 'old-system-secret' } as const;
/** Any group: kubelet makes the claim writable by it, whichever non-root user the image runs as. */
const STORE_GROUP = 65532;

/**
 * `core-migrate login-migration serve` as a Deployment behind a Service in the cluster: its keys and a PostgreSQL
 * store from a Secret, or its SQLite store on a protected volume claim with one pod at a time.
 */
export class KubernetesLoginService extends pulumi.ComponentResource {
  readonly deployment: k8s.apps.v1.Deployment;
  readonly service: k8s.core.v1.Service;
  readonly storeClaim: k8s.core.v1.PersistentVolumeClaim | undefined;
  /** Where a backend in the cluster asks at sign-in. */
  readonly url: pulumi.Output<string>;

  constructor(name: string, args: KubernetesLoginServiceArgs, opts?: pulumi.ComponentResourceOptions) {
    if (args.replicas > 1 && args.storeUrl === undefined) {
      throw new pulumi.RunError(`${args.replicas} login-time services cannot share one SQLite file: give them a PostgreSQL store (loginServiceStoreUrl).`);
    }
    super('core-migrate:infra:KubernetesLoginService', name, {}, opts);
    const child = { parent: this };
    const metadata = args.namespace === undefined ? {} : { namespace: args.namespace };
    const labels = podLabels('login-migration');
    const secret = new k8s.core.v1.Secret(
      `${name}-keys`,
      {
        metadata,
        stringData: pulumi.secret({
          [SECRET_KEYS.serviceKey]: args.serviceKey,
          [SECRET_KEYS.coreApiKey]: args.coreApiKey,
          ...(args.storeUrl === undefined ? {} : { [SECRET_KEYS.store]: args.storeUrl }),
          ...(args.verifyWithSecret === undefined ? {} : { [SECRET_KEYS.oldSystem]: args.verifyWithSecret }),
        }),
      },
      child,
    );
    // The old system's settings, their secret only named (it is in the Secret). Named by Pulumi, so a change makes a
    // new ConfigMap, and the Deployment that names it rolls its pods onto the new settings.
    const verifyWith = args.verifyWith;
    const verifyWithMap =
      verifyWith === undefined
        ? undefined
        : new k8s.core.v1.ConfigMap(
            `${name}-verify-with`,
            { metadata, data: { [VERIFY_WITH_FILE_NAME]: verifyWithFileContent(verifyWith, args.verifyWithSecret !== undefined) } },
            child,
          );

    // The waiting users and their legacy hashes: kept when the Deployment goes (retainOnDelete), and protected.
    this.storeClaim =
      args.storeUrl === undefined
        ? new k8s.core.v1.PersistentVolumeClaim(
            `${name}-store`,
            { metadata, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
            { ...child, retainOnDelete: true, protect: args.protectStore ?? true },
          )
        : undefined;
    const volumes: { volume: k8s.types.input.core.v1.Volume; mount: k8s.types.input.core.v1.VolumeMount }[] = [
      ...(this.storeClaim === undefined
        ? []
        : [
            {
              volume: { name: 'store', persistentVolumeClaim: { claimName: this.storeClaim.metadata.name } },
              mount: { name: 'store', mountPath: LOGIN_STORE_DIRECTORY },
            },
          ]),
      ...(verifyWithMap === undefined
        ? []
        : [
            {
              volume: { name: 'verify-with', configMap: { name: verifyWithMap.metadata.name } },
              mount: { name: 'verify-with', mountPath: VERIFY_WITH_DIRECTORY, readOnly: true },
            },
          ]),
    ];
    const secretName = secret.metadata.name;
    const health = { httpGet: { path: '/health', port: LOGIN_SERVICE_PORT } };
    this.deployment = new k8s.apps.v1.Deployment(
      `${name}`,
      {
        metadata,
        spec: {
          replicas: args.replicas,
          selector: { matchLabels: labels },
          // One writer for a SQLite file: the old pod goes before the new one opens it.
          strategy: this.storeClaim === undefined ? { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } : { type: 'Recreate' },
          template: {
            metadata: { labels },
            spec: {
              ...(args.imagePullSecrets === undefined ? {} : { imagePullSecrets: args.imagePullSecrets }),
              ...(this.storeClaim !== undefined && { securityContext: { fsGroup: STORE_GROUP, fsGroupChangePolicy: 'OnRootMismatch' } }),
              ...(volumes.length > 0 && { volumes: volumes.map(({ volume }) => volume) }),
              containers: [
                {
                  name: 'login-migration',
                  image: args.image,
                  // Every interface inside the pod: the Service is what reaches it.
                  args: pulumi
                    .output(args.coreUrl)
                    .apply((coreUrl) => [
                      ...['login-migration', 'serve', '--host', '0.0.0.0', '--port', String(LOGIN_SERVICE_PORT), '--core', coreUrl],
                      ...(verifyWith === undefined ? [] : ['--verify-with', VERIFY_WITH_PATH]),
                    ]),
                  ports: [{ name: 'http', containerPort: LOGIN_SERVICE_PORT }],
                  env: [
                    fromSecret(LOGIN_SERVICE_ENV.serviceKey, secretName, SECRET_KEYS.serviceKey),
                    fromSecret(LOGIN_SERVICE_ENV.coreApiKey, secretName, SECRET_KEYS.coreApiKey),
                    args.storeUrl === undefined
                      ? { name: LOGIN_SERVICE_ENV.store, value: LOGIN_STORE_SQLITE_PATH }
                      : fromSecret(LOGIN_SERVICE_ENV.store, secretName, SECRET_KEYS.store),
                    ...(args.verifyWithSecret === undefined ? [] : [fromSecret(OLD_SYSTEM_SECRET_ENV, secretName, SECRET_KEYS.oldSystem)]),
                  ],
                  ...(volumes.length > 0 && { volumeMounts: volumes.map(({ mount }) => mount) }),
                  resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
                  readinessProbe: { ...health, periodSeconds: 5, failureThreshold: 2 },
                  livenessProbe: { ...health, periodSeconds: 10, failureThreshold: 6 },
                },
              ],
            },
          },
        },
      },
      child,
    );
    this.service = new k8s.core.v1.Service(
      `${name}`,
      { metadata, spec: { type: 'ClusterIP', selector: labels, ports: [{ name: 'http', port: args.port, targetPort: 'http' }] } },
      child,
    );
    this.url = pulumi.interpolate`http://${this.service.metadata.name}.${this.service.metadata.namespace}.svc:${args.port}`;
    this.registerOutputs({ url: this.url, ...(this.storeClaim !== undefined && { storeClaim: this.storeClaim.metadata.name }) });
  }
}
