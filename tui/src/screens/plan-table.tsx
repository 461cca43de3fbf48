import { Box } from 'ink';
import type { PlanSummary } from 'core-client/plan/summary';
import { Table, type TableRow } from '../components/table.js';

const shownRejectionCodes = 5;

/** "users.json, line 12" → "line 12": the file is the one on the screen already. */
export function shortLocation(location: string): string {
  return /, ((?:line|record) .*)$/.exec(location)?.[1] ?? location;
}

/** Reasons may name other records by their full path; on an 80-column table the file name is enough. */
export function withFileNames(text: string): string {
  return text.replace(/(?:\/[^\s,/]+)+\/([^\s,/]+)/g, '$1');
}

function breakdown(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`)
    .join(' · ');
}

/** The plan on one screen: operations by kind, families, providers, rejections by reason with an example each. */
export function PlanTable({ summary }: { summary: PlanSummary }) {
  const rows: TableRow[] = [
    { label: 'records read', value: summary.records },
    { label: 'password imports', value: summary.passwordImports, note: breakdown(summary.byFamily) },
    { label: 'third-party sign-ins', value: summary.thirdPartySignInUps, note: breakdown(summary.byProvider) },
    { label: 'rejected by the plan', value: summary.rejected, note: summary.rejected > 0 ? 'every one goes to the report' : '' },
  ];
  const groups = [...summary.rejectionsByCode].sort((a, b) => b.count - a.count);
  for (const group of groups.slice(0, shownRejectionCodes)) {
    const example = group.examples[0];
    rows.push({
      label: `  ${group.code}`,
      value: group.count,
      note: example === undefined ? '' : `${shortLocation(example.location)}: ${withFileNames(example.reason)}`,
    });
  }
  if (groups.length > shownRejectionCodes)
    rows.push({ label: '  other reasons', value: groups.slice(shownRejectionCodes).reduce((sum, group) => sum + group.count, 0) });
  rows.push({ label: 'duplicates', value: summary.duplicates }, { label: 'without credentials', value: summary.withoutCredentials });
  return (
    <Box flexDirection="column">
      <Table title="The plan" rows={rows} />
    </Box>
  );
}
