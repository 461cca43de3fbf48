import { Box, Text } from 'ink';
import type { ReportEntry, ReportGroup } from 'core-client';
import { printable } from 'core-client/printable';
import { FRAME_LINES } from '../components/frame.js';
import { formatCount } from '../components/numbers.js';
import { Tone } from '../components/theme.js';
import type { BodyProps, ScreenContext, ScreenSpec } from '../app/screen.js';
import type { AppState } from '../app/state.js';
import { withFileNames } from './locations.js';
import { wrapText } from '../components/wrap.js';

/** The group's entries as screen lines: where and who on one, the reason wrapped (never cut) under it. */
export function entryLines(entries: readonly ReportEntry[], width: number): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    const who = [entry.email, entry.sourceId === undefined ? undefined : `old id ${entry.sourceId}`].filter((part) => part !== undefined).join(' · ');
    lines.push(...wrapText(printable(`${withFileNames(entry.location)}${who === '' ? '' : ` · ${who}`}`), width));
    lines.push(...wrapText(printable(withFileNames(entry.reason)), width - 4).map((line) => `    ${line}`));
  }
  return lines;
}

function groupsOf(state: AppState): ReportGroup[] {
  return state.report?.groups.state === 'done' ? state.report.groups.value.groups : [];
}

/** Lines of the body that show entries: the rest is the group line, its header and the position line. */
function pageRows(rows: number): number {
  return Math.max(1, rows - 4);
}

function Body({ state, columns, rows }: BodyProps) {
  const report = state.report;
  if (report === undefined || report.groups.state === 'idle' || report.groups.state === 'running') return <Text>Reading the report…</Text>;
  if (report.groups.state === 'failed') return <Tone tone="error">{`✗ ${report.groups.message}`}</Tone>;
  const { groups, total, notImported } = report.groups.value;
  if (groups.length === 0) return <Text>Nothing was rejected or failed: every record ended imported, existing or skipped.</Text>;
  const group = groups[report.group] ?? groups[0];
  if (group === undefined) return null;
  const lines = entryLines(group.entries, columns);
  const page = pageRows(rows);
  const start = Math.min(report.scroll, Math.max(0, lines.length - page));
  const tabs = groups
    .map((entry, index) => {
      const tab = `${entry.note ? 'note: ' : ''}${entry.code} ${formatCount(entry.count)}`;
      return index === report.group ? `[${tab}]` : tab;
    })
    .join('  ');
  const kept = group.entries.length < group.count ? ` (the first ${formatCount(group.entries.length)} shown; the file holds all)` : '';
  const notes = total - notImported;
  // A note is about a record that was imported (or kept): it is listed, never counted as one left out.
  const headline =
    `${formatCount(notImported)} records not imported, by reason` + (notes === 0 ? ':' : `; ${formatCount(notes)} note(s) on records that were not refused:`);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{headline}</Text>
      <Text wrap="truncate-end">
        <Tone tone="accent">{tabs}</Tone>
      </Text>
      <Text wrap="truncate-end">
        <Tone tone="muted">{`${group.code}: ${formatCount(group.count)} ${group.note ? 'note(s) on records imported or kept' : 'record(s)'}${kept}`}</Tone>
      </Text>
      {lines.slice(start, start + page).map((line, index) => (
        <Text key={`${start + index}`} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text>
        <Tone tone="muted">{`lines ${formatCount(start + 1)}–${formatCount(Math.min(start + page, lines.length))} of ${formatCount(lines.length)}`}</Tone>
      </Text>
    </Box>
  );
}

function move({ state, dispatch, columns, rows }: ScreenContext, group: number, scroll: number): void {
  const groups = groupsOf(state);
  if (groups.length === 0) return;
  const index = (group + groups.length) % groups.length;
  const lines = entryLines(groups[index]?.entries ?? [], columns).length;
  const last = Math.max(0, lines - pageRows(rows - FRAME_LINES));
  dispatch({ type: 'reportMoved', group: index, scroll: Math.min(Math.max(0, scroll), last) });
}

export const reportScreen: ScreenSpec = {
  id: 'report',
  title: 'Report',
  fields: () => [],
  keys: (press, context) => {
    const report = context.state.report;
    if (report === undefined) return false;
    const { key } = press;
    const page = 10;
    if (key.rightArrow || (key.tab && !key.shift)) move(context, report.group + 1, 0);
    else if (key.leftArrow || (key.tab && key.shift)) move(context, report.group - 1, 0);
    else if (key.downArrow) move(context, report.group, report.scroll + 1);
    else if (key.upArrow) move(context, report.group, report.scroll - 1);
    else if (key.pageDown || press.input === ' ') move(context, report.group, report.scroll + page);
    else if (key.pageUp) move(context, report.group, report.scroll - page);
    else if (key.home) move(context, report.group, 0);
    else return false;
    return true;
  },
  enter: () => undefined,
  back: ({ state, dispatch }) => dispatch({ type: 'goTo', screen: state.report?.from ?? 'review' }),
  hints: () => [
    ['←→', 'reason'],
    ['↑↓ PgUp PgDn', 'scroll'],
    ['?', 'help'],
    ['Esc', 'back'],
  ],
  help: [
    'Every record that was not imported, grouped by reason, with where it is in the export, who it is (email, old',
    "id) and why. Before a push it shows what the plan refused; after one, the run's report file (what the core",
    'failed too), then its notes on records that were imported or kept (note: a separate account, a hash replaced),',
    'which are not counted as left out. ←/→ changes the reason, ↑/↓ and PgUp/PgDn scroll. Fix and run again.',
  ],
  Body,
};
