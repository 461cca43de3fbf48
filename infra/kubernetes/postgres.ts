import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import * as random from '@pulumi/random';
import { POSTGRES_DATABASE, POSTGRES_DATA_PATH, POSTGRES_PORT, POSTGRES_USER } from '../core-settings.js';
import { fromSecret, podLabels } from './settings.js';

export interface RehearsalPostgresArgs {
  image: string;
  /** The volume claim's size, e.g. 10Gi. */
  storage: string;
  /** Default true: `pulumi destroy` and replacements refuse to touch the volume claim. */
  protect?: boolean | undefined;
  namespace?: string | undefined;
  imagePullSecrets?: k8s.types.input.core.v1.LocalObjectReference[] | undefined;
}

const PASSWORD_KEY = 'password';

/**
 * PostgreSQL for a rehearsal: one pod of a StatefulSet (which never runs two pods of one identity, so never two
 * servers on one data directory) on a volume claim that Pulumi protects and retains, as the Docker program's volume.
 */
export class RehearsalPostgres extends pulumi.ComponentResource {
  readonly statefulSet: k8s.apps.v1.StatefulSet;
  readonly claim: k8s.core.v1.PersistentVolumeClaim;
  readonly service: k8s.core.v1.Service;
  /** A Pulumi secret: the URL the cores connect with, password included. */
  readonly url: pulumi.Output<string>;

  constructor(name: string, args: RehearsalPostgresArgs, opts?: pulumi.ComponentResourceOptions) {
    super('core-migrate:infra:RehearsalPostgres', name, {}, opts);
    const child = { parent: this };
    const metadata = args.namespace === undefined ? {} : { namespace: args.namespace };
    const labels = podLabels('postgres');
    // Letters and digits only: the password sits in a URL and must need no escaping.
    const password = pulumi.secret(new random.RandomPassword(`${name}-password`, { length: 32, special: false }, child).result);
    const secret = new k8s.core.v1.Secret(`${name}-password`, { metadata, stringData: { [PASSWORD_KEY]: password } }, child);
    // The migrated users live here. retainOnDelete: a deletion only forgets the claim, the cluster keeps it and its
    // volume; protect: Pulumi refuses to delete or replace it at all.
    this.claim = new k8s.core.v1.PersistentVolumeClaim(
      `${name}-data`,
      { metadata, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: args.storage } } } },
      { ...child, retainOnDelete: true, protect: args.protect ?? true },
    );
    // Headless: its name resolves to the one pod, which is all the cores need.
    this.service = new k8s.core.v1.Service(
      `${name}`,
      { metadata, spec: { clusterIP: 'None', selector: labels, ports: [{ name: 'postgres', port: POSTGRES_PORT }] } },
      child,
    );
    this.statefulSet = new k8s.apps.v1.StatefulSet(
      `${name}`,
      {
        metadata,
        spec: {
          replicas: 1,
          serviceName: this.service.metadata.name,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              ...(args.imagePullSecrets === undefined ? {} : { imagePullSecrets: args.imagePullSecrets }),
              containers: [
                {
                  name: 'postgres',
                  image: args.image,
                  ports: [{ name: 'postgres', containerPort: POSTGRES_PORT }],
                  env: [
                    { name: 'POSTGRES_USER', value: POSTGRES_USER },
                    { name: 'POSTGRES_DB', value: POSTGRES_DATABASE },
                    fromSecret('POSTGRES_PASSWORD', secret.metadata.name, PASSWORD_KEY),
                    // A fresh volume's root holds lost+found, where initdb refuses to start: the data goes one folder down.
                    { name: 'PGDATA', value: `${POSTGRES_DATA_PATH}/pgdata` },
                  ],
                  volumeMounts: [{ name: 'data', mountPath: POSTGRES_DATA_PATH }],
                  readinessProbe: { exec: { command: ['pg_isready', '-U', POSTGRES_USER, '-d', POSTGRES_DATABASE] }, periodSeconds: 5, failureThreshold: 3 },
                  resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } },
                },
              ],
              volumes: [{ name: 'data', persistentVolumeClaim: { claimName: this.claim.metadata.name } }],
            },
          },
        },
      },
      child,
    );
    this.url = pulumi.secret(pulumi.interpolate`postgresql://${POSTGRES_USER}:${password}@${this.service.metadata.name}:${POSTGRES_PORT}/${POSTGRES_DATABASE}`);
    this.registerOutputs({ claimName: this.claim.metadata.name, serviceName: this.service.metadata.name });
  }
}
