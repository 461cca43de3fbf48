import { Box, Text } from 'ink';
import { type PlanSummary, DEFAULT_MAX_REMOVALS, DEFAULT_MIN_OVERLAP_PERCENT, describeLoginTimeFamilies } from 'core-client';
import { DeletedPolicySchema, defaultJournalName, defaultReportName, unprovenScryptWarning } from 'core-client/settings';
import { FieldList } from '../components/field-list.js';
import { formatCount } from '../components/numbers.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { wrapText } from '../components/wrap.js';
import { planCurrent } from '../app/plan-status.js';
import { settingProblems } from '../app/problems.js';
import { type BodyProps, type FieldSpec, type FieldsContext, type ScreenSpec, settingField } from '../app/screen.js';
import type { AppState } from '../app/state.js';
import { shortLocation, withFileNames } from './locations.js';
import { SyncDelta } from './sync-delta.js';

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
    // Most exports have none: the row shows when the file has some.
    ...(summary.passwordlessSignInUps > 0
      ? [{ label: 'passwordless users', value: summary.passwordlessSignInUps, note: breakdown(summary.passwordlessByLogin) }]
      : []),
    // Only with a login-time migration: the users parked in its store, who arrive at their first sign-in.
    ...(summary.loginTime === undefined ? [] : [{ label: 'arrive at first login', value: summary.loginTime.parked, note: describeLoginTimeFamilies(summary) }]),
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
  const sync: FieldSpec[] = state.command === 'sync' ? syncFields(state) : [];
  return [
    ...sync,
    {
      ...settingField('concurrency'),
      kind: 'text',
      value: draft.concurrency,
      placeholder: 'adaptive (finds what the core takes)',
      problem: problems.concurrency,
      set: (value) => ({ type: 'draft', patch: { concurrency: value } }),
    },
    {
      ...settingField('giveUpAfter'),
      kind: 'text',
      value: draft.giveUpAfter,
      placeholder: '300 s of a core answering nothing useful (then exit 3)',
      problem: problems.giveUpAfter,
      set: (value) => ({ type: 'draft', patch: { giveUpAfter: value } }),
    },
    {
      ...settingField('dryRun'),
      kind: 'choice',
      value: draft.dryRun ? 'yes' : 'no',
      choices: ['no', 'yes'],
      describe: (choice) => (choice === 'yes' ? 'yes: nothing is written to the core' : 'no'),
      set: (value) => ({ type: 'draft', patch: { dryRun: value === 'yes' } }),
    },
    {
      ...settingField('journal'),
      kind: 'path',
      value: draft.journal,
      placeholder: `default: ${defaultJournalName(file)} beside the report`,
      problem: problems.journal,
      set: (value) => ({ type: 'draft', patch: { journal: value } }),
    },
    {
      ...settingField('report'),
      kind: 'path',
      value: draft.report,
      placeholder: `default: ${report} here`,
      problem: problems.report,
      set: (value) => ({ type: 'draft', patch: { report: value } }),
    },
    {
      ...settingField('verifyCredentials'),
      kind: 'path',
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

/**
 * A sync's own fields: what happens to users gone from the export, and, when they matter (a removal, a refusal, or
 * a value given), the removal limit and the overlap an export must keep.
 */
function syncFields(state: AppState): FieldSpec[] {
  const { draft } = state;
  const problems = settingProblems(state);
  const forecast = state.syncPreview.state === 'done' ? state.syncPreview.value.forecast : undefined;
  const refused = state.syncPreview.state === 'failed' && state.syncPreview.setting === 'ignoreOverlap';
  const fields: FieldSpec[] = [
    {
      ...settingField('deleted'),
      kind: 'choice',
      value: draft.deleted,
      choices: DeletedPolicySchema.options,
      describe: (choice) => (choice === 'remove' ? 'remove: the users the migration created' : 'keep: reported, left in the core'),
      set: (value) => ({ type: 'draft', patch: { deleted: DeletedPolicySchema.parse(value) } }),
    },
  ];
  if ((forecast?.removals ?? 0) > 0 || draft.maxRemovals.trim() !== '') {
    fields.push({
      ...settingField('maxRemovals'),
      kind: 'text',
      value: draft.maxRemovals,
      placeholder: `${DEFAULT_MAX_REMOVALS} of the journal's users${forecast === undefined ? '' : ` (${formatCount(forecast.removalLimit)} now)`}; or a count`,
      problem: problems.maxRemovals,
      set: (value) => ({ type: 'draft', patch: { maxRemovals: value } }),
    });
  }
  if (refused || draft.ignoreOverlap || draft.minOverlap.trim() !== '') {
    fields.push(
      {
        ...settingField('minOverlap'),
        kind: 'text',
        value: draft.minOverlap,
        placeholder: `${DEFAULT_MIN_OVERLAP_PERCENT} % of the journal's users still in the export`,
        problem: problems.minOverlap,
        set: (value) => ({ type: 'draft', patch: { minOverlap: value } }),
      },
      {
        ...settingField('ignoreOverlap'),
        kind: 'choice',
        value: draft.ignoreOverlap ? 'yes' : 'no',
        choices: ['no', 'yes'],
        describe: (choice) => (choice === 'yes' ? 'yes: it is the right export, whatever the overlap' : 'no'),
        set: (value) => ({ type: 'draft', patch: { ignoreOverlap: value === 'yes' } }),
      },
    );
  }
  return fields;
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

function target(state: AppState): string {
  return state.preflight.state === 'done' ? state.preflight.value.target : 'the core';
}

export const reviewScreen: ScreenSpec = {
  id: 'review',
  title: 'Review',
  fields,
  keys: (press, { state, dispatch, commands }) => {
    if (state.confirm !== 'push') {
      // The delta's users scroll by pages; the arrows stay the fields'.
      const page = press.key.pageDown ? 10 : press.key.pageUp ? -10 : 0;
      if (page === 0 || state.command !== 'sync' || state.syncPreview.state !== 'done') return false;
      dispatch({ type: 'deltaScrolled', scroll: Math.min(state.deltaScroll + page, Math.max(0, state.syncPreview.value.users.length - 1)) });
      return true;
    }
    if (press.input === 'y' || press.input === 'Y') commands.startPush();
    else if (press.input === 'n' || press.input === 'N' || press.key.escape) dispatch({ type: 'confirm', what: undefined });
    return true;
  },
  enter: ({ state, dispatch, commands }) => {
    if (readiness(state) !== undefined) {
      // A file named in a field may have been mended outside the app since it was checked: check again, and the next
      // Enter goes on once nothing is left.
      if (Object.keys(state.fieldProblems).length > 0) dispatch({ type: 'recheckFiles' });
      return;
    }
    // A sync shows its delta before it asks.
    if (state.command === 'sync' && state.syncPreview.state !== 'done') commands.previewSync();
    else dispatch({ type: 'confirm', what: 'push' });
  },
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'identity' }),
  message: (state) => {
    if (state.confirm === 'push') {
      const summary = state.plan?.counted?.summary;
      const operations = summary === undefined ? 0 : summary.operations - summary.rejected;
      const delta = state.syncPreview.state === 'done' ? state.syncPreview.value.counts : undefined;
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
    '(a dry run, nothing sent): the counts, then the users one by one with their old ids, removals first',
    '(PgUp/PgDn scroll them), then asks. An export that keeps under "least overlap" of the journal\'s users is',
    'refused ("sync an unlike export" goes on anyway); more removals than "most removals" remove nobody.',
    '"rejected records" opens the report view: every refused record, by reason.',
  ],
  Body,
};
