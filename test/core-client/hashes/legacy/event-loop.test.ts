import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';

/** Counts the turns the event loop takes while a check runs: zero would mean the check held the loop the whole time. */
async function loopTurnsDuring(check: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const started = turns;
  await check();
  running = false;
  return turns - started;
}

describe('a check leaves the event loop free for other requests', () => {
  it('PBKDF2 runs in the thread pool', async () => {
    const salt = 'abcdefghijklmnop';
    const key = pbkdf2Sync('password', salt, 300_000, 32, 'sha256').toString('base64');
    const hash = `pbkdf2_sha256$300000$${salt}$${key}`;
    let outcome: unknown;
    const turns = await loopTurnsDuring(async () => {
      outcome = await verifyLegacyPassword(new Secret('password'), hash);
    });
    expect(outcome).toEqual({ outcome: 'match', family: 'django_pbkdf2_sha256' });
    expect(turns).toBeGreaterThan(0);
  });

  it.each([
    ['phpass at 2^16', '$P$E' + 'abcdefgh' + 'a'.repeat(22)],
    ['SHA512-crypt at 50,000 rounds', '$6$rounds=50000$salt$' + 'a'.repeat(86)],
  ])('iterated digests (%s) yield between slices', async (_name, hash) => {
    let outcome: unknown;
    const turns = await loopTurnsDuring(async () => {
      outcome = await verifyLegacyPassword(new Secret('password'), hash);
    });
    expect(outcome).toMatchObject({ outcome: 'mismatch' });
    expect(turns).toBeGreaterThan(5);
  });
});
