import { OldSystemKindSchema, type OldSystemKind } from '../choices.js';
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

/** How each kind of old system is named where the plan says who asks it. */
const oldSystemLabels: Record<OldSystemKind, string> = {
  firebase: 'Firebase',
  cognito: 'AWS Cognito',
  openid: 'the OpenID token endpoint',
  http: "the old backend's endpoint",
  okta: 'Okta',
};

/** The old systems the users parked without a usable hash will be asked of, most first, each with its name and count. */
export function loginTimeOldSystems(summary: Pick<PlanSummary, 'loginTime'>): { oldSystem: OldSystemKind; label: string; count: number }[] {
  return OldSystemKindSchema.options
    .map((oldSystem) => ({ oldSystem, label: oldSystemLabels[oldSystem], count: summary.loginTime?.byOldSystem?.[oldSystem] ?? 0 }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count);
}

/**
 * How the users parked for their first login will be checked, most first: "Django PBKDF2-SHA256 (400), asked of AWS
 * Cognito (120), phpass (WordPress, phpBB) (12)".
 */
export function describeLoginTimeFamilies(summary: Pick<PlanSummary, 'loginTime'>): string {
  const families = loginTimeFamilies(summary).map(({ label, count }): [string, number] => [label, count]);
  const asked = loginTimeOldSystems(summary).map(({ label, count }): [string, number] => [`asked of ${label}`, count]);
  return [...families, ...asked]
    .sort(([, a], [, b]) => b - a)
    .map(([label, count]) => `${label} (${count})`)
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
