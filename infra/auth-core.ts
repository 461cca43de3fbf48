import * as docker from '@pulumi/docker';
import * as pulumi from '@pulumi/pulumi';
import * as random from '@pulumi/random';
// Types only: the program needs the contract's shape, not core-client's code (undici, native argon2) at run time.
import type { StackOutputs } from 'core-client';
import { CORE_PORT, DEFAULT_POSTGRES_IMAGE, replicasProblem, type Database } from './config.js';
import { coreUrlsFor } from './core-urls.js';
import {
  POSTGRES_DATA_PATH,
  POSTGRES_HOST_ALIAS,
  WAIT_FOR_HEALTHY_SECONDS,
  coreEnvironment,
  coreHealthcheck,
  postgresEnvironment,
  postgresHealthcheck,
} from './core-settings.js';

/** Credentials of a private registry; only the image pulls use them. */
export interface RegistryCredentials {
  /** The registry's host (and port), as in the image reference. */
  address: string;
  username: string;
  password: pulumi.Input<string>;
}

/** The docker:* provider settings that say which engine to talk to (see dockerEngineSettings). */
export type DockerEngineSettings = Pick<docker.ProviderArgs, 'host' | 'context' | 'sshOpts' | 'certPath' | 'caMaterial' | 'certMaterial' | 'keyMaterial'>;

export interface AuthCoreArgs {
  /** The core's container image, e.g. `registry.example/auth-core:9.3`, or pinned: `…@sha256:<digest>`. */
  image: pulumi.Input<string>;
  /** Reaches the container only inside a secret output, whatever the caller passes. */
  apiKey: pulumi.Input<string>;
  /** The provider's base64_signer_key; needed only to import scrypt-variant users. */
  signerKey?: pulumi.Input<string> | undefined;
  /** The first core's host port; core i is published on hostPort + i. */
  hostPort: number;
  bindAddress: string;
  database: Database;
  postgresImage?: string | undefined;
  /** How many cores share the PostgreSQL database; default 1. More than 1 needs database postgresql. */
  replicas?: number | undefined;
  /** The URL clients use for the first core, when it is not the published port on bindAddress. */
  coreUrl?: string | undefined;
  /** Default true: `pulumi destroy` and replacements refuse to touch the database volume. */
  protectDatabase?: boolean | undefined;
  registry?: RegistryCredentials | undefined;
  /** Copied to the registry's provider so it talks to the same engine as the default provider. */
  dockerEngine?: DockerEngineSettings | undefined;
}

/** What the component publishes: exactly the stack outputs core-client's connection step reads, every one present. */
export type AuthCoreOutputs = { [K in keyof StackOutputs]-?: pulumi.Output<NonNullable<StackOutputs[K]>> };

const RESTART_POLICY = 'unless-stopped';

/**
 * A Docker network, the core's image, optionally PostgreSQL, and one or more core containers, on whatever engine
 * the Docker provider points at.
 */
export class AuthCore extends pulumi.ComponentResource {
  readonly network: docker.Network;
  /** One per replica; the first is published on hostPort. */
  readonly coreContainers: docker.Container[];
  readonly postgresContainer: docker.Container | undefined;
  readonly databaseVolume: docker.Volume | undefined;
  /** Pulumi secret; undefined for the in-memory database. */
  readonly postgresPassword: pulumi.Output<string> | undefined;
  readonly outputs: AuthCoreOutputs;

