import { z } from 'zod';
import { CONFIG_NAMESPACE, imageReference, setCommand, wholeNumber, type ImageKey } from './config-terms.js';
import { formatImageReference, parseImageReference } from './image-reference.js';
import { KUBERNETES_KEYS, targetProblems } from './kubernetes-keys.js';
import { VerifyWithSchema, verifyWithProblems } from './old-system.js';

export { CONFIG_NAMESPACE, setCommand } from './config-terms.js';

export const CORE_PORT = 3567;
/** The login-time migration service's port, inside its container and by default on the host: the one after the core's. */
export const LOGIN_SERVICE_PORT = 3568;
/** As core-client's MIN_SERVICE_KEY_LENGTH (infra takes only types from core-client): the service refuses a shorter key. */
const MIN_LOGIN_SERVICE_KEY_LENGTH = 16;
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';
export const DEFAULT_POSTGRES_IMAGE = 'postgres:16-alpine';
/**
 * Each core keeps its own pool of PostgreSQL connections (10 by default on cores of this kind), and PostgreSQL
 * accepts 100 connections unless told otherwise: 8 cores stay below that with room for an operator's psql.
 */
export const MAX_REPLICAS = 8;

// The core refuses to start with a key shorter than 20 characters or with any other character.
const API_KEY_PATTERN = /^[A-Za-z0-9=-]{20,}$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const REGISTRY_ADDRESS_PATTERN = /^[A-Za-z0-9.-]+(?::\d+)?$/;

const apiKeyFix = `run \`${setCommand('apiKey', '<key>', true)}\` with at least 20 characters of A-Z a-z 0-9 = - (for example the output of \`openssl rand -hex 24\`)`;

/**
 * Every value arrives as the string `pulumi config` stored (or undefined), so each field parses text.
 * Messages name the key and the fix but never the value: the keys of SECRET_KEYS are secrets.
 */
