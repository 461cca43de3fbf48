import { readFailureReason, readSettingText } from '../files/setting-text.js';
import { resolve as resolvePath } from 'node:path';
import { CoreClientConfigError, resolveCoreTargets } from '../http/target.js';
import { Secret } from '../secret.js';
import { ConnectionError, type ConnectionProblem } from './errors.js';
import { readStackConnection, type PulumiCliOptions, type StackConnection } from './pulumi-cli.js';
import { optional } from '../optional.js';

/** The environment variables the connection step reads. */
export const ConnectionEnv = {
  coreUrl: 'CORE_URL',
  apiKey: 'CORE_API_KEY',
} as const;

/** What an operator gave on the command line. There is deliberately no api-key value here: see apiKeyFile. */
export interface ConnectionInput {
  /** One core, or several that share one database (`--core` given more than once). */
  core?: string | readonly string[] | undefined;
  tenant?: string | undefined;
  app?: string | undefined;
  stack?: string | undefined;
  /** A file holding the api-key (surrounding whitespace ignored); a key on the command line would land in shell history and ps. */
  apiKeyFile?: string | undefined;
  /** A file of certificates (PEM) of the authority behind an https:// core's certificate. */
  caFile?: string | undefined;
}

export type ConnectionSource = 'flags' | 'environment' | 'stack';

export interface Connection {
  coreUrl: string;
  /** Every core to spread a push over (coreUrl first): each --core, or the stack's coreUrls, or [coreUrl]. */
  coreUrls: string[];
  apiKey: Secret;
  tenantId?: string;
  appId?: string;
  /** Where the core URL came from. */
  source: ConnectionSource;
  /** Where each value came from, for a message like "key from stack dev". */
  sources: { coreUrl: ConnectionSource; apiKey: ConnectionSource };
  /** The certificates (PEM) of `caFile`: the authorities an https:// core's certificate may be signed by. */
  ca?: string;
  /** From the stack outputs, when a stack was read. */
  signerKeyConfigured?: boolean;
}

/** The environment comes as resolveConnection's own argument, so only the CLI's location is an option. */
export type ResolveConnectionOptions = Pick<PulumiCliOptions, 'pulumiBinary' | 'cwd'>;

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/** A file a connection setting names, read whole; unreadable is a sentence naming it and the setting. */
async function readSettingFile(
  path: string,
  cwd: string | undefined,
  code: 'caFileUnusable' | 'apiKeyFileUnreadable',
  what: string,
): Promise<{ fullPath: string; text: string } | ConnectionError> {
  const fullPath = resolvePath(cwd ?? process.cwd(), path);
  try {
    return { fullPath, text: await readSettingText(fullPath) };
  } catch (error) {
    const reason = readFailureReason(error);
    return new ConnectionError(code, `The ${what} ${fullPath} cannot be read (${reason}): check the path given to {setting} and its permissions.`);
  }
}

async function readCaFile(path: string, cwd: string | undefined): Promise<string | ConnectionError> {
  const read = await readSettingFile(path, cwd, 'caFileUnusable', 'CA file');
  if (read instanceof ConnectionError) return read;
  if (!read.text.includes(PEM_CERTIFICATE)) {
    return new ConnectionError(
      'caFileUnusable',
      `The CA file ${read.fullPath} holds no certificate in PEM form (${PEM_CERTIFICATE} ...): give {setting} the authority's certificate, not its key or a DER file.`,
    );
  }
  return read.text;
}

async function readApiKeyFile(path: string, cwd: string | undefined): Promise<Secret | ConnectionError> {
  const read = await readSettingFile(path, cwd, 'apiKeyFileUnreadable', 'api-key file');
  if (read instanceof ConnectionError) return read;
  const key = read.text.trim();
  if (key === '') {
    return new ConnectionError('apiKeyFileUnreadable', `The api-key file ${read.fullPath} is empty: put the core's api-key in it, on one line.`);
  }
  return new Secret(key);
}

