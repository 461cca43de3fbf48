import { Box, Text } from 'ink';
import {
  describeCredentialsProof,
  describeRetries,
  describeRoles,
  describeSteps,
  describeSyncCounts,
  outcomeLabels,
  outcomesShown,
  type PushOutcome,
  type PushSummary,
  type RollbackSummary,
} from 'core-client';
import { printable } from 'core-client/printable';
import { loginServiceCommandOf, MAKE_SERVICE_KEY_LINE, withheldRemovalsSentence } from 'core-client/settings';
import { settingsOfState } from '../app/problems.js';
import { formatCount } from '../components/numbers.js';
import { wrapText } from '../components/wrap.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { commandLines, leavingCommand } from '../app/leaving.js';
import type { BodyProps, ScreenContext, ScreenSpec } from '../app/screen.js';
import type { AppState } from '../app/state.js';

function summaryOf(state: AppState): PushSummary | undefined {
  return state.run.state === 'finished' ? state.run.summary : undefined;
}

function rollbackLine(state: AppState): { text: string; tone: 'ok' | 'error' | 'warning' | 'plain' } | undefined {
  const { rollback } = state;
  if (rollback.state === 'idle') return undefined;
  if (rollback.state === 'running') return { text: 'Rolling back: removing the users this migration created…', tone: 'plain' };
  if (rollback.state === 'failed') return { text: `✗ Rollback: ${rollback.message}`, tone: 'error' };
  const value: RollbackSummary = rollback.value;
  const loginTime = value.loginTime;
  const text =
    `Rollback: ${formatCount(value.removed)} removed now, ${formatCount(value.alreadyRemoved)} by an earlier rollback, ` +
    (value.removedBySync > 0 ? `${formatCount(value.removedBySync)} by a sync, ` : '') +
    `${formatCount(value.leftAlone)} left alone, ${formatCount(value.failed)} failed, ${formatCount(value.notAttempted)} not attempted` +
    (value.roles === undefined
      ? ''
      : `; roles: ${formatCount(value.roles.removed.length)} of ${formatCount(value.roles.created)} created by the push removed`) +
    (loginTime === undefined
      ? '.'
      : `; login-time: ${formatCount(loginTime.arrivalsRemoved)} created at their first sign-in removed, ` +
        `${formatCount(loginTime.waitingDropped)} waiting user(s) dropped from the store` +
        (loginTime.arrivalsFailed > 0 ? `, ${formatCount(loginTime.arrivalsFailed)} removal(s) failed (u again retries them).` : '.'));
  const unfinished = value.failed + value.notAttempted + value.leftAlone + (loginTime?.arrivalsFailed ?? 0);
  return { text, tone: unfinished > 0 ? 'warning' : 'ok' };
}

/** The rollback's question, from its own dry run: every kind of user it removes, and the waiting users it drops. */
function rollbackQuestion(preview: RollbackSummary | undefined): string {
  const created = formatCount(preview?.notAttempted ?? 0);
  const loginTime = preview?.loginTime;
  if (loginTime === undefined) {
    return `Remove the ${created} user(s) this migration created, by its push and every sync of this journal (never one that was there before)? (y/n)`;
  }
  return (
    `Remove the ${created} user(s) this migration created, by its push and syncs, and the ${formatCount(loginTime.arrivalsRemoved)} created at first ` +
    `sign-in, and drop the ${formatCount(loginTime.waitingDropped)} waiting in the login-time store (never one that was there before)? (y/n)`
  );
}

/**
 * What fits in `room` lines of each block, in the order given (an earlier block has the room first): each block is its
 * choices, longest first, and takes the first that fits whole, or nothing.
 */
function blocksThatFit(room: number, blocks: readonly (readonly (readonly string[])[])[]): (readonly string[])[] {
  let left = room;
  return blocks.map((choices) => {
    const chosen = choices.find((lines) => lines.length <= left) ?? [];
    left -= chosen.length;
    return chosen;
  });
}

/** Outcomes that call for a next step (a resume, a report, the login-time service): kept in view when the table is cut. */
const outcomesToKeep: ReadonlySet<PushOutcome> = new Set([
  'alreadyExisted',
  'existingUntouched',
  'createdWithOtherHash',
  'parkedForLogin',
  'disabledSkipped',
  'rejected',
  'failed',
  'notAttempted',
  'removed',
]);

