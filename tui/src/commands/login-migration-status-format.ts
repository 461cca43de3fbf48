import type { LoginMigrationStatus } from 'core-client/login-time';

const number = new Intl.NumberFormat('en-US');
const count = (value: number): string => number.format(value);

/** `login-migration status` as lines for a person: how many wait, how many arrived and when. Counts only, never a hash. */
export function formatLoginMigrationStatus(status: LoginMigrationStatus): string {
  const lines = [
    `Waiting store ${status.store}`,
    `  waiting              ${count(status.waiting)}`,
    `  being migrated now   ${count(status.migrating)}${status.migrating > 0 ? ' (claimed by a sign-in; a claim whose process ended is taken again after its lease)' : ''}`,
    `  arrived              ${count(status.migrated)}`,
  ];
  if (status.arrivalsPerDay.length > 0) {
    lines.push('  arrived per day (UTC)');
    for (const day of status.arrivalsPerDay) lines.push(`    ${day.day}  ${count(day.migrated)}`);
  }
  if (status.waitingList !== undefined) {
    lines.push(`  waiting list         ${count(status.waitingList.users)} users (email, old id) written to ${status.waitingList.path}, for a password reset`);
  }
  return `${lines.join('\n')}\n`;
}
