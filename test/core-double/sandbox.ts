/**
 * The core double as a standalone "sandbox core": `npm run core:sandbox -- --port 3567`.
 * api-key from CORE_API_KEY or --api-key-file; signer key from VENDOR_PASSWORD_HASHING_SIGNER_KEY or
 * --signer-key-file. Prints its address, never a key. Stops on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_CORE_PORT, SIGNER_KEY_ENV } from '../../core-client/src/contract/names.js';
import { identityFeatureNames } from './identity-handlers.js';
import { startCoreDouble } from './server.js';

const USAGE =
  `usage: npm run core:sandbox -- [--port ${DEFAULT_CORE_PORT}] [--api-key-file F] [--signer-key-file F] [--tenant T ...] ` +
  `[--without ${identityFeatureNames.join('|')} ...]`;

function readSecretFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unreadable';
    throw new Error(`Cannot read the ${what} file ${path} (${code}).`, { cause: error });
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: String(DEFAULT_CORE_PORT) },
      'api-key-file': { type: 'string' },
      'signer-key-file': { type: 'string' },
      tenant: { type: 'string', multiple: true },
      // An older core: these identity calls answer 404, to rehearse a push that must do without them.
      without: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`The port must be a whole number from 0 to 65535.\n${USAGE}\n`);
    return 2;
  }
  const without = values.without ?? [];
  const unknown = without.filter((name) => !(identityFeatureNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown feature ${unknown.join(', ')}: --without takes ${identityFeatureNames.join(', ')}.\n${USAGE}\n`);
    return 2;
  }
  const apiKeyFile = values['api-key-file'];
  const signerKeyFile = values['signer-key-file'];
  const apiKey = apiKeyFile !== undefined ? readSecretFile(apiKeyFile, 'api-key') : process.env['CORE_API_KEY'];
  const signerKey = signerKeyFile !== undefined ? readSecretFile(signerKeyFile, 'signer key') : process.env[SIGNER_KEY_ENV];

  const double = await startCoreDouble({
    port,
    ...(apiKey ? { apiKeys: [apiKey] } : {}),
    ...(signerKey ? { signerKey } : {}),
    tenants: values.tenant ?? [],
    // Nobody reads a sandbox's requests back: keep counters only, so memory stays flat over millions of requests.
    keepRequests: 0,
    missingFeatures: identityFeatureNames.filter((name) => without.includes(name)),
  });
  process.stdout.write(
    `Sandbox core listening on ${double.url} (api-key ${apiKey ? 'required' : 'not required'}, ` +
      `signer key ${signerKey ? 'configured' : 'not configured'}${without.length > 0 ? `, without ${without.join(', ')}` : ''}). Ctrl-C stops it.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await double.close();
  process.stdout.write('Sandbox core stopped.\n');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
