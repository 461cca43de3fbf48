import * as docker from '@pulumi/docker';
import * as pulumi from '@pulumi/pulumi';
import { LOGIN_SERVICE_PORT } from './config.js';
import { urlHostOf } from './core-urls.js';
import { OLD_SYSTEM_SECRET_ENV, VERIFY_WITH_PATH, verifyWithFileContent, type VerifyWith } from './old-system.js';

/** Where the SQLite store lives inside the service's container (on the stack's volume). */
export const LOGIN_STORE_DIRECTORY = '/var/lib/core-migrate';
export const LOGIN_STORE_SQLITE_PATH = `${LOGIN_STORE_DIRECTORY}/login-store.sqlite`;
/**
 * The environment the service reads its secrets from: its own key, the core's key, and the store (a PostgreSQL URL
 * holds a password, so it is never an argument, which `docker inspect` and `ps` show).
 */
export const LOGIN_SERVICE_ENV = { serviceKey: 'LOGIN_MIGRATION_SERVICE_KEY', coreApiKey: 'CORE_API_KEY', store: 'LOGIN_MIGRATION_STORE' } as const;

/** GET /health from inside the container with the image's own Node (core-migrate needs it, so it is there). */
export const LOGIN_SERVICE_HEALTH_PROBE = `fetch('http://127.0.0.1:${LOGIN_SERVICE_PORT}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`;

export interface LoginMigrationServiceArgs {
  /** An image whose entrypoint is `core-migrate` (Node 22.19 or newer with the core-migrate package installed). */
  image: string;
  serviceKey: pulumi.Input<string>;
  /** The core's api-key: the service creates the users it migrates in the core. */
  coreApiKey: pulumi.Input<string>;
  /** The core as the service reaches it on the stack's network. */
  coreUrl: pulumi.Input<string>;
  networkName: pulumi.Input<string>;
  bindAddress: string;
  hostPort: number;
  /** A PostgreSQL URL (several services sharing one store); without it, a SQLite file on a volume of this stack. */
  storeUrl?: pulumi.Input<string> | undefined;
  /** Default true: `pulumi destroy` and replacements refuse to touch the SQLite store's volume. */
  protectStore?: boolean | undefined;
  /** The old system asked for the users parked without a usable hash (`--verify-with`), and its secret. */
  verifyWith?: VerifyWith | undefined;
  verifyWithSecret?: pulumi.Input<string> | undefined;
  /** Started once these are (the core it creates users in). */
  dependsOn?: pulumi.Resource[] | undefined;
}

/**
 * `core-migrate login-migration serve` as a container beside the core: on the stack's network (it reaches the core
 * by its container name), published on bindAddress:hostPort, its keys and store in secret environment variables,
 * and, without a PostgreSQL URL, its SQLite store on a volume that outlives the container.
 */
export class LoginMigrationService extends pulumi.ComponentResource {
  readonly container: docker.Container;
  readonly storeVolume: docker.Volume | undefined;
  readonly url: pulumi.Output<string>;

  constructor(name: string, args: LoginMigrationServiceArgs, opts?: pulumi.ComponentResourceOptions) {
    super('core-migrate:infra:LoginMigrationService', name, {}, opts);
    const child = { parent: this };
    const image = new docker.RemoteImage(`${name}-image`, { name: args.image, keepLocally: true }, child);
    // The waiting users and their legacy hashes: kept when the container goes (retainOnDelete), and protected.
    this.storeVolume =
      args.storeUrl === undefined ? new docker.Volume(`${name}-store`, {}, { ...child, retainOnDelete: true, protect: args.protectStore ?? true }) : undefined;
    const envs = pulumi
      .all([args.serviceKey, args.coreApiKey, args.storeUrl ?? LOGIN_STORE_SQLITE_PATH, args.verifyWithSecret])
      .apply(([serviceKey, coreApiKey, store, oldSystemSecret]) => [
        `${LOGIN_SERVICE_ENV.serviceKey}=${serviceKey}`,
        `${LOGIN_SERVICE_ENV.coreApiKey}=${coreApiKey}`,
        `${LOGIN_SERVICE_ENV.store}=${store}`,
        ...(oldSystemSecret === undefined ? [] : [`${OLD_SYSTEM_SECRET_ENV}=${oldSystemSecret}`]),
      ]);
    const verifyWith = args.verifyWith;
    this.container = new docker.Container(
      `${name}-service`,
      {
        image: image.imageId,
        // Inside its container it listens on every interface: the published port on bindAddress is what limits who reaches it.
        command: pulumi
          .output(args.coreUrl)
          .apply((coreUrl) => [
            ...['login-migration', 'serve', '--host', '0.0.0.0', '--port', String(LOGIN_SERVICE_PORT), '--core', coreUrl],
            ...(verifyWith === undefined ? [] : ['--verify-with', VERIFY_WITH_PATH]),
          ]),
        // The old system's settings, their secret only named (it is in envs): a change replaces the container.
        ...(verifyWith !== undefined && {
          uploads: [{ file: VERIFY_WITH_PATH, content: verifyWithFileContent(verifyWith, args.verifyWithSecret !== undefined) }],
        }),
        networksAdvanced: [{ name: args.networkName }],
        ports: [{ internal: LOGIN_SERVICE_PORT, external: args.hostPort, ip: args.bindAddress, protocol: 'tcp' }],
        ...(this.storeVolume !== undefined && { volumes: [{ volumeName: this.storeVolume.name, containerPath: LOGIN_STORE_DIRECTORY }] }),
        restart: 'unless-stopped',
        envs: pulumi.secret(envs),
        healthcheck: { tests: ['CMD', 'node', '-e', LOGIN_SERVICE_HEALTH_PROBE], interval: '10s', timeout: '5s', retries: 6, startPeriod: '10s' },
        wait: true,
        waitTimeout: 120,
      },
      {
        ...child,
        additionalSecretOutputs: ['envs'],
        // One writer for the SQLite file and one holder of the host port: the old container goes first.
        deleteBeforeReplace: true,
        ...(args.dependsOn !== undefined && { dependsOn: args.dependsOn }),
      },
    );
    this.url = pulumi.output(`http://${urlHostOf(args.bindAddress)}:${args.hostPort}`);
    this.registerOutputs({ url: this.url, containerName: this.container.name, ...(this.storeVolume !== undefined && { storeVolume: this.storeVolume.name }) });
  }
}
