import { resolve } from 'node:path';
import { plainHttpWarning, readableByOthersWarning } from '../files/exposure-warnings.js';
import { resolveConnection, type Connection } from '../connection/resolve-connection.js';
import { CoreClient } from '../http/core-client.js';
import { commandRetryPolicy } from '../http/retry.js';
import { Problem } from '../problem.js';
import type { Secret } from '../secret.js';
import type { SettingProblem } from '../settings/setting-problem.js';
import type { MigrationSettings } from '../settings/settings.js';
import { optional } from '../optional.js';

export interface ConnectionContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A key typed in the terminal app: it stands in for CORE_API_KEY (and is never a setting or a flag). */
  apiKey?: Secret;
  pulumiBinary?: string;
}

/** Where the core is and which key to use: the settings, then the environment, then the stack (see resolveConnection). */
export async function connectionOf(settings: MigrationSettings, context: ConnectionContext): Promise<Connection | SettingProblem> {
  const env: NodeJS.ProcessEnv = { ...context.env };
  if (context.apiKey !== undefined && !context.apiKey.isEmpty) env['CORE_API_KEY'] = context.apiKey.reveal();
  const resolved = await resolveConnection(
    { core: settings.core, stack: settings.stack, tenant: settings.tenant, app: settings.app, apiKeyFile: settings.apiKeyFile, caFile: settings.caFile },
    env,
    { cwd: context.cwd, ...optional('pulumiBinary', context.pulumiBinary) },
  );
  return resolved;
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
export function clientOf(connection: Connection, options: ClientOptions = {}): CoreClient | SettingProblem {
  try {
    return new CoreClient({
      baseUrl: connection.coreUrls,
      apiKey: connection.apiKey,
      ...optional('tenantId', connection.tenantId),
      ...optional('appId', connection.appId),
      ...optional('ca', connection.ca),
      ...optional('connections', options.connections),
      ...optional('redact', options.redact),
      // One retry policy for every request of a command (the push's engine drives its own, to the same rule).
      retry: commandRetryPolicy(options.giveUpAfter === undefined ? undefined : options.giveUpAfter * 1000),
    });
  } catch (error) {
    // A problem of the client's settings (its address, tenant or app), named as the settings table names it.
    if (error instanceof Problem) return error;
    throw error;
  }
}

/**
 * e.g. "core from --core, api-key from CORE_API_KEY"; "api-key as typed" when the key typed in the terminal app (see
 * `ConnectionContext.apiKey`) is the one used.
 */
export function describeConnectionSources(connection: Connection, stack: string | undefined, options: { apiKeyTyped?: boolean } = {}): string {
  const from = (source: Connection['source'], flag: string, variable: string): string =>
    source === 'flags' ? flag : source === 'environment' ? variable : `stack ${stack ?? ''}`.trim();
  const apiKey =
    options.apiKeyTyped === true && connection.sources.apiKey === 'environment'
      ? 'as typed'
      : `from ${from(connection.sources.apiKey, '--api-key-file', 'CORE_API_KEY')}`;
  return `core from ${from(connection.sources.coreUrl, '--core', 'CORE_URL')}, api-key ${apiKey}`;
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
