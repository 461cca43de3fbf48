import { Box, Text } from 'ink';
import type { PlanSummary } from 'core-client/plan/summary';
import { defaultJournalName, defaultReportName } from 'core-client/settings';
import { FieldList } from '../components/field-list.js';
import { formatCount } from '../components/numbers.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { wrapText } from '../components/wrap.js';
import { planCurrent } from '../app/plan-status.js';
import { settingProblems } from '../app/problems.js';
import type { BodyProps, FieldSpec, FieldsContext, ScreenSpec } from '../app/screen.js';
import type { AppState } from '../app/state.js';
import { shortLocation, withFileNames } from './locations.js';

function breakdown(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${formatCount(count)}`)
    .join(' · ');
}

export function planRows(summary: PlanSummary): TableRow[] {
  const rows: TableRow[] = [
    { label: 'records read', value: summary.records },
    { label: 'password imports', value: summary.passwordImports, note: breakdown(summary.byFamily) },
    { label: 'third-party sign-ins', value: summary.thirdPartySignInUps, note: breakdown(summary.byProvider) },
    {
      label: 'rejected by the plan',
      value: summary.rejected,
      note: summary.rejected > 0 ? 'each one goes to the report' : '',
      ...(summary.rejected > 0 ? { tone: 'warning' as const } : {}),
    },
  ];
  for (const group of [...summary.rejectionsByCode].sort((a, b) => b.count - a.count)) {
    const example = group.examples[0];
    rows.push({
      label: `  ${group.code}`,
      value: group.count,
      note: example === undefined ? '' : `${shortLocation(example.location)}: ${withFileNames(example.reason)}`,
    });
  }
  rows.push({ label: 'duplicates', value: summary.duplicates }, { label: 'without credentials', value: summary.withoutCredentials });
  return rows;
}

/** Whether Enter may ask to start: a current plan, and no setting with a problem. */
function readiness(state: AppState): string | undefined {
  if (!planCurrent(state) || state.plan?.counted === undefined) return 'the plan is not read yet: Enter on Source reads it';
  const problems = Object.values(settingProblems(state));
  if (problems.length > 0) return problems[0];
  return undefined;
}

function fields({ state }: FieldsContext): FieldSpec[] {
  const { draft } = state;
  const problems = settingProblems(state);
  const file = draft.file.trim() === '' ? 'users.json' : draft.file.trim();
  const report = draft.report.trim() === '' ? defaultReportName(file) : draft.report.trim();
  const rejected = state.plan?.counted?.summary.rejected ?? 0;
  return [
    {
      id: 'concurrency',
      kind: 'text',
      label: 'concurrency',
      setting: 'concurrency',
      value: draft.concurrency,
      placeholder: 'adaptive (finds what the core takes)',
      problem: problems.concurrency,
      set: (value) => ({ type: 'draft', patch: { concurrency: value } }),
    },
    {
      id: 'giveUpAfter',
      kind: 'text',
      label: 'give up after',
      setting: 'giveUpAfter',
      value: draft.giveUpAfter,
      placeholder: '300 s of a core answering nothing useful (then exit 3)',
      problem: problems.giveUpAfter,
      set: (value) => ({ type: 'draft', patch: { giveUpAfter: value } }),
    },
    {
      id: 'dryRun',
      kind: 'choice',
      label: 'dry run',
      setting: 'dryRun',
      value: draft.dryRun ? 'yes' : 'no',
      choices: ['no', 'yes'],
      describe: (choice) => (choice === 'yes' ? 'yes: nothing is written to the core' : 'no'),
      set: (value) => ({ type: 'draft', patch: { dryRun: value === 'yes' } }),
    },
    {
      id: 'journal',
      kind: 'path',
      label: 'journal',
      setting: 'journal',
      value: draft.journal,
      placeholder: `default: ${defaultJournalName(file)} beside the report`,
      problem: problems.journal,
      set: (value) => ({ type: 'draft', patch: { journal: value } }),
    },
    {
      id: 'report',
      kind: 'path',
      label: 'report',
      setting: 'report',
      value: draft.report,
      placeholder: `default: ${report} here`,
      problem: problems.report,
      set: (value) => ({ type: 'draft', patch: { report: value } }),
    },
    {
      id: 'verifyCredentials',
      kind: 'path',
      label: 'credentials',
      setting: 'verifyCredentials',
      value: draft.verifyCredentials,
      placeholder: "optional: a file of 'email password' lines",
      problem: problems.verifyCredentials,
      set: (value) => ({ type: 'draft', patch: { verifyCredentials: value } }),
    },
    {
      id: 'openReport',
      kind: 'action',
      label: 'rejected records',
      value: rejected > 0 ? `${formatCount(rejected)}: Enter browses them by reason` : 'none',
      activate: ({ commands }) => {
        if (rejected > 0) commands.openReport();
      },
    },
  ];
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  const summary = state.plan?.counted?.summary;
  const warnings = state.warnings.flatMap((warning) => wrapText(`! ${warning}`, columns));
  const tableRows = Math.max(3, rows - list.length - 2 - warnings.length);
  return (
    <Box flexDirection="column">
      {warnings.map((line) => (
        <Tone key={line} tone="warning">
          {line}
        </Tone>
      ))}
      {summary === undefined || !planCurrent(state) ? (
        <Text>The plan has not been read yet: Enter on Source reads it.</Text>
      ) : (
        <Table title="The plan" rows={planRows(summary)} columns={columns} maxRows={tableRows} />
      )}
      <Box marginTop={1}>
        <FieldList
          fields={list}
          focus={state.focus.review}
          editing={state.confirm === undefined}
          cursorFromEnd={state.cursorFromEnd}
          completion={state.completion?.text}
          columns={columns}
          maxRows={list.length}
        />
      </Box>
    </Box>
  );
}

function target(state: AppState): string {
  return state.preflight.state === 'done' ? state.preflight.value.target : 'the core';
}

export const reviewScreen: ScreenSpec = {
  id: 'review',
  title: 'Review',
  fields,
  keys: (press, { state, dispatch, commands }) => {
    if (state.confirm !== 'push') return false;
    if (press.input === 'y' || press.input === 'Y') commands.startPush();
    else if (press.input === 'n' || press.input === 'N' || press.key.escape) dispatch({ type: 'confirm', what: undefined });
    return true;
  },
  enter: ({ state, dispatch }) => {
    if (readiness(state) === undefined) dispatch({ type: 'confirm', what: 'push' });
  },
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'identity' }),
  message: (state) => {
    if (state.confirm === 'push') {
      const summary = state.plan?.counted?.summary;
      const operations = summary === undefined ? 0 : summary.operations - summary.rejected;
      return {
        tone: 'warning',
        text: state.draft.dryRun
          ? `Dry run against ${target(state)}: nothing will be written. Start? (y/n)`
          : `Send ${formatCount(operations)} operations to ${target(state)}? (y/n)`,
      };
    }
    const blocked = readiness(state);
    return blocked === undefined ? { tone: 'muted', text: 'Nothing is sent until you confirm.' } : { tone: 'error', text: `✗ ${blocked}` };
  },
  hints: (state) =>
    state.confirm === 'push'
      ? [
          ['y', state.draft.dryRun ? 'start the dry run' : 'send to the core'],
          ['n/Esc', 'not yet'],
        ]
      : [
          ['Enter', 'start…'],
          ['↑↓', 'field'],
          ['←→', 'change'],
          ['?', 'help'],
          ['Esc', 'back'],
        ],
  help: [
    'The plan as it will be sent, and how: concurrency (empty: adaptive, it finds what the core takes), how long a',
    'core may answer nothing useful before the push gives up (operations wait meanwhile), a dry run,',
    'the journal that makes a re-run resume (locked while a push runs), the report of every record not imported,',
    'and a file of known accounts (email password) checked locally before and signed in after the push.',
    'Enter asks before anything is sent; y runs exactly what the command printed on leaving would run.',
    '"rejected records" opens the report view: every refused record, by reason.',
  ],
  Body,
};
