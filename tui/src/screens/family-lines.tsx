import { Box, Text } from 'ink';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { PlanCount } from './plan-count.js';
import type { PlanView } from './walk-state.js';

const familyFates = {
  bcrypt: 'imported as the standard $2a$ string',
  argon2: 'imported as the standard encoded string',
  vendor_scrypt: 'sent as $f_scrypt$… with vendor_scrypt',
} as const;

/** The hash families the plan found, what happens to each, the wrappers stripped, and the hashes refused. */
export function FamilyLines({ plan, current }: { plan: PlanView | undefined; current: boolean }) {
  if (plan?.summary === undefined || !current) {
    return plan === undefined ? <Text>Hash families: the plan has not been read yet.</Text> : <PlanCount plan={plan} current={current} />;
  }
  const summary = plan.summary;
  const rows: TableRow[] = (Object.keys(familyFates) as (keyof typeof familyFates)[])
    .filter((family) => summary.byFamily[family] > 0)
    .map((family) => ({ label: family, value: summary.byFamily[family], note: familyFates[family] }));
  const refused = summary.rejectionsByCode.filter((group) => group.code === 'unusableHash' || group.code === 'unsupportedHashFamily');
  for (const group of refused) rows.push({ label: group.code === 'unusableHash' ? 'refused: unusable' : 'refused: unsupported', value: group.count, note: group.examples[0]?.reason ?? '' });
  const wrappers = Object.entries(summary.strippedByRule);
  return (
    <Box flexDirection="column">
      <Table title="Hash families in the file" rows={rows.length > 0 ? rows : [{ label: 'none', value: 0, note: 'no password hashes in this file' }]} labelWidth={24} />
      <Text wrap="truncate-end">
        {'  Wrappers stripped: '}
        {wrappers.length === 0 ? <Tone tone="muted">none found</Tone> : wrappers.map(([rule, count]) => `${rule} ${count}`).join(', ')}
      </Text>
    </Box>
  );
}
