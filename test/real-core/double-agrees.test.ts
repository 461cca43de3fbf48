import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScryptAlgorithmName } from '../../core-client/src/contract/names.js';
import { exchangeHashesFor, recordExchanges, scryptNameOf } from '../support/core-exchanges.js';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';
import { REAL_CORE_API_KEY, REAL_CORE_SIGNER_KEY, STORAGES, describeLive, useRealCore, type RealCore } from './support/real-core.js';

/**
 * The double and a live core, step by step, on every exchange of a migration (test/support/core-exchanges.ts): what
 * `npm test` checks against the recordings, checked here against the core you give. A difference is the double's
 * fault, or a new core's: record again (npm run record:core-transcripts) and fix the double.
 */

for (const storage of STORAGES) {
  describeLive(`the core double answers as a live core does (${storage} storage)`, { core: storage, signerKey: true }, () => {
    let real: RealCore;
    let double: CoreDouble;
    const signerKey = REAL_CORE_SIGNER_KEY ?? '';

    let scryptName: ScryptAlgorithmName;

    beforeAll(async () => {
      real = await useRealCore({ core: storage, signerKey: true });
      // The double takes the scrypt variant under the name the live core takes, learnt as the pre-flight learns it.
      scryptName = await scryptNameOf(real.url, REAL_CORE_API_KEY);
      double = await startCoreDouble({ apiKeys: [REAL_CORE_API_KEY], signerKey, scryptAlgorithmName: scryptName });
    });
    afterAll(async () => {
      await Promise.all([real?.stop(), double?.close()]);
    });

    it('the calls of a migration, and their refusals, get the same answers', async () => {
      const hashes = await exchangeHashesFor(signerKey);
      const fromReal = await recordExchanges(real.url, REAL_CORE_API_KEY, hashes, scryptName);
      const fromDouble = await recordExchanges(double.url, REAL_CORE_API_KEY, hashes, scryptName);
      const differences = fromReal.flatMap((step, index) => {
        const other = fromDouble[index];
        return JSON.stringify(step) === JSON.stringify(other)
          ? []
          : [`${step.name}:\n  live   ${JSON.stringify(step.answer)}\n  double ${JSON.stringify(other?.answer)}`];
      });
      expect(differences.join('\n')).toBe('');
    });
  });
}