  constructor(name: string, args: AuthCoreArgs, opts?: pulumi.ComponentResourceOptions) {
    const replicas = args.replicas ?? 1;
    // Checked before registering: a refused component leaves nothing half-declared behind.
    const problem = replicasProblem({ replicas, database: args.database, hostPort: args.hostPort });
    if (problem !== undefined) throw new pulumi.RunError(problem);
    super('core-migrate:infra:AuthCore', name, {}, opts);
    const child = { parent: this };
    const imageProvider = args.registry === undefined ? undefined : this.createRegistryProvider(name, args.registry, args.dockerEngine ?? {});
    const imageOptions = { ...child, ...(imageProvider === undefined ? {} : { provider: imageProvider }) };

    this.network = new docker.Network(`${name}-network`, {}, child);
    const coreImage = new docker.RemoteImage(`${name}-image`, { name: args.image, keepLocally: true }, imageOptions);

    let postgres: { container: docker.Container; volume: docker.Volume; password: pulumi.Output<string> } | undefined;
    if (args.database === 'postgresql') {
      postgres = this.createPostgres(name, args.postgresImage ?? DEFAULT_POSTGRES_IMAGE, args.protectDatabase ?? true, imageOptions);
    }
    this.postgresContainer = postgres?.container;
    this.databaseVolume = postgres?.volume;
    this.postgresPassword = postgres?.password;

    const envs = pulumi
      .all([args.apiKey, args.signerKey, postgres?.password])
      .apply(([apiKey, signerKey, postgresPassword]) => coreEnvironment({ apiKey, signerKey, database: args.database, postgresPassword }));

    this.coreContainers = [];
    for (let index = 0; index < replicas; index += 1) {
      const first = this.coreContainers[0];
      const container = new docker.Container(
        index === 0 ? `${name}-core` : `${name}-core-${index + 1}`,
        {
          image: coreImage.imageId,
          networksAdvanced: [{ name: this.network.name }],
          ports: [{ internal: CORE_PORT, external: args.hostPort + index, ip: args.bindAddress, protocol: 'tcp' }],
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
          // The replacement publishes the same host port, which the old container holds until it is gone.
          deleteBeforeReplace: true,
          // The first core creates the database's tables; the others start once it is healthy instead of racing it.
          dependsOn: [...(postgres === undefined ? [] : [postgres.container]), ...(first === undefined ? [] : [first])],
        },
      );
      this.coreContainers.push(container);
    }

    const coreUrls = coreUrlsFor({ bindAddress: args.bindAddress, hostPort: args.hostPort, coreUrl: args.coreUrl, replicas });
    this.outputs = {
      coreUrl: pulumi.output(coreUrls[0]),
      coreUrls: pulumi.output(coreUrls),
      apiKey: pulumi.secret(args.apiKey),
      signerKeyConfigured: pulumi.output(args.signerKey !== undefined),
      database: pulumi.output(args.database),
    };
    this.registerOutputs({
      ...this.outputs,
      coreContainerNames: pulumi.all(this.coreContainers.map((container) => container.name)),
      networkName: this.network.name,
      ...(postgres === undefined ? {} : { databaseVolume: postgres.volume.name }),
    });
  }

  /**
   * The image pulls go through their own provider carrying the registry's credentials; the other resources stay on
   * the default provider, so adding or removing credentials never moves the containers or the volume to another one.
   */
  private createRegistryProvider(name: string, registry: RegistryCredentials, engine: DockerEngineSettings): docker.Provider {
    return new docker.Provider(
      `${name}-registry`,
      {
        ...engine,
        registryAuth: pulumi.secret([{ address: registry.address, username: registry.username, password: registry.password }]),
      },
      { parent: this },
    );
  }

  private createPostgres(
    name: string,
    image: string,
    protect: boolean,
    imageOptions: pulumi.CustomResourceOptions,
  ): { container: docker.Container; volume: docker.Volume; password: pulumi.Output<string> } {
    const child = { parent: this };
    // Letters and digits only: the password travels in environment variables and must need no quoting.
    const generated = new random.RandomPassword(`${name}-postgres-password`, { length: 32, special: false }, child);
    const password = pulumi.secret(generated.result);
    const postgresImage = new docker.RemoteImage(`${name}-postgres-image`, { name: image, keepLocally: true }, imageOptions);
    // The migrated users live here. retainOnDelete: a deletion (destroy, or a replacement once unprotected) only
    // forgets the volume, Docker keeps it; protect: Pulumi refuses to delete or replace it at all.
    const volume = new docker.Volume(`${name}-postgres-data`, {}, { ...child, retainOnDelete: true, protect });
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
      // Two PostgreSQL servers must never run on one data directory: the old one stops before the new one starts.
      { ...child, additionalSecretOutputs: ['envs'], deleteBeforeReplace: true },
    );
    return { container, volume, password };
  }
}

/** The docker:* stack config that says which engine the default provider talks to, for the registry's provider. */
export function dockerEngineSettings(config: pulumi.Config): DockerEngineSettings {
  const text = (key: string): Record<string, string> => {
    const value = config.get(key);
    return value === undefined ? {} : { [key]: value };
  };
  const sshOpts = config.getObject<string[]>('sshOpts');
  const keyMaterial = config.getSecret('keyMaterial');
  return {
    ...text('host'),
    ...text('context'),
    ...text('certPath'),
    ...text('caMaterial'),
    ...text('certMaterial'),
    ...(sshOpts === undefined ? {} : { sshOpts }),
    ...(keyMaterial === undefined ? {} : { keyMaterial }),
  };
}