export const StackConfigSchema = z
  .object({
    /** Where the core runs: containers on one Docker engine, or a Deployment on a Kubernetes cluster. */
    target: z
      .enum(['docker', 'kubernetes'], {
        error: `${CONFIG_NAMESPACE}:target must be docker or kubernetes: run \`${setCommand('target', 'kubernetes')}\` for a cluster (the provider reads kubernetes:* and the kubeconfig), or \`pulumi config rm ${CONFIG_NAMESPACE}:target\` for one Docker engine.`,
      })
      .default('docker'),
    apiKey: z.string({ error: `${CONFIG_NAMESPACE}:apiKey is not set: ${apiKeyFix}.` }).regex(API_KEY_PATTERN, {
      error: `${CONFIG_NAMESPACE}:apiKey is not a key the core accepts (the core refuses to start with it): ${apiKeyFix}.`,
    }),
    signerKey: z
      .string()
      .regex(BASE64_PATTERN, {
        error: `${CONFIG_NAMESPACE}:signerKey must be base64 (the provider's base64_signer_key, copied as is): run \`${setCommand('signerKey', '<base64_signer_key>', true)}\`, or \`pulumi config rm ${CONFIG_NAMESPACE}:signerKey\` if no scrypt-variant users will be imported.`,
      })
      .optional(),
    image: z
      .string({
        error: `${CONFIG_NAMESPACE}:image is not set: run \`${setCommand('image', '<registry/repository:tag>')}\` with the core's container image.`,
      })
      .pipe(imageReference('image', 'registry.example/auth-core:9.3')),
    hostPort: wholeNumber(
      1,
      65535,
      `${CONFIG_NAMESPACE}:hostPort must be a port number from 1 to 65535: run \`${setCommand('hostPort', String(CORE_PORT))}\`.`,
    ).default(CORE_PORT),
    bindAddress: z
      .union([z.ipv4(), z.ipv6()], {
        error: `${CONFIG_NAMESPACE}:bindAddress must be an IP address of the Docker host: run \`${setCommand('bindAddress', DEFAULT_BIND_ADDRESS)}\` (only this machine) or another address you chose on purpose.`,
      })
      .default(DEFAULT_BIND_ADDRESS),
    database: z
      .enum(['memory', 'postgresql'], {
        error: `${CONFIG_NAMESPACE}:database must be postgresql or memory: run \`${setCommand('database', 'postgresql')}\` (memory is for rehearsals only; its users are lost on restart).`,
      })
      .default('postgresql'),
    postgresImage: imageReference('postgresImage', 'postgres:16-alpine').default(DEFAULT_POSTGRES_IMAGE),
    coreUrl: z
      .url({
        protocol: /^https?$/,
        error: `${CONFIG_NAMESPACE}:coreUrl must be an http(s) URL: run \`${setCommand('coreUrl', 'http://<host>:<port>')}\` with the address clients use to reach the core, or \`pulumi config rm ${CONFIG_NAMESPACE}:coreUrl\`.`,
      })
      .optional(),
    replicas: wholeNumber(
      1,
      MAX_REPLICAS,
      `${CONFIG_NAMESPACE}:replicas must be a whole number from 1 to ${MAX_REPLICAS} (each core holds its own PostgreSQL connections): run \`${setCommand('replicas', '1')}\`.`,
    ).default(1),
    protectDatabase: z
      .enum(['true', 'false'], {
        error: `${CONFIG_NAMESPACE}:protectDatabase must be true or false: run \`${setCommand('protectDatabase', 'true')}\` (false only on the way to deleting the database on purpose).`,
      })
      .transform((value) => value === 'true')
      .default(true),
    registryAddress: z
      .string()
      .regex(REGISTRY_ADDRESS_PATTERN, {
        error: `${CONFIG_NAMESPACE}:registryAddress must be a registry host, optionally with its port (e.g. registry.example:5000): run \`${setCommand('registryAddress', '<host>')}\`.`,
      })
      .optional(),
    registryUsername: z.string().optional(),
    registryPassword: z.string().optional(),
    /** A second container beside the core: `core-migrate login-migration serve`, for the users parked for their first sign-in. */
    loginService: z
      .enum(['true', 'false'], {
        error: `${CONFIG_NAMESPACE}:loginService must be true or false: run \`${setCommand('loginService', 'true')}\` to run the login-time migration service beside the core.`,
      })
      .transform((value) => value === 'true')
      .default(false),
    loginServiceImage: imageReference('loginServiceImage', 'registry.example/core-migrate:0.1').optional(),
    loginServicePort: wholeNumber(
      1,
      65535,
      `${CONFIG_NAMESPACE}:loginServicePort must be a port number from 1 to 65535: run \`${setCommand('loginServicePort', String(LOGIN_SERVICE_PORT))}\`.`,
    ).default(LOGIN_SERVICE_PORT),
    loginServiceKey: z
      .string()
      .min(MIN_LOGIN_SERVICE_KEY_LENGTH, {
        error: `${CONFIG_NAMESPACE}:loginServiceKey is shorter than ${MIN_LOGIN_SERVICE_KEY_LENGTH} characters: run \`${setCommand('loginServiceKey', '<key>', true)}\` with a long random key (e.g. \`openssl rand -hex 32\`), not the core's.`,
      })
      .optional(),
    /** A PostgreSQL URL for a store several services share; without it, a SQLite file on a volume of this stack. */
    loginServiceStoreUrl: z
      .url({
        protocol: /^postgres(?:ql)?$/,
        error: `${CONFIG_NAMESPACE}:loginServiceStoreUrl must be a postgresql:// URL: run \`${setCommand('loginServiceStoreUrl', 'postgresql://<user>:<password>@<host>/<database>', true)}\`, or \`pulumi config rm ${CONFIG_NAMESPACE}:loginServiceStoreUrl\` for the SQLite store on a volume.`,
      })
      .optional(),
    /** The old system the service asks for users parked without a usable hash: the --verify-with file's JSON, without its secret. */
    loginServiceVerifyWith: VerifyWithSchema.optional(),
    /** That old system's secret (Firebase's Web API key, a client secret, a bearer token). */
    loginServiceVerifyWithSecret: z.string().optional(),
    ...KUBERNETES_KEYS,
  })
  .superRefine(
    (config, context) => {
      for (const message of crossKeyProblems(config)) context.addIssue({ code: 'custom', message });
    },
    // Keys are compared only once each is valid on its own: a broken key is reported once, by its own sentence.
    { when: (payload) => payload.issues.length === 0 },
  );

export type StackConfig = z.infer<typeof StackConfigSchema>;
export type StackConfigKey = keyof StackConfig;
export type Database = StackConfig['database'];
export const STACK_CONFIG_KEYS = Object.keys(StackConfigSchema.shape) as StackConfigKey[];

