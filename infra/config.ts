import { z } from 'zod';

/** The stack config namespace: `pulumi config set` without a prefix writes here, because it is the project name. */
export const CONFIG_NAMESPACE = 'core-migrate';

export const CORE_PORT = 3567;
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';
export const DEFAULT_POSTGRES_IMAGE = 'postgres:16-alpine';

// The core refuses to start with a key shorter than 20 characters or with any other character.
const API_KEY_PATTERN = /^[A-Za-z0-9=-]{20,}$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IMAGE_PATTERN = /^\S+$/;

/** How to fix a key, as the exact command an operator types (secrets always with --secret). */
function setCommand(key: string, placeholder: string, secret = false): string {
  return `pulumi config set${secret ? ' --secret' : ''} ${CONFIG_NAMESPACE}:${key} ${placeholder}`;
}

const apiKeyFix = `run \`${setCommand('apiKey', '<key>', true)}\` with at least 20 characters of A-Z a-z 0-9 = - (for example the output of \`openssl rand -hex 24\`)`;

/**
 * Every value arrives as the string `pulumi config` stored (or undefined), so each field parses text.
 * Messages name the key and the fix but never the value: two of these keys are secrets.
 */
export const StackConfigSchema = z.object({
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
    .regex(IMAGE_PATTERN, {
      error: `${CONFIG_NAMESPACE}:image must be one image reference without spaces: run \`${setCommand('image', '<registry/repository:tag>')}\`.`,
    }),
  hostPort: z
    .string()
    .regex(/^\d+$/, { error: portError() })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: portError() }).max(65535, { error: portError() }))
    .default(CORE_PORT),
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
  postgresImage: z
    .string()
    .regex(IMAGE_PATTERN, {
      error: `${CONFIG_NAMESPACE}:postgresImage must be one image reference without spaces: run \`${setCommand('postgresImage', DEFAULT_POSTGRES_IMAGE)}\`.`,
    })
    .default(DEFAULT_POSTGRES_IMAGE),
  coreUrl: z
    .url({
      protocol: /^https?$/,
      error: `${CONFIG_NAMESPACE}:coreUrl must be an http(s) URL: run \`${setCommand('coreUrl', 'http://<host>:<port>')}\` with the address clients use to reach the core, or \`pulumi config rm ${CONFIG_NAMESPACE}:coreUrl\`.`,
    })
    .optional(),
});

function portError(): string {
  return `${CONFIG_NAMESPACE}:hostPort must be a port number from 1 to 65535: run \`${setCommand('hostPort', String(CORE_PORT))}\`.`;
}

export type StackConfig = z.infer<typeof StackConfigSchema>;
export type StackConfigKey = keyof StackConfig;
export type Database = StackConfig['database'];
export const STACK_CONFIG_KEYS = Object.keys(StackConfigSchema.shape) as StackConfigKey[];

/** Reads one raw stack config value; `pulumiConfigSource` is the real one, tests pass a plain object. */
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
export function configWarnings(config: StackConfig): string[] {
  const warnings: string[] = [];
  if (config.database === 'memory') {
    warnings.push(
      `${CONFIG_NAMESPACE}:database is memory: the core keeps its users in memory and loses every imported user when the container restarts. Use it for rehearsals only; set \`${setCommand('database', 'postgresql')}\` for anything real.`,
    );
  }
  if (!isLoopback(config.bindAddress)) {
    warnings.push(
      `${CONFIG_NAMESPACE}:bindAddress is ${config.bindAddress}: the core's port ${config.hostPort} is reachable beyond this host, guarded only by the api-key. Keep it only if that is what you want; \`${setCommand('bindAddress', DEFAULT_BIND_ADDRESS)}\` keeps it local.`,
    );
  }
  return warnings;
}

function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1';
}

/**
 * The URL clients use: the configured one, or the published port on the bind address.
 * A wildcard bind address is reachable on loopback, which is the only place the default can point to.
 */
export function defaultCoreUrl(config: Pick<StackConfig, 'bindAddress' | 'hostPort' | 'coreUrl'>): string {
  if (config.coreUrl !== undefined) return config.coreUrl.replace(/\/+$/, '');
  const host =
    config.bindAddress === '0.0.0.0'
      ? '127.0.0.1'
      : config.bindAddress === '::'
        ? '[::1]'
        : config.bindAddress.includes(':')
          ? `[${config.bindAddress}]`
          : config.bindAddress;
  return `http://${host}:${config.hostPort}`;
}
