import { Box, Text } from 'ink';
import type { PlanSummary } from 'core-client/plan/summary';
import type { SyncCounts } from 'core-client/push/summary';
import { defaultJournalName, defaultReportName, unprovenScryptWarning } from 'core-client/settings';
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

/** What a sync would send, user by user (each user in one row; the kinds of change in the notes). */
export function syncRows(sync: SyncCounts): TableRow[] {
  const kinds = {
    password: sync.passwordChanged,
    'password re-sent': sync.passwordResent,
    email: sync.emailChanged,
    verified: sync.verified,
    unverified: sync.unverified,
    profile: sync.profileChanged,
    roles: sync.rolesChanged,
    'accounts added': sync.accountsAdded,
  };
  return [
    {
      label: 'new users',
      value: sync.new,
      note: sync.reEnabled > 0 ? `${formatCount(sync.reEnabled)} re-enabled (same id again)` : 'created as a push creates them',
    },
    { label: 'changed', value: sync.changed, note: breakdown(kinds) },
    { label: 'disabled', value: sync.disabled, note: sync.disabled > 0 ? 'removed from the core: they can no longer sign in' : '' },
    {
      label: 'deleted in source',
      value: sync.deletedInSource,
      note: sync.deletedInSource > 0 ? 'reported; "gone from the export: remove" removes those the migration created' : '',
    },
    { label: 'unchanged', value: sync.unchanged, note: 'nothing is sent about them' },
    { label: 'refused by the plan', value: sync.refused, ...(sync.refused > 0 ? { tone: 'warning' as const, note: 'each one goes to the report' } : {}) },
  ];
}

/** Whether Enter may ask to start: a current plan, and no setting with a problem (and, for a sync, its delta). */
function readiness(state: AppState): string | undefined {
  if (!planCurrent(state) || state.plan?.counted === undefined) return 'the plan is not read yet: Enter on Source reads it';
  const problems = Object.values(settingProblems(state));
  if (problems.length > 0) return problems[0];
  if (state.command === 'sync' && state.syncPreview.state === 'failed') return state.syncPreview.message;
  return undefined;
}

function fields({ state }: FieldsContext): FieldSpec[] {
  const { draft } = state;
  const problems = settingProblems(state);
  const file = draft.file.trim() === '' ? 'users.json' : draft.file.trim();
  const report = draft.report.trim() === '' ? defaultReportName(file) : draft.report.trim();
  const rejected = state.plan?.counted?.summary.rejected ?? 0;
  const sync: FieldSpec[] =
    state.command === 'sync'
      ? [
          {
            id: 'deleted',
            kind: 'choice',
            label: 'gone from the export',
            setting: 'deleted',
            value: draft.deleted,
            choices: ['keep', 'remove'],
            describe: (choice) => (choice === 'remove' ? 'remove: the users the migration created' : 'keep: reported, left in the core'),
            set: (value) => ({ type: 'draft', patch: { deleted: value === 'remove' ? 'remove' : 'keep' } }),
          },
        ]
      : [];
  return [
    ...sync,
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

/** Scrypt-variant users with nothing proving their hash parameters: no known-accounts file, no known password that matched. */
function scryptWarnings(state: AppState): string[] {
  const users = state.command === 'push' && planCurrent(state) ? (state.plan?.counted?.summary.byFamily.vendor_scrypt ?? 0) : 0;
  const proven = state.draft.verifyCredentials.trim() !== '' || (state.check.state === 'done' && state.check.value.match);
  return users > 0 && !proven ? [unprovenScryptWarning(users, 'app')] : [];
}

function Body({ state, fields: list, columns, rows }: BodyProps) {
  const summary = state.plan?.counted?.summary;
  const warnings = [...scryptWarnings(state), ...state.warnings].flatMap((warning) =>
    warning.split('\n').flatMap((line, index) => wrapText(index === 0 ? `! ${line}` : line, columns)),
  );
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
      ) : state.command === 'sync' ? (
        <SyncDelta state={state} columns={columns} rows={tableRows} />
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

function SyncDelta({ state, columns, rows }: { state: AppState; columns: number; rows: number }) {
  const preview = state.syncPreview;
  const title = 'A sync: the newer export against the journal of the earlier run';
  if (preview.state === 'done') return <Table title={title} rows={syncRows(preview.value)} columns={columns} maxRows={rows} />;
  const text =
    preview.state === 'running'
      ? 'Comparing the newer export with the journal (a dry run: nothing is sent)…'
      : preview.state === 'failed'
        ? `✗ ${preview.message}`
        : 'Enter works out what changed since the journal (a dry run: nothing is sent).';
  return (
    <Box flexDirection="column">
      <Text bold>{title}</Text>
      {wrapText(text, columns).map((line) => (
        <Text key={line}>{line}</Text>
      ))}
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
  enter: ({ state, dispatch, commands }) => {
    if (readiness(state) !== undefined) return;
    // A sync shows its delta before it asks.
    if (state.command === 'sync' && state.syncPreview.state !== 'done') commands.previewSync();
    else dispatch({ type: 'confirm', what: 'push' });
  },
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'identity' }),
  message: (state) => {
    if (state.confirm === 'push') {
      const summary = state.plan?.counted?.summary;
      const operations = summary === undefined ? 0 : summary.operations - summary.rejected;
      const delta = state.syncPreview.state === 'done' ? state.syncPreview.value : undefined;
      const what =
        state.command === 'sync'
          ? `the changes of ${formatCount((delta?.new ?? 0) + (delta?.changed ?? 0) + (delta?.disabled ?? 0) + (state.draft.deleted === 'remove' ? (delta?.deletedInSource ?? 0) : 0))} users`
          : `${formatCount(operations)} operations`;
      return {
        tone: 'warning',
        text: state.draft.dryRun ? `Dry run against ${target(state)}: nothing will be written. Start? (y/n)` : `Send ${what} to ${target(state)}? (y/n)`,
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
    'With a journal of an earlier run and a newer export, the run is a sync: Enter first shows what changed',
    '(new, changed by kind, disabled, deleted in source, unchanged; a dry run, nothing sent), then asks.',
    '"rejected records" opens the report view: every refused record, by reason.',
  ],
  Body,
};