/** The --core values given, trimmed, empty ones dropped. */
function flagCores(core: ConnectionInput['core']): string[] {
  const values = core === undefined ? [] : typeof core === 'string' ? [core] : core;
  return values.map((value) => nonEmpty(value)).filter((value): value is string => value !== undefined);
}

/**
 * Puts together where the core is and which key to use. Each value is taken from the first place that has it:
 * - core URL: --core (each of them, when given more than once), then CORE_URL, then the stack's `coreUrl` output
 *   (and its `coreUrls`, when it runs replicas);
 * - api-key: --api-key-file, then CORE_API_KEY, then the stack's `apiKey` output;
 * - tenant and app: --tenant and --app only (default: public).
 * The stack is read only when --stack is given, and then always (a stack that cannot be read is an error).
 */
export async function resolveConnection(
  input: ConnectionInput,
  env: NodeJS.ProcessEnv,
  options: ResolveConnectionOptions = {},
): Promise<Connection | ConnectionProblem> {
  const stackName = nonEmpty(input.stack);
  let stack: StackConnection | undefined;
  if (stackName !== undefined) {
    const read = await readStackConnection(stackName, { ...options, env });
    if (read instanceof ConnectionError) return read;
    stack = read;
  }

  const flagCoreUrls = flagCores(input.core);
  const flagCore = flagCoreUrls[0];
  const envCore = nonEmpty(env[ConnectionEnv.coreUrl]);
  const core: { url: string; source: ConnectionSource } | undefined =
    flagCore !== undefined
      ? { url: flagCore, source: 'flags' }
      : envCore !== undefined
        ? { url: envCore, source: 'environment' }
        : stack !== undefined
          ? { url: stack.coreUrl, source: 'stack' }
          : undefined;
  if (core === undefined) {
    return new ConnectionError(
      'noCoreUrl',
      `No core address was given: pass {setting} http://host:3567, set ${ConnectionEnv.coreUrl}, or name a Pulumi stack with --stack.`,
    );
  }

  let apiKey: { key: Secret; source: ConnectionSource } | undefined;
  const apiKeyFile = nonEmpty(input.apiKeyFile);
  const envKey = nonEmpty(env[ConnectionEnv.apiKey]);
  if (apiKeyFile !== undefined) {
    const key = await readApiKeyFile(apiKeyFile, options.cwd);
    if (key instanceof ConnectionError) return key;
    apiKey = { key, source: 'flags' };
  } else if (envKey !== undefined) {
    apiKey = { key: new Secret(envKey), source: 'environment' };
  } else if (stack !== undefined) {
    apiKey = { key: stack.apiKey, source: 'stack' };
  }
  if (apiKey === undefined) {
    return new ConnectionError(
      'noApiKey',
      `No api-key was found: set ${ConnectionEnv.apiKey}, pass {setting}, or --stack (a key is never accepted as a command-line value).`,
    );
  }

  const caFile = nonEmpty(input.caFile);
  const ca = caFile === undefined ? undefined : await readCaFile(caFile, options.cwd);
  if (ca instanceof ConnectionError) return ca;

  const tenantId = nonEmpty(input.tenant);
  const appId = nonEmpty(input.app);
  const coreUrls = core.source === 'flags' ? flagCoreUrls : core.source === 'stack' && stack !== undefined ? stack.coreUrls : [core.url];
  try {
    resolveCoreTargets({ baseUrl: coreUrls, ...optional('tenantId', tenantId), ...optional('appId', appId) });
  } catch (error) {
    // The client's own refusal of an address, tenant or app: it names its setting already.
    if (error instanceof CoreClientConfigError) return error;
    throw error;
  }

  return {
    coreUrl: core.url,
    coreUrls,
    apiKey: apiKey.key,
    ...optional('tenantId', tenantId),
    ...optional('appId', appId),
    ...optional('ca', ca),
    source: core.source,
    sources: { coreUrl: core.source, apiKey: apiKey.source },
    ...optional('signerKeyConfigured', stack?.signerKeyConfigured),
  };
}