/** Read with getSecret, so they reach the program as Pulumi secrets and never as plain variables. */
export const SECRET_KEYS = [
  'apiKey',
  'signerKey',
  'registryPassword',
  'loginServiceKey',
  'loginServiceStoreUrl',
  'loginServiceVerifyWithSecret',
  'databaseUrl',
] as const satisfies readonly StackConfigKey[];
export type SecretKey = (typeof SECRET_KEYS)[number];
export type PlainStackConfig = Omit<StackConfig, SecretKey>;
export type PlainKey = keyof PlainStackConfig;
export const PLAIN_KEYS = STACK_CONFIG_KEYS.filter((key): key is PlainKey => !(SECRET_KEYS as readonly string[]).includes(key));

export function isSecretKey(key: StackConfigKey): key is SecretKey {
  return (SECRET_KEYS as readonly string[]).includes(key);
}

/** Several cores need one database to share: on either target, and asked again by each target's component. */
export function sharedDatabaseProblem(config: Pick<StackConfig, 'replicas' | 'database'>): string | undefined {
  if (config.replicas > 1 && config.database === 'memory') {
    return `${CONFIG_NAMESPACE}:replicas is ${config.replicas} but database is memory: each core would keep its own users in memory, so a push spread over them would scatter the users. Run \`${setCommand('database', 'postgresql')}\` to share one database, or \`${setCommand('replicas', '1')}\`.`;
  }
  return undefined;
}

/** Why `replicas` cannot be used as configured on Docker, or undefined; the component asks the same question. */
export function replicasProblem(config: Pick<StackConfig, 'replicas' | 'database' | 'hostPort'>): string | undefined {
  const shared = sharedDatabaseProblem(config);
  if (shared !== undefined) return shared;
  const lastPort = config.hostPort + config.replicas - 1;
  if (lastPort > 65535) {
    return `${CONFIG_NAMESPACE}:replicas is ${config.replicas} from hostPort ${config.hostPort}, which would publish ports up to ${lastPort}: run \`${setCommand('hostPort', String(65536 - config.replicas))}\` or lower.`;
  }
  return undefined;
}

function crossKeyProblems(config: StackConfig): string[] {
  // On Kubernetes the cores share one Service address: no ports follow hostPort or coreUrl's.
  const problems = config.target === 'docker' ? dockerPortProblems(config) : [];
  const shared = sharedDatabaseProblem(config);
  if (config.target === 'kubernetes' && shared !== undefined) problems.push(shared);
  problems.push(...loginServiceProblems(config), ...verifyWithProblems(config), ...targetProblems(config), ...registryProblems(config));
  return problems;
}

function dockerPortProblems(config: StackConfig): string[] {
  const problems: string[] = [];
  const replicas = replicasProblem(config);
  if (replicas !== undefined) problems.push(replicas);
  const coreUrlPort = config.coreUrl === undefined ? undefined : new URL(config.coreUrl).port;
  if (coreUrlPort !== undefined && config.replicas > 1) {
    if (coreUrlPort === '') {
      problems.push(
        `${CONFIG_NAMESPACE}:coreUrl must name its port when replicas is more than 1, because the other cores are reached on the ports after it: run \`${setCommand('coreUrl', `http://<host>:${config.hostPort}`)}\`.`,
      );
    } else if (Number(coreUrlPort) + config.replicas - 1 > 65535) {
      problems.push(
        `${CONFIG_NAMESPACE}:coreUrl's port ${coreUrlPort} leaves no room for ${config.replicas} cores on the ports after it: give coreUrl a port of at most ${65536 - config.replicas}.`,
      );
    }
  }
  const lastCorePort = config.hostPort + config.replicas - 1;
  if (config.loginService && config.loginServicePort >= config.hostPort && config.loginServicePort <= lastCorePort) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginServicePort ${config.loginServicePort} is a port of the cores (${config.hostPort}–${lastCorePort}): run \`${setCommand('loginServicePort', String(lastCorePort + 1))}\`.`,
    );
  }
  return problems;
}

