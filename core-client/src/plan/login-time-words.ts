import { legacyHashFamilyLabel, LegacyHashFamilySchema } from '../hashes/legacy/registry.js';
import type { PlanSummary } from './summary.js';

/**
 * The plan's sentence about the users parked for their first login, the same in every face, e.g. "412 users will
 * migrate at their first login: Django PBKDF2-SHA256 (400), phpass (WordPress, phpBB) (12)". Undefined when none is.
 */
export function describeLoginTimeWaits(summary: Pick<PlanSummary, 'loginTime'>): string | undefined {
  const loginTime = summary.loginTime;
  if (loginTime === undefined || loginTime.parked === 0) return undefined;
  const families = Object.entries(loginTime.byFamily)
    .sort(([, a], [, b]) => b - a)
    .map(([family, count]) => {
      const parsed = LegacyHashFamilySchema.safeParse(family);
      return `${parsed.success ? legacyHashFamilyLabel(parsed.data) : family} (${count})`;
    });
  const users = loginTime.parked === 1 ? '1 user' : `${loginTime.parked} users`;
  return `${users} will migrate at their first login: ${families.join(', ')}`;
}
