import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVendorScryptHash } from '../support/vendor-scrypt-maker.js';
import type { ScryptAlgorithmName } from '../../core-client/src/contract/names.js';
import { type ExchangeHashes, recordExchanges, scryptNameOf } from '../support/core-exchanges.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf } from '../core-double/known-hashes.js';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';
import { REAL_CORE_API_KEY, REAL_CORE_SIGNER_KEY, STORAGES, describeLive, useRealCore, type RealCore } from './support/real-core.js';

/**
 * The double and a live core, step by step, on every exchange of a migration (test/support/core-exchanges.ts): what
 * `npm test` checks against the recordings, checked here against the core you give. A difference is the double's
 * fault, or a new core's: record again (npm run record:core-transcripts) and fix the double.
 */
async function hashesFor(signerKey: string): Promise<ExchangeHashes> {
  const v = VENDOR_SCRYPT_VECTOR;
  const hash = await makeVendorScryptHash({
    password: v.password,
    salt: Buffer.from(v.salt, 'base64'),
    saltSeparator: Buffer.from(v.saltSeparator, 'base64'),
    signerKey: Buffer.from(signerKey, 'base64'),
    memCost: v.memCost,
    rounds: v.rounds,
  });
  return {
    bcrypt: await bcryptHashOf('ann password'),
    otherBcrypt: await bcryptHashOf('another password'),
    scrypt: { hash: `$f_scrypt$${hash}$${v.salt}$m=${v.memCost}$r=${v.rounds}$s=${v.saltSeparator}`, password: v.password },
  };
}

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
      const hashes = await hashesFor(signerKey);
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
