import { resolve } from 'node:path';
import { ConnectionError } from '../connection/errors.js';
import { plainHttpWarning, readableByOthersWarning } from '../files/exposure-warnings.js';
import { resolveConnection, type Connection } from '../connection/resolve-connection.js';
import { CoreClient } from '../http/core-client.js';
import { commandRetryPolicy } from '../http/retry.js';
import { CoreClientConfigError } from '../http/target.js';
import type { Secret } from '../secret.js';
import { SettingError } from './setting-error.js';
import { settingFlag } from './setting-flags.js';
import type { MigrationSettings, SettingKey } from './settings.js';

export interface ConnectionContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A key typed in the terminal app: it stands in for CORE_API_KEY (and is never a setting or a flag). */
  apiKey?: Secret;
  pulumiBinary?: string;
}

const settingOfConnectionError: Record<ConnectionError['kind'], SettingKey> = {
  noCoreUrl: 'core',
  noApiKey: 'apiKeyFile',
  apiKeyFileUnreadable: 'apiKeyFile',
  caFileUnusable: 'caFile',
  invalidSetting: 'core',
  pulumiMissing: 'stack',
  pulumiFailed: 'stack',
  stackOutputsMissing: 'stack',
};

/** A connection problem as the setting that fixes it; its sentence names that setting in each face's terms. */
function connectionSettingError(error: ConnectionError): SettingError {
  let setting = settingOfConnectionError[error.kind];
  if (error.kind === 'invalidSetting' && /\btenant\b/i.test(error.message)) setting = 'tenant';
  else if (error.kind === 'invalidSetting' && /\bapp\b/i.test(error.message)) setting = 'app';
  const flag = settingFlag(setting).flag;
  return new SettingError(setting, error.message.includes(flag) ? error.message.replace(flag, '{setting}') : error.message);
}

/** Where the core is and which key to use: the settings, then the environment, then the stack (see resolveConnection). */
export async function connectionOf(settings: MigrationSettings, context: ConnectionContext): Promise<Connection | SettingError> {
  const env: NodeJS.ProcessEnv = { ...context.env };
  if (context.apiKey !== undefined && !context.apiKey.isEmpty) env['CORE_API_KEY'] = context.apiKey.reveal();
  const resolved = await resolveConnection(
    { core: settings.core, stack: settings.stack, tenant: settings.tenant, app: settings.app, apiKeyFile: settings.apiKeyFile, caFile: settings.caFile },
    env,
    { cwd: context.cwd, ...(context.pulumiBinary === undefined ? {} : { pulumiBinary: context.pulumiBinary }) },
  );
  return resolved instanceof ConnectionError ? connectionSettingError(resolved) : resolved;
}

export interface ClientOptions {
  /** Connections of the keep-alive pool: as many as requests may be in flight. */
  connections?: number;
  /** Secrets besides the api-key that no quoted core answer may show (the signer key). */
  redact?: readonly (Secret | undefined)[];
  /** The `giveUpAfter` setting (seconds): how long any request waits out push-backs and failures. Default 5 min. */
  giveUpAfter?: number | undefined;
}

/** The one way a run builds its client from a connection. */
export function clientOf(connection: Connection, options: ClientOptions = {}): CoreClient | SettingError {
  try {
    return new CoreClient({
      baseUrl: connection.coreUrls,
      apiKey: connection.apiKey,
      ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
      ...(connection.appId === undefined ? {} : { appId: connection.appId }),
      ...(connection.ca === undefined ? {} : { ca: connection.ca }),
      ...(options.connections === undefined ? {} : { connections: options.connections }),
      ...(options.redact === undefined ? {} : { redact: options.redact }),
      // One retry policy for every request of a command (the push's engine drives its own, to the same rule).
      retry: commandRetryPolicy(options.giveUpAfter === undefined ? undefined : options.giveUpAfter * 1000),
    });
  } catch (error) {
    if (error instanceof CoreClientConfigError) return new SettingError('core', error.message);
    throw error;
  }
}

/** e.g. "core from --core, api-key from CORE_API_KEY". */
export function describeConnectionSources(connection: Connection, stack: string | undefined): string {
  const from = (source: Connection['source'], flag: string, variable: string): string =>
    source === 'flags' ? flag : source === 'environment' ? variable : `stack ${stack ?? ''}`.trim();
  return (
    `core from ${from(connection.sources.coreUrl, '--core', 'CORE_URL')}, ` +
    `api-key from ${from(connection.sources.apiKey, '--api-key-file', 'CORE_API_KEY')}`
  );
}

/** Warnings before anything is sent: an api-key file others can read, a key that would travel in clear. */
export async function connectionWarnings(settings: MigrationSettings, coreUrls: readonly string[], cwd: string): Promise<string[]> {
  const warnings: string[] = [];
  const exposed = settings.apiKeyFile === undefined ? undefined : await readableByOthersWarning(resolve(cwd, settings.apiKeyFile), 'the api-key');
  if (exposed !== undefined) warnings.push(exposed);
  for (const url of coreUrls) {
    const clearText = plainHttpWarning(url);
    if (clearText !== undefined) warnings.push(clearText);
  }
  return warnings;
}
