import { createHash } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacyVerifierPool } from '../../../../core-client/src/hashes/legacy/verifier-pool.js';
import { verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';
import { loadLegacyVectors } from './legacy-vectors.js';

const pools: LegacyVerifierPool[] = [];
function pool(options: ConstructorParameters<typeof LegacyVerifierPool>[0] = {}): LegacyVerifierPool {
  const made = new LegacyVerifierPool(options);
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((made) => made.close()));
});

/** A Django bcrypt_sha256 hash: bcryptjs checks it on whichever thread calls it, holding that thread for the whole cost. */
function djangoBcryptSha256(password: string, cost: number): string {
  return `bcrypt_sha256$${bcryptjs.hashSync(createHash('sha256').update(password).digest('hex'), cost)}`;
}

describe('the legacy verifier pool', () => {
  it('answers as verifyLegacyPassword does, for the reference vectors of several families', async () => {
    const verifiers = pool({ size: 2 });
    for (const file of ['django', 'crypt', 'passlib'] as const) {
      const { wrongPassword, vectors } = loadLegacyVectors(file);
      for (const vector of vectors) {
        if (!('hash' in vector)) continue;
        for (const password of [vector.password, wrongPassword]) {
          const secret = new Secret(password);
          expect(await verifiers.verify(secret, vector.hash)).toEqual(await verifyLegacyPassword(secret, vector.hash));
        }
      }
    }
  });

  it('keeps the event loop free: a callback queued after a bcrypt-sha256 check starts runs before the check ends', async () => {
    const hash = djangoBcryptSha256('password', 8);
    const verifiers = pool({ size: 1 });
    await verifiers.verify(new Secret('warm-up'), hash); // the thread is started and its modules loaded
    const order: string[] = [];
    const checked = verifiers.verify(new Secret('password'), hash).then((verification) => order.push(`check ${verification.outcome}`));
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('other request');
        resolve();
      }),
    );
    await checked;
    expect(order).toEqual(['other request', 'check match']);
  });

  it('refuses a check beyond its queue at once, as busy, and runs the ones it accepted', async () => {
    const hash = djangoBcryptSha256('password', 6);
    const verifiers = pool({ size: 1, maxQueued: 1 });
    const running = verifiers.verify(new Secret('password'), hash);
    const waiting = verifiers.verify(new Secret('wrong'), hash);
    await expect(verifiers.verify(new Secret('password'), hash)).rejects.toMatchObject({ code: 'verifierPoolBusy', maxQueued: 1 });
    expect(await running).toMatchObject({ outcome: 'match' });
    expect(await waiting).toMatchObject({ outcome: 'mismatch' });
  });

  it('an aborted waiting check rejects with the reason and leaves its place to the next', async () => {
    const hash = djangoBcryptSha256('password', 6);
    const verifiers = pool({ size: 1, maxQueued: 2 });
    const running = verifiers.verify(new Secret('password'), hash);
    const stop = new AbortController();
    const aborted = verifiers.verify(new Secret('password'), hash, { signal: stop.signal });
    stop.abort(new Error('the client went away'));
    await expect(aborted).rejects.toThrow('the client went away');
    expect(verifiers.load.queued).toBe(0);
    expect(await running).toMatchObject({ outcome: 'match' });
  });

  it('close rejects what runs and waits, and refuses new checks', async () => {
    const hash = djangoBcryptSha256('password', 6);
    const verifiers = pool({ size: 1 });
    const running = expect(verifiers.verify(new Secret('password'), hash)).rejects.toMatchObject({ code: 'verifierPoolClosed' });
    const waiting = expect(verifiers.verify(new Secret('password'), hash)).rejects.toMatchObject({ code: 'verifierPoolClosed' });
    await verifiers.close();
    await running;
    await waiting;
    await expect(verifiers.verify(new Secret('password'), hash)).rejects.toMatchObject({ code: 'verifierPoolClosed' });
  });
});
