import type { Secret } from '../../secret.js';
import { MAX_HASH_LENGTH } from '../prepare-hash.js';
import { z } from 'zod';
import { LegacyUnusableCodeSchema, unusable, type LegacyUnusableCode } from './outcome.js';
import { detectLegacyFamily, LegacyHashFamilySchema, type LegacyHashFamily } from './registry.js';
import type { CheckableLegacyHash } from './family.js';

/**
 * What a check of one password against one legacy hash answers: data, never an exception, never the password or hash.
 * A schema, as the verifier pool's threads send it back across a message port.
 */
export const LegacyVerificationSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('match'), family: LegacyHashFamilySchema }),
  z.object({ outcome: z.literal('mismatch'), family: LegacyHashFamilySchema }),
  z.object({ outcome: z.literal('unusable'), family: LegacyHashFamilySchema.optional(), code: LegacyUnusableCodeSchema, reason: z.string() }),
]);
export type LegacyVerification = z.infer<typeof LegacyVerificationSchema>;

/** A legacy hash read without a password: its family and whether it can be checked (within the cost limits). */
export type LegacyHashInspection =
  { usable: true; family: LegacyHashFamily; parameters: string } | { usable: false; family?: LegacyHashFamily; code: LegacyUnusableCode; reason: string };

type Prepared = { usable: true; family: LegacyHashFamily; hash: CheckableLegacyHash } | Extract<LegacyHashInspection, { usable: false }>;

function prepare(hash: string): Prepared {
  if (hash.length === 0) return unusable('empty_hash', 'the hash is empty');
  if (hash.length > MAX_HASH_LENGTH) return unusable('too_long', `the hash is longer than ${MAX_HASH_LENGTH} characters`);
  const detected = detectLegacyFamily(hash);
  if (detected === undefined) return unusable('unrecognised_format', 'the hash is of no family core-migrate can verify');
  const prepared = detected.check.prepare(hash);
  if (!prepared.usable) return { ...prepared, family: detected.id };
  return { usable: true, family: detected.id, hash: prepared };
}

/** Reads a legacy hash (for a plan: which family, and whether it can be checked at login) without computing anything. */
export function inspectLegacyHash(hash: string): LegacyHashInspection {
  const prepared = prepare(hash);
  return prepared.usable ? { usable: true, family: prepared.family, parameters: prepared.hash.parameters } : prepared;
}

/**
 * Checks a password against a legacy hash. The work runs in libuv's thread pool (PBKDF2, scrypt) or in slices between
 * which the event loop answers others (iterated digests), so a service stays responsive while it verifies; a hash
 * beyond the cost limits is answered `unusable` before any work. The comparison is constant-time. An abort (the first
 * Ctrl-C of `hash verify`) rejects with the signal's reason at once; the work already running ends unseen.
 */
export async function verifyLegacyPassword(password: Secret, hash: string, options: { signal?: AbortSignal } = {}): Promise<LegacyVerification> {
  const { signal } = options;
  signal?.throwIfAborted();
  const prepared = prepare(hash);
  if (!prepared.usable) {
    const { code, reason, family } = prepared;
    return { outcome: 'unusable', code, reason, ...(family !== undefined && { family }) };
  }
  try {
    const match = await untilAborted(prepared.hash.verify(Buffer.from(password.reveal(), 'utf8')), signal);
    return match ? { outcome: 'match', family: prepared.family } : { outcome: 'mismatch', family: prepared.family };
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    // Node's crypto errors name the parameter at fault (e.g. scrypt memory), never the password or the hash.
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'an error';
    return { outcome: 'unusable', family: prepared.family, code: 'malformed_hash', reason: `the hash could not be checked (${code})` };
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
