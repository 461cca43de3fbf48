import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exchangeHashesFor, recordExchanges, recordScryptNames, scryptNameOf } from '../support/core-exchanges.js';
import { REAL_CORE_API_KEY, REAL_CORE_SIGNER_KEY, STORAGES, skipReason, useRealCore } from './support/real-core.js';

/**
 * `npm run record:core-transcripts [-- --out DIR --core-version 10.0.7]`: records what live cores answer to every
 * exchange of test/support/core-exchanges.ts (REAL_CORE_URL: in-memory storage, REAL_CORE_PG_URL: PostgreSQL; both
 * empty, started with REAL_CORE_SIGNER_KEY) and writes memory.json, postgresql.json and scrypt-names.json in the form
 * the double is held to (test/fixtures/core-transcripts/ by default). The files hold no key and no password: answers
 * only, with a core's own ids, times and code handles as placeholders. The cores are left empty.
 */
const { values } = parseArgs({
  options: { out: { type: 'string', default: 'test/fixtures/core-transcripts' }, 'core-version': { type: 'string', default: 'unknown version' } },
});
const out = resolve(values.out);

for (const storage of STORAGES) {
  const reason = skipReason({ core: storage, signerKey: true });
  if (reason !== undefined) {
    process.stderr.write(`Cannot record the ${storage} core: ${reason}. See docs/contributing.md, "Tests against a real core".\n`);
    process.exit(2);
  }
}

const hashes = await exchangeHashesFor(REAL_CORE_SIGNER_KEY ?? '');
await mkdir(out, { recursive: true });
const write = (name: string, value: unknown) => writeFile(join(out, name), JSON.stringify(value, null, 1));
for (const storage of STORAGES) {
  const core = await useRealCore({ core: storage, signerKey: true });
  try {
    // The contract's name goes out as the name the core takes, as a push sends it.
    const scryptName = await scryptNameOf(core.url, REAL_CORE_API_KEY);
    await write(`${storage}.json`, await recordExchanges(core.url, REAL_CORE_API_KEY, hashes, scryptName));
    if (storage === 'memory') {
      const description = `${values['core-version']}, in-memory storage, signer key configured, reached directly (no name mapping)`;
      await write('scrypt-names.json', await recordScryptNames(core.url, REAL_CORE_API_KEY, description));
    }
    process.stdout.write(`Recorded the ${storage} core (scrypt variant as ${scryptName}) into ${out}.\n`);
  } finally {
    await core.stop();
  }
}
