import { Box, Text } from 'ink';
import type { PlanSummary } from 'core-client/plan/summary';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { PlanCount } from './plan-count.js';
import type { PlanView } from './walk-state.js';

const familyFates = {
  bcrypt: 'imported as the standard $2a$ string',
  argon2: 'imported as the standard encoded string',
  vendor_scrypt: 'sent as $f_scrypt$… with vendor_scrypt',
} as const;

/** The counts alone, for one line: "bcrypt 2 · argon2 2 · refused 1". */
function familyCounts(summary: PlanSummary): string {
  const families = (Object.keys(familyFates) as (keyof typeof familyFates)[])
    .filter((family) => summary.byFamily[family] > 0)
    .map((family) => `${family} ${summary.byFamily[family]}`);
  const refused = summary.rejectionsByCode
    .filter((group) => group.code === 'unusableHash' || group.code === 'unsupportedHashFamily')
    .reduce((total, group) => total + group.count, 0);
  const parts = [...families, ...(refused > 0 ? [`refused ${refused}`] : [])];
  return parts.length === 0 ? 'none in this file' : parts.join(' · ');
}

function familyRows(summary: PlanSummary): TableRow[] {
  const rows: TableRow[] = (Object.keys(familyFates) as (keyof typeof familyFates)[])
    .filter((family) => summary.byFamily[family] > 0)
    .map((family) => ({ label: family, value: summary.byFamily[family], note: familyFates[family] }));
  const refused = summary.rejectionsByCode.filter((group) => group.code === 'unusableHash' || group.code === 'unsupportedHashFamily');
  for (const group of refused)
    rows.push({
      label: group.code === 'unusableHash' ? 'refused: unusable' : 'refused: unsupported',
      value: group.count,
      note: group.examples[0]?.reason ?? '',
    });
  return rows;
}

/** How many lines the full table takes (title, a row per family or refusal, the wrappers), for the screen's budget. */
export function familyLineCount(plan: PlanView | undefined, current: boolean): number {
  if (plan?.summary === undefined || !current) return 1;
  return 2 + Math.max(1, familyRows(plan.summary).length);
}

/**
 * The hash families the plan found, what happens to each, the wrappers stripped, and the hashes refused. `compact`
 * gives the counts on one line when the screen has no room for the table.
 */
export function FamilyLines({ plan, current, compact = false }: { plan: PlanView | undefined; current: boolean; compact?: boolean }) {
  if (plan?.summary === undefined || !current) {
    return (
      <Text wrap="truncate-end">{plan === undefined ? 'Hash families: the plan has not been read yet.' : <PlanCount plan={plan} current={current} />}</Text>
    );
  }
  const summary = plan.summary;
  const rows = familyRows(summary);
  const wrappers = Object.entries(summary.strippedByRule);
  return (
    <Box flexDirection="column">
      {compact ? (
        <Text wrap="truncate-end">
          <Text bold>Hash families: </Text>
          {familyCounts(summary)}
        </Text>
      ) : (
        <Table
          title="Hash families in the file"
          rows={rows.length > 0 ? rows : [{ label: 'none', value: 0, note: 'no password hashes in this file' }]}
          labelWidth={24}
        />
      )}
      <Text wrap="truncate-end">
        {'  Wrappers stripped: '}
        {wrappers.length === 0 ? <Tone tone="muted">none found</Tone> : wrappers.map(([rule, count]) => `${rule} ${count}`).join(', ')}
      </Text>
    </Box>
  );
}
