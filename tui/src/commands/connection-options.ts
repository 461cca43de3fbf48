import { Option, type Command } from 'commander';
import { ConnectionError } from 'core-client/connection/errors';
import { resolveConnection, type Connection, type ConnectionInput } from 'core-client/connection/resolve-connection';
import type { CommandIO } from '../io.js';

/** The connection flags as commander hands them over; `apiKey` only exists to refuse it with a reason. */
export interface ConnectionFlags extends ConnectionInput {
  apiKey?: string;
}

/**
 * Adds --core, --stack, --tenant, --app and --api-key-file. The key itself is never a flag value
 * (shell history, ps); a hidden --api-key is accepted by the parser only to explain that.
 */
export function addConnectionOptions(command: Command): Command {
  return command
    .option(
      '--core <url>',
      "the core, e.g. http://127.0.0.1:3567; again for each core sharing its database (default: CORE_URL, then the stack's coreUrls)",
      (url: string, earlier: string[] = []) => [...earlier, url],
    )
    .option('--stack <name>', "read coreUrl and apiKey from this Pulumi stack's outputs (needs the pulumi CLI)")
    .option('--tenant <id>', 'the tenant to import into (default: public)')
    .option('--app <id>', 'the app the tenant belongs to (default: public)')
    .option('--api-key-file <file>', "a file holding the api-key (default: CORE_API_KEY, then the stack's apiKey)")
    .addOption(new Option('--api-key <key>').hideHelp());
}

/** Resolves the connection from the flags, the command's environment and, with --stack, the Pulumi stack. */
export async function connectionFromOptions(flags: ConnectionFlags, io: CommandIO): Promise<Connection | ConnectionError> {
  if (flags.apiKey !== undefined) {
    return new ConnectionError(
      'invalidSetting',
      '--api-key is not accepted, because a key on the command line lands in shell history and in ps: ' + 'set CORE_API_KEY, pass --api-key-file, or --stack.',
    );
  }
  return resolveConnection({ core: flags.core, stack: flags.stack, tenant: flags.tenant, app: flags.app, apiKeyFile: flags.apiKeyFile }, io.env, {
    cwd: io.cwd,
  });
}

/** e.g. "core from stack dev, api-key from CORE_API_KEY". */
export function describeConnectionSources(connection: Connection, stack: string | undefined): string {
  const from = (source: Connection['source'], flag: string, variable: string): string =>
    source === 'flags' ? flag : source === 'environment' ? variable : `stack ${stack ?? ''}`.trim();
  return (
    `core from ${from(connection.sources.coreUrl, '--core', 'CORE_URL')}, ` +
    `api-key from ${from(connection.sources.apiKey, '--api-key-file', 'CORE_API_KEY')}`
  );
}
