import * as docker from '@pulumi/docker';
import * as pulumi from '@pulumi/pulumi';
import * as random from '@pulumi/random';
import { CORE_PORT, DEFAULT_POSTGRES_IMAGE, type Database } from './config.js';
import {
  POSTGRES_DATA_PATH,
  POSTGRES_HOST_ALIAS,
  WAIT_FOR_HEALTHY_SECONDS,
  coreEnvironment,
  coreHealthcheck,
  postgresEnvironment,
  postgresHealthcheck,
} from './core-settings.js';

export interface AuthCoreArgs {
  /** The core's container image, e.g. `registry.example/auth-core:9.3`. */
  image: pulumi.Input<string>;
  /** Reaches the container only inside a secret output, whatever the caller passes. */
  apiKey: pulumi.Input<string>;
  /** The provider's base64_signer_key; needed only to import scrypt-variant users. */
  signerKey?: pulumi.Input<string> | undefined;
  hostPort: number;
  bindAddress: string;
  database: Database;
  postgresImage?: string | undefined;
}

const RESTART_POLICY = 'unless-stopped';

/** A Docker network, the core's image, optionally PostgreSQL, and the core container, on whatever engine the Docker provider points at. */
export class AuthCore extends pulumi.ComponentResource {
  readonly network: docker.Network;
  readonly coreContainer: docker.Container;
  readonly postgresContainer: docker.Container | undefined;
  /** Pulumi secret; undefined for the in-memory database. */
  readonly postgresPassword: pulumi.Output<string> | undefined;

  constructor(name: string, args: AuthCoreArgs, opts?: pulumi.ComponentResourceOptions) {
    super('core-migrate:infra:AuthCore', name, {}, opts);
    const child = { parent: this };

    this.network = new docker.Network(`${name}-network`, {}, child);
    const coreImage = new docker.RemoteImage(`${name}-image`, { name: args.image, keepLocally: true }, child);

    let postgres: { container: docker.Container; password: pulumi.Output<string> } | undefined;
    if (args.database === 'postgresql') postgres = this.createPostgres(name, args.postgresImage ?? DEFAULT_POSTGRES_IMAGE);
    this.postgresContainer = postgres?.container;
    this.postgresPassword = postgres?.password;

    const envs = pulumi
      .all([args.apiKey, args.signerKey, postgres?.password])
      .apply(([apiKey, signerKey, postgresPassword]) => coreEnvironment({ apiKey, signerKey, database: args.database, postgresPassword }));

    this.coreContainer = new docker.Container(
      `${name}-core`,
      {
        image: coreImage.imageId,
        networksAdvanced: [{ name: this.network.name }],
        ports: [{ internal: CORE_PORT, external: args.hostPort, ip: args.bindAddress, protocol: 'tcp' }],
        restart: RESTART_POLICY,
        envs: pulumi.secret(envs),
        healthcheck: coreHealthcheck,
        wait: true,
        waitTimeout: WAIT_FOR_HEALTHY_SECONDS,
      },
      {
        ...child,
        // The envs hold the api-key, the signer key and the database password: encrypted in state, too.
        additionalSecretOutputs: ['envs'],
        dependsOn: postgres === undefined ? [] : [postgres.container],
      },
    );

    this.registerOutputs({ coreContainerId: this.coreContainer.id, networkName: this.network.name });
  }

  private createPostgres(name: string, image: string): { container: docker.Container; password: pulumi.Output<string> } {
    const child = { parent: this };
    // Letters and digits only: the password travels in environment variables and must need no quoting.
    const generated = new random.RandomPassword(`${name}-postgres-password`, { length: 32, special: false }, child);
    const password = pulumi.secret(generated.result);
    const postgresImage = new docker.RemoteImage(`${name}-postgres-image`, { name: image, keepLocally: true }, child);
    const volume = new docker.Volume(`${name}-postgres-data`, {}, child);
    const container = new docker.Container(
      `${name}-postgres`,
      {
        image: postgresImage.imageId,
        networksAdvanced: [{ name: this.network.name, aliases: [POSTGRES_HOST_ALIAS] }],
        volumes: [{ volumeName: volume.name, containerPath: POSTGRES_DATA_PATH }],
        restart: RESTART_POLICY,
        envs: pulumi.secret(password.apply(postgresEnvironment)),
        healthcheck: postgresHealthcheck,
        wait: true,
        waitTimeout: WAIT_FOR_HEALTHY_SECONDS,
      },
      { ...child, additionalSecretOutputs: ['envs'] },
    );
    return { container, password };
  }
}
