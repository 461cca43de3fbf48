import { legacyHashFamilyLabel, LegacyHashFamilySchema } from '../hashes/legacy/registry.js';
import type { PlanSummary } from './summary.js';

/** The legacy families of the users parked for their first login, most first, each with its label and count. */
export function loginTimeFamilies(summary: Pick<PlanSummary, 'loginTime'>): { family: string; label: string; count: number }[] {
  return Object.entries(summary.loginTime?.byFamily ?? {})
    .sort(([, a], [, b]) => b - a)
    .map(([family, count]) => {
      const parsed = LegacyHashFamilySchema.safeParse(family);
      return { family, label: parsed.success ? legacyHashFamilyLabel(parsed.data) : family, count };
    });
}

/** The families of the users parked for their first login, most first: "Django PBKDF2-SHA256 (400), phpass (WordPress, phpBB) (12)". */
export function describeLoginTimeFamilies(summary: Pick<PlanSummary, 'loginTime'>): string {
  return loginTimeFamilies(summary)
    .map(({ label, count }) => `${label} (${count})`)
    .join(', ');
}

/**
 * The plan's sentence about the users parked for their first login, the same in every face, e.g. "412 users will
 * migrate at their first login: Django PBKDF2-SHA256 (400), phpass (WordPress, phpBB) (12)". Undefined when none is.
 */
export function describeLoginTimeWaits(summary: Pick<PlanSummary, 'loginTime'>): string | undefined {
  const parked = summary.loginTime?.parked ?? 0;
  if (parked === 0) return undefined;
  return `${parked === 1 ? '1 user' : `${parked} users`} will migrate at their first login: ${describeLoginTimeFamilies(summary)}`;
}