function registryProblems(config: StackConfig): string[] {
  const problems: string[] = [];
  const registry = { registryAddress: config.registryAddress, registryUsername: config.registryUsername, registryPassword: config.registryPassword };
  const missing = Object.entries(registry)
    .filter(([, value]) => value === undefined)
    .map(([key]) => key);
  if (missing.length > 0 && missing.length < 3) {
    problems.push(
      `${CONFIG_NAMESPACE}:${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set, but the other registry settings are: a private registry needs all three (\`${setCommand('registryAddress', '<host>')}\`, \`${setCommand('registryUsername', '<user>')}\`, \`${setCommand('registryPassword', '<password>', true)}\`), or remove them all with \`pulumi config rm\`.`,
    );
  }
  return problems;
}

function loginServiceProblems(config: StackConfig): string[] {
  if (!config.loginService) return [];
  const problems: string[] = [];
  if (config.loginServiceImage === undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginService is true but loginServiceImage is not set: run \`${setCommand('loginServiceImage', '<registry/repository:tag>')}\` with an image whose entrypoint is core-migrate.`,
    );
  }
  if (config.loginServiceKey === undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginService is true but loginServiceKey is not set: run \`${setCommand('loginServiceKey', '<key>', true)}\` (the key the backend sends; not the core's).`,
    );
  }
  return problems;
}

/** Reads one raw stack config value; `loadStackConfig` is the real one, tests pass a plain object. */
export interface StackConfigSource {
  get(key: StackConfigKey): string | undefined;
}

/** Every problem of a stack's config at once, each a sentence naming the key and the command that fixes it. */
export class StackConfigError extends Error {
  override readonly name = 'StackConfigError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`The stack config is not usable:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Validates the stack config before any resource exists; an empty value counts as not set. */
export function readStackConfig(source: StackConfigSource): StackConfig | StackConfigError {
  const raw: Partial<Record<StackConfigKey, string>> = {};
  for (const key of STACK_CONFIG_KEYS) {
    const value = source.get(key)?.trim();
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = StackConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // One sentence per key: a value that fails twice (e.g. not a number) should not be reported twice.
  const problems = [...new Set(parsed.error.issues.map((issue) => issue.message))];
  return new StackConfigError(problems);
}

/** What an operator should know about a valid config before the update goes ahead. */
export function configWarnings(config: PlainStackConfig & { databaseUrl?: unknown }): string[] {
  const warnings: string[] = [];
  if (config.database === 'memory') {
    warnings.push(
      `${CONFIG_NAMESPACE}:database is memory: the core keeps its users in memory and loses every imported user when the container restarts. Use it for rehearsals only; set \`${setCommand('database', 'postgresql')}\` for anything real.`,
    );
  }
  if (config.target === 'docker' && !isLoopback(config.bindAddress)) {
    warnings.push(
      `${CONFIG_NAMESPACE}:bindAddress is ${config.bindAddress}: the core's ports from ${config.hostPort} are reachable beyond this host, guarded only by the api-key. Keep it only if that is what you want; \`${setCommand('bindAddress', DEFAULT_BIND_ADDRESS)}\` keeps them local.`,
    );
  }
  const unpinned = unpinnedImageWarning('image', config.image);
  if (unpinned !== undefined) warnings.push(unpinned);
  if (config.loginService && config.loginServiceImage !== undefined) {
    const loginService = unpinnedImageWarning('loginServiceImage', config.loginServiceImage);
    if (loginService !== undefined) warnings.push(loginService);
  }
  // An external database (Kubernetes' databaseUrl) runs no PostgreSQL image of this stack's.
  if (config.database === 'postgresql' && config.databaseUrl === undefined) {
    const postgres = unpinnedImageWarning('postgresImage', config.postgresImage);
    if (postgres !== undefined) warnings.push(postgres);
  }
  return warnings;
}

/** A tag can be moved to another image: say so, and how to find the digest that pins today's. */
function unpinnedImageWarning(key: ImageKey, image: string): string | undefined {
  const reference = parseImageReference(image);
  if (typeof reference === 'string' || reference.digest !== undefined) return undefined;
  const shown = formatImageReference(reference);
  return (
    `${CONFIG_NAMESPACE}:${key} ${shown} is not pinned by digest: its registry can point the tag at another image, which the next replaced container would run with no change to this stack. ` +
    `Find the digest with \`docker buildx imagetools inspect ${shown}\` (the Digest: line) and pin it: \`${setCommand(key, `${shown}@sha256:<digest>`)}\`.`
  );
}

export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1';
}
