import { describeLoginTimeWaits, describePlanRoles, type PlanSummary } from 'core-client';

const number = new Intl.NumberFormat('en-US');
const count = (value: number): string => number.format(value);
const counts = (entries: Record<string, number>): string =>
  Object.entries(entries)
    .filter(([, value]) => value > 0)
    .map(([key, value]) => `${key} ${count(value)}`)
    .join(' · ') || 'none';

/** The plan summary as text for a person: what will be sent, what will not and why. */
export function formatPlanSummary(file: string, summary: PlanSummary, reportPath?: string): string {
  const parked = summary.loginTime?.parked ?? 0;
  const lines = [
    `Plan of ${file}`,
    `  records read          ${count(summary.records)}`,
    `  operations            ${count(summary.operations)} = ${count(summary.passwordImports)} password imports + ${count(summary.thirdPartySignInUps)} third-party sign-in-ups + ` +
      `${count(summary.passwordlessSignInUps)} passwordless sign-in-ups + ${parked > 0 ? `${count(parked)} parked for login + ` : ''}${count(summary.rejected)} rejected`,
    `  password users        ${counts(summary.byFamily)}`,
    `  third-party users     ${counts(summary.byProvider)}`,
    `  passwordless users    ${counts(summary.passwordlessByLogin)}`,
  ];
  const loginTime = describeLoginTimeWaits(summary);
  if (loginTime !== undefined) lines.push(`  login-time            ${loginTime}`);
  const { identity } = summary;
  lines.push(
    `  identity              ${count(identity.keepsSourceId)} keep their old id · ${count(identity.verifiedEmails)} verified emails · ` +
      `${count(identity.withMetadata)} with metadata to write · ${count(identity.separateAccounts)} separate accounts · ` +
      `disabled: ${count(identity.disabledSkipped)} left out, ${count(identity.disabledImported)} imported`,
  );
  describePlanRoles(summary.roles).forEach((line, index) => lines.push(`  ${index === 0 ? 'roles                ' : '                     '} ${line}`));
  if (Object.keys(summary.strippedByRule).length > 0) lines.push(`  wrappers stripped     ${counts(summary.strippedByRule)}`);
  for (const [warning, times] of Object.entries(summary.warnings)) lines.push(`  warning (${count(times)}×)  ${warning}`);
  lines.push(
    `  rejected              ${count(summary.rejected)} (duplicates ${count(summary.duplicates)}, without credentials ${count(summary.withoutCredentials)})`,
  );
  for (const group of summary.rejectionsByCode) {
    lines.push(`    ${group.code} (${count(group.count)})`);
    for (const example of group.examples) lines.push(`      ${example.location}: ${example.reason}`);
  }
  if (reportPath !== undefined) lines.push(`  every rejection is in ${reportPath}`);
  return `${lines.join('\n')}\n`;
}
