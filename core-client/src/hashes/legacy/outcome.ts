import { type z } from 'zod';
import { HashRejectionCodeSchema } from '../families.js';

/** Why a legacy hash cannot be checked: the import's own codes, so one list of reasons serves both. */
export const LegacyUnusableCodeSchema = HashRejectionCodeSchema.extract([
  'empty_hash',
  'too_long',
  'unrecognised_format',
  'unsupported_family',
  'malformed_hash',
  'cost_too_high',
]);
export type LegacyUnusableCode = z.infer<typeof LegacyUnusableCodeSchema>;

/** A hash that cannot be checked; `reason` names the family and the part at fault, never the hash itself. */
export interface LegacyUnusable {
  usable: false;
  code: LegacyUnusableCode;
  reason: string;
}

export function unusable(code: LegacyUnusableCode, reason: string): LegacyUnusable {
  return { usable: false, code, reason };
}

export function isUnusable(value: unknown): value is LegacyUnusable {
  return typeof value === 'object' && value !== null && 'usable' in value && value.usable === false;
}
