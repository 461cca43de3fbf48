import { isUnusable, type LegacyUnusable } from './outcome.js';

/**
 * What one legacy family knows: whether a string is one of its hashes, how to read it (a parsed structure, or why
 * it cannot be read), what it costs to check, and how to check a password against it. `verify` runs only after
 * `costProblem` found none, so a hostile parameter is never computed.
 */
export interface LegacyFamilyRules<Parsed> {
  detect(hash: string): boolean;
  parse(hash: string): Parsed | LegacyUnusable;
  /** The parameters and the cost in words ("PBKDF2-HMAC-SHA-256, 1,000 iterations"), never a salt or a key. */
  parameters(parsed: Parsed): string;
  costProblem(parsed: Parsed): string | undefined;
  /** The password as UTF-8 bytes; resolves to whether it matches, comparing in constant time. */
  verify(password: Buffer, parsed: Parsed): Promise<boolean>;
}

/** A hash read and within its cost limits, ready to check passwords against. */
export interface CheckableLegacyHash {
  usable: true;
  parameters: string;
  verify(password: Buffer): Promise<boolean>;
}

/** A family's rules with their parsed type closed over, so families of different shapes sit in one list. */
export interface LegacyFamilyCheck {
  detect(hash: string): boolean;
  prepare(hash: string): CheckableLegacyHash | LegacyUnusable;
}

export function familyCheck<Parsed>(rules: LegacyFamilyRules<Parsed>): LegacyFamilyCheck {
  return {
    detect: rules.detect,
    prepare(hash) {
      const parsed = rules.parse(hash);
      if (isUnusable(parsed)) return parsed;
      const costProblem = rules.costProblem(parsed);
      if (costProblem !== undefined) return { usable: false, code: 'cost_too_high', reason: costProblem };
      return { usable: true, parameters: rules.parameters(parsed), verify: (password) => rules.verify(password, parsed) };
    },
  };
}
