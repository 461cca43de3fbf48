/**
 * The core double as a standalone "sandbox core": `npm run core:sandbox -- --port 3567`.
 * api-key from CORE_API_KEY or --api-key-file; signer key from VENDOR_PASSWORD_HASHING_SIGNER_KEY or
 * --signer-key-file. Prints its address, never a key. Stops on SIGINT/SIGTERM.
 * To rehearse a push against a core under load: --latency-ms N (added before every answer), --contention (a store
 * that locks, as measured on a real in-memory core: contention.ts), --capacity N (at most N requests served at once).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_CORE_PORT, SIGNER_KEY_ENV } from '../../core-client/src/contract/names.js';
import { defaultContention } from './contention.js';
import { identityFeatureNames } from './identity-handlers.js';
import { startCoreDouble } from './server.js';

const USAGE =
  `usage: npm run core:sandbox -- [--port ${DEFAULT_CORE_PORT}] [--api-key-file F] [--signer-key-file F] [--tenant T ...] ` +
  `[--without ${identityFeatureNames.join('|')} ...] [--latency-ms N] [--contention] [--capacity N]`;

function readSecretFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unreadable';
    throw new Error(`Cannot read the ${what} file ${path} (${code}).`, { cause: error });
  }
}

/** undefined when not given, null when not a whole number of at least `min`. */
function wholeNumber(value: string | undefined, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number >= min ? number : null;
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
      'latency-ms': { type: 'string' },
      contention: { type: 'boolean' },
      capacity: { type: 'string' },
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
  const latencyMs = wholeNumber(values['latency-ms'], 0);
  const capacity = wholeNumber(values.capacity, 1);
  if (latencyMs === null || capacity === null) {
    process.stderr.write(`--latency-ms takes a whole number from 0, --capacity one from 1.\n${USAGE}\n`);
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
  if (latencyMs !== undefined) double.faults.setLatencyMs(latencyMs);
  if (values.contention === true) double.faults.setContention(defaultContention);
  if (capacity !== undefined) double.faults.setCapacity(capacity);
  const load = [
    latencyMs === undefined ? '' : `${latencyMs} ms added to every answer`,
    values.contention === true
      ? 'a store that locks (more writes fail the more in flight and the fuller it is: 4% at 2, 6% at 4, 22% from 16 when empty; one write at a time, slower as it fills)'
      : '',
    capacity === undefined ? '' : `at most ${capacity} requests served at once`,
  ].filter((part) => part !== '');
  process.stdout.write(
    `Sandbox core listening on ${double.url} (api-key ${apiKey ? 'required' : 'not required'}, ` +
      `signer key ${signerKey ? 'configured' : 'not configured'}${without.length > 0 ? `, without ${without.join(', ')}` : ''}` +
      `${load.length > 0 ? `; ${load.join(', ')}` : ''}). Ctrl-C stops it.\n`,
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
