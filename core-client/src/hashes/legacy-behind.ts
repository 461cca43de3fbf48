import type { PrepareHashResult } from './families.js';
import { inspectLegacyHash, type LegacyHashInspection } from './legacy/verify-legacy.js';
import type { LegacyHashFamily } from './legacy/registry.js';

/** What an operator is told about a legacy hash: the core will not take it, and what becomes of its users instead. */
export const LEGACY_HASH_ADVICE =
  'the core cannot import this family: with a login-time migration (--login-time <store>) its users migrate at their first login, else they need a password reset';

/** A legacy hash read without a password, its family known. */
export type LegacyHashReading = LegacyHashInspection & { family: LegacyHashFamily };

/**
 * The legacy family behind a hash the import refused, when core-migrate can tell it: only a refusal for its family is
 * looked at again (prepareHash names a legacy family there), so an importable hash, or one refused for its format,
 * salt or settings, stays what it is.
 */
export function legacyHashBehind(prepared: PrepareHashResult, rawHash: string): LegacyHashReading | undefined {
  if (prepared.ok || prepared.code !== 'unsupported_family') return undefined;
  const inspection = inspectLegacyHash(rawHash.trim());
  return inspection.family === undefined ? undefined : { ...inspection, family: inspection.family };
}