/**
 * The Summary in exactly the rows it has: the title, why it stopped, the rollback and the sum always; then every
 * outcome (those that call for a next step first); then, as they fit, the login-time service, the notes, the files,
 * and the command that goes on (printed on leaving anyway, so it gives way first, to one line that says so).
 */
function Body({ state, columns, rows }: BodyProps) {
  const summary = summaryOf(state);
  if (summary === undefined) return null;
  const stopped = summary.stoppedEarly;
  const shown = outcomesShown(summary);
  const outcomeRows: TableRow[] = shown.map((outcome) => ({
    label: summary.dryRun && outcome === 'notAttempted' ? 'would be sent' : outcomeLabels[outcome],
    value: summary[outcome],
    keep: outcomesToKeep.has(outcome),
    ...(outcome === 'alreadyExisted' && summary.alreadyExisted > 0 ? { note: 'their hash was REPLACED', tone: 'warning' as const } : {}),
    ...(outcome === 'notAttempted' && summary.notAttempted > 0 && !summary.dryRun ? { note: 'a resume sends them' } : {}),
  }));
  const sum = shown.reduce((total, outcome) => total + summary[outcome], 0);
  const rollback = rollbackLine(state);
  const notes = [
    ...(summary.sync === undefined ? [] : describeSyncCounts(summary.sync)),
    withheldRemovalsSentence(summary.syncGuard, 'app', summary.dryRun),
    describeSteps(summary),
    describeRetries(summary),
    ...describeRoles(summary),
    summary.credentials === undefined ? undefined : describeCredentialsProof(summary.credentials),
  ]
    .filter((note): note is string => note !== undefined)
    .map((note) => wrapText(note, columns));
  const rollbackLines = rollback === undefined ? [] : wrapText(printable(rollback.text), columns);
  const stoppedLines = stopped === undefined ? [] : wrapText(printable(stopped.message), columns);
  const command = leavingCommand(state);
  const commandBlock =
    command === undefined
      ? []
      : [
          ...wrapText(`${command.label}:`, columns),
          ...commandLines(state.invocation, command.args, columns - 2).map((line) => `  ${line}`),
          ...(command.caveat === undefined ? [] : wrapText(`  (${command.caveat})`, columns)),
        ];
  // A rollback with the login-time store emptied it: nobody waits, and the service has nothing to do.
  const storeEmptied = state.rollback.state === 'done' && state.rollback.value.loginTime !== undefined;
  const service = storeEmptied ? undefined : loginService(state, summary.parkedForLogin, summary.dryRun);
  const serviceLines =
    service === undefined
      ? []
      : [
          ...wrapText(service.label, columns),
          `  ${MAKE_SERVICE_KEY_LINE}`,
          ...commandLines(state.invocation, service.args, columns - 2).map((line) => `  ${line}`),
        ];
  const files = [
    `report   ${summary.reportPath ?? '(not written)'}`,
    `journal  ${summary.dryRun ? '(a dry run writes none)' : (summary.journalPath ?? '(not written)')}`,
  ];

  const fixed = 2 + stoppedLines.length + rollbackLines.length;
  const tableRows = Math.max(1, Math.min(outcomeRows.length, rows - fixed));
  const shortCommand = command === undefined ? [] : wrapText(`${command.label}: printed when you leave`, columns);
  const fitted = blocksThatFit(rows - fixed - tableRows, [[serviceLines], ...notes.map((note) => [note]), [files], [commandBlock, shortCommand]]);
  const serviceShown = fitted[0] ?? [];
  const notesShown = fitted.slice(1, 1 + notes.length);
  const filesShown = fitted[1 + notes.length] ?? [];
  const commandShown = fitted[2 + notes.length] ?? [];
  return (
    <Box flexDirection="column">
      <Text bold>
        {summary.dryRun
          ? 'Dry run finished: nothing was written.'
          : `${summary.sync === undefined ? 'Push' : 'Sync'} ${stopped === undefined ? 'finished.' : 'stopped early.'}`}
      </Text>
      {stoppedLines.map((line) => (
        <Tone key={line} tone="warning">
          {line}
        </Tone>
      ))}
      <Table rows={outcomeRows} columns={columns} maxRows={tableRows} />
      <Text wrap="truncate-end">
        {sum === summary.total ? <Tone tone="ok">✓ </Tone> : <Tone tone="error">✗ </Tone>}
        {`these add up to ${formatCount(sum)} of ${formatCount(summary.total)} ${summary.sync === undefined ? 'planned operations' : 'operations of the delta'}`}
      </Text>
      {notesShown.flat().map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      {serviceShown.map((line) => (
        <Text key={line}>{printable(line)}</Text>
      ))}
      {rollbackLines.map((line) => (
        <Tone key={line} tone={rollback?.tone ?? 'plain'}>
          {line}
        </Tone>
      ))}
      {filesShown.map((line) => (
        <Text key={line} wrap="truncate-end">
          {printable(line)}
        </Text>
      ))}
      {commandShown.map((line, index) =>
        index === 0 || line.startsWith('  (') ? (
          <Tone key={line} tone="muted">
            {printable(line)}
          </Tone>
        ) : (
          <Text key={line}>{printable(line)}</Text>
        ),
      )}
    </Box>
  );
}

/** After parking users for a login-time migration: the service the backend asks at their first sign-in, and how to start it. */
function loginService(state: AppState, parked: number, dryRun: boolean): { label: string; args: string[] } | undefined {
  if (parked === 0 || dryRun) return undefined;
  const parsed = settingsOfState(state);
  const args = 'problems' in parsed ? undefined : loginServiceCommandOf(parsed.settings);
  if (args === undefined) return undefined;
  return {
    label: `${formatCount(parked)} user(s) wait for their first sign-in; start the service your backend asks (docs/login-time.md), with a key of its own that your backend sends (made once, kept if it is there):`,
    args,
  };
}

/** Until a rollback ran to its end: one that failed (or whose question could not be asked: the core down) is tried again. */
function canRollBack(state: AppState): boolean {
  const summary = summaryOf(state);
  const rollback = state.rollback.state;
  return summary !== undefined && !summary.dryRun && summary.journalPath !== undefined && (rollback === 'idle' || rollback === 'failed');
}

export const summaryScreen: ScreenSpec = {
  id: 'summary',
  title: 'Summary',
  fields: () => [],
  keys: (press, context: ScreenContext) => {
    const { state, dispatch, commands } = context;
    if (state.confirm === 'rollback') {
      if (press.input === 'y' || press.input === 'Y') commands.startRollback();
      else if (press.input === 'n' || press.input === 'N' || press.key.escape) dispatch({ type: 'confirm', what: undefined });
      return true;
    }
    switch (press.input) {
      case 'q':
        commands.quit();
        return true;
      case 'r':
        commands.openReport();
        return true;
      case 'b':
        dispatch({ type: 'goTo', screen: 'review' });
        return true;
      case 'h':
        dispatch({ type: 'goTo', screen: 'hashes' });
        return true;
      case 'u':
        if (canRollBack(state)) commands.askRollback();
        return true;
      default:
        return false;
    }
  },
  enter: ({ commands }) => commands.quit(),
  back: ({ dispatch }) => dispatch({ type: 'goTo', screen: 'review' }),
  message: (state) => {
    const summary = summaryOf(state);
    if (state.confirm === 'rollback') {
      return { tone: 'warning', text: rollbackQuestion(state.rollbackPreview) };
    }
    if (summary?.stoppedEarly?.reason === 'credentialsMismatch') return { tone: 'error', text: 'h: fix the hash parameters, then run again from Review.' };
    return undefined;
  },
  hints: (state) =>
    state.confirm === 'rollback'
      ? [
          ['y', 'remove them'],
          ['n/Esc', 'keep them'],
        ]
      : [
          ['q/Enter', 'quit'],
          ['b', 'back to Review (run again)'],
          ['h', 'Hashes'],
          ['r', 'report'],
          ...(canRollBack(state) ? ([['u', 'roll back']] as const) : []),
          ['?', 'help'],
        ],
  help: [
    'How every planned operation ended, and that they add up. What the identity steps did, and the known accounts.',
    'b goes back to Review and h to Hashes: change a setting and run again (the journal resumes: nothing is sent',
    'twice). r opens the report of this run, by reason. u rolls back: it removes exactly the users this migration',
    'created, by the ids its journal holds, never a user that was there before; with a login-time store also those',
    'created at their first sign-in, and it drops the users still waiting (the question says how many of each).',
    'On leaving, the command that resumes or repeats this run is printed on one line.',
  ],
  Body,
};
