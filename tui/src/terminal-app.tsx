import { useCallback, useMemo, useRef } from 'react';
import { Box, Text, useApp, useInput, usePaste, useWindowSize } from 'ink';
import { ExitCode, exitCodeOfPush, optional } from 'core-client/settings';
import { bodyRows, Frame } from './components/frame.js';
import type { KeyHint } from './components/key-hints.js';
import { ThemeProvider } from './components/theme.js';
import { wrapText } from './components/wrap.js';
import { screens } from './screens/index.js';
import {
  checkConnection,
  checkPassword,
  planReportGroups,
  pushReportGroups,
  askRollback,
  rollBack,
  startPush,
  previewSync,
  type CommandEnvironment,
  type RunningPush,
} from './app/commands.js';
import { applyFieldKey, movedFocus, pasteIntoField } from './app/fields.js';
import { looksLikeHashConfig, readHashConfigPaste } from './app/hash-paste.js';
import { keysOf, type KeyPress } from './app/keys.js';
import { leavingCommand, leavingLine } from './app/leaving.js';
import { describeFailure } from './app/problems.js';
import { isTextual, type AppCommands, type FieldSpec, type ScreenContext, type ScreenSpec } from './app/screen.js';
import { initialAppState, walkScreens, type AppState, type InitialState } from './app/state.js';
import { useAppState } from './app/use-app-state.js';
import { useCompletion } from './app/use-completion.js';
import { useExportFormat } from './app/use-export-format.js';
import { useMigrationCommand } from './app/use-migration-command.js';
import { usePlanCount } from './app/use-plan-count.js';
import { usePulumiStacks } from './app/use-pulumi-stacks.js';
import { useSettingFileChecks } from './app/use-setting-file-checks.js';

/** What the app hands back when the operator leaves. */
export interface AppResult {
  exitCode: ExitCode;
  /** The command that resumes, repeats or runs the push, printed after the app's screen (one line). */
  command?: { label: string; line: string; caveat?: string };
}

export interface AppProps extends InitialState {
  env: NodeJS.ProcessEnv;
  cwd: string;
  colour: boolean;
  pulumiBinary?: string;
  onDone?: (result: AppResult) => void;
}

const stepTitles = walkScreens.map((id) => screens[id].title);

function exitCodeOf(state: AppState): ExitCode {
  if (state.run.state === 'finished') return exitCodeOfPush(state.run.summary);
  if (state.run.state === 'failed') return state.run.problem.exitCode ?? ExitCode.usageOrConfiguration;
  return ExitCode.ok;
}

/** Where the help's `?` may not go: a text field with text in it, or a masked one (a password may hold a ?). */
function questionMarkTypes(field: FieldSpec | undefined): boolean {
  if (!isTextual(field)) return false;
  return field.kind === 'masked' || field.value !== '';
}

/** The walk: one key router, screens that collect settings, core-client that decides and runs. */
export function App({ env, cwd, colour, pulumiBinary, onDone, ...initial }: AppProps) {
  const { exit } = useApp();
  const { columns, rows } = useWindowSize();
  const { state, current, dispatch } = useAppState(() => initialAppState({ ...initial, env }));
  const push = useRef<RunningPush | undefined>(undefined);
  const done = useRef(false);
  /** Aborted when the app quits: a known-password check under way stops with it. */
  const leaving = useRef(new AbortController());
  const environment: CommandEnvironment = useMemo(
    () => ({ current, dispatch, cwd, env, ...optional('pulumiBinary', pulumiBinary) }),
    [current, dispatch, cwd, env, pulumiBinary],
  );

  const quit = useCallback(() => {
    if (done.current) return;
    done.current = true;
    leaving.current.abort(new Error('the app was closed'));
    const latest = current();
    const command = leavingCommand(latest);
    const line = leavingLine(latest, latest.invocation);
    onDone?.({
      exitCode: exitCodeOf(latest),
      ...(command === undefined || line === undefined ? {} : { command: { label: command.label, line, ...optional('caveat', command.caveat) } }),
    });
    exit();
  }, [current, exit, onDone]);

  const commands: AppCommands = useMemo(
    () => ({
      checkConnection: (advance) => {
        dispatch({ type: 'preflightStarted', advance });
        void checkConnection(environment).then((result) => dispatch({ type: 'preflightFinished', result }));
      },
      readPlan: (advance) => dispatch({ type: 'requestPlan', advance }),
      checkPassword: () => {
        dispatch({ type: 'checkStarted' });
        checkPassword(environment, leaving.current.signal).then(
          (result) => dispatch({ type: 'checkFinished', result }),
          (error: unknown) => dispatch({ type: 'checkFinished', result: { message: describeFailure(error) } }),
        );
      },
      startPush: () => {
        if (push.current !== undefined) return;
        push.current = startPush(environment, () => (push.current = undefined));
      },
      previewSync: () => {
        if (current().syncPreview.state === 'running') return;
        dispatch({ type: 'syncPreviewStarted' });
        previewSync(environment).then(dispatch, (error: unknown) =>
          dispatch({ type: 'syncPreviewFinished', result: { message: current().apiKey.redact(describeFailure(error)) } }),
        );
      },
      togglePause: () => {
        const run = push.current;
        if (run === undefined) return;
        if (run.control.paused) run.control.resume();
        else run.control.pause();
        run.view = { ...run.view, paused: run.control.paused };
        dispatch({ type: 'runProgress', progress: run.view });
      },
      stopPush: () => {
        const run = push.current;
        if (run === undefined) return;
        if (run.stop.signal.aborted) run.abandon.abort();
        else run.stop.abort();
        run.control.resume();
      },
      askRollback: () => {
        void askRollback(environment).then(dispatch);
      },
      startRollback: () => {
        dispatch({ type: 'rollbackStarted' });
        void rollBack(environment).then(dispatch);
      },
      openReport: () => {
        const latest = current();
        dispatch({ type: 'reportOpened', from: latest.screen });
        if (latest.screen === 'summary') void pushReportGroups(latest).then((result) => dispatch({ type: 'reportLoaded', result }));
        else if (latest.plan?.counted !== undefined) dispatch({ type: 'reportLoaded', result: planReportGroups(latest.plan.counted.summary) });
      },
      fix: (setting) => {
        const latest = current();
        for (const id of walkScreens) {
          const list = screens[id].fields({ state: latest, dispatch });
          const index = list.findIndex((field) => field.setting === setting);
          if (index >= 0) return dispatch({ type: 'goTo', screen: id, focus: index });
        }
        dispatch({ type: 'goTo', screen: 'review' });
      },
      quit,
    }),
    [environment, dispatch, current, quit],
  );

  const contextOf = (latest: AppState): ScreenContext => ({ state: latest, dispatch, commands, cwd, columns, rows });

  const handleKey = (press: KeyPress): void => {
    const latest = current();
    const { key, input } = press;
    if (key.ctrl && input === 'c') {
      if (push.current !== undefined) commands.stopPush();
      else quit();
      return;
    }
    if (latest.help) {
      // The help scrolls when the terminal is too small for it; any other key goes back.
      const step = key.downArrow ? 1 : key.upArrow ? -1 : key.pageDown || input === ' ' ? 10 : key.pageUp ? -10 : 0;
      dispatch(
        step === 0
          ? { type: 'help', open: false }
          : { type: 'help', open: true, scroll: Math.min(latest.helpScroll + step, helpLines(screens[latest.screen], columns).length) },
      );
      return;
    }
    const spec = screens[latest.screen];
    const context = contextOf(latest);
    const list = spec.fields(context);
    const focus = Math.min(latest.focus[latest.screen], Math.max(0, list.length - 1));
    const field = list[focus];
    // Ctrl+G (help, as in nano) works everywhere; ? where it would not be typed into a field.
    if (latest.confirm === undefined && ((key.ctrl && input === 'g') || (input === '?' && !questionMarkTypes(field)))) {
      dispatch({ type: 'help', open: true });
      return;
    }
    if (spec.keys?.(press, context) === true) return;
    const moved = movedFocus(focus, list.length, press);
    if (moved !== undefined) {
      dispatch({ type: 'focus', index: moved });
      return;
    }
    if (key.escape) {
      if (spec.back === undefined) dispatch({ type: 'goTo', screen: walkScreens[Math.max(0, walkScreens.indexOf(latest.screen as never) - 1)] ?? 'connect' });
      else spec.back(context);
      return;
    }
    if (key.return) {
      if (field?.kind === 'action') field.activate(context);
      else spec.enter?.(context);
      return;
    }
    if (field !== undefined)
      applyFieldKey(field, press, {
        cursorFromEnd: latest.cursorFromEnd,
        dispatch,
        completion: latest.completion?.field === field.id ? latest.completion.text : undefined,
      });
  };

  useInput((input, key) => {
    for (const press of keysOf(input, key)) handleKey(press);
  });

  usePaste((text) => {
    const latest = current();
    if (latest.help) return;
    if (latest.screen === 'hashes' && looksLikeHashConfig(text)) {
      dispatch({ type: 'draft', patch: { hashConfig: '' } });
      dispatch({ type: 'hash', patch: readHashConfigPaste(text) });
      // The paste's line says what became of it, whole when focused.
      const pasteLine = screens.hashes.fields({ state: current(), dispatch }).findIndex((field) => field.id === 'paste');
      if (pasteLine >= 0) dispatch({ type: 'focus', index: pasteLine });
      return;
    }
    const field = screens[latest.screen].fields({ state: latest, dispatch })[latest.focus[latest.screen]];
    if (field !== undefined) pasteIntoField(field, text, { cursorFromEnd: latest.cursorFromEnd, dispatch });
  });

  const spec = screens[state.screen];
  const list = spec.fields({ state, dispatch });
  const focus = Math.min(state.focus[state.screen], Math.max(0, list.length - 1));
  const focused = list[focus];
  // The work the app does as the operator types, each piece started (and a stale one abandoned) when what it reads changes.
  const background = { current, dispatch, cwd };
  usePulumiStacks(dispatch, pulumiBinary);
  useExportFormat(state, background);
  useSettingFileChecks(state, background);
  useMigrationCommand(state, background);
  usePlanCount(state, background);
  useCompletion(focused, background);

  const current_ = walkScreens.indexOf(state.screen as never);
  // A question asked comes first; then what is wrong with the focused field; then the screen's own status.
  const label = focused?.label.trim() ?? '';
  const focusedProblem =
    focused?.problem === undefined
      ? undefined
      : { text: focused.problem.startsWith(label) ? `✗ ${focused.problem}` : `✗ ${label}: ${focused.problem}`, tone: 'error' as const };
  const message = state.help ? undefined : state.confirm !== undefined ? spec.message?.(state, list) : (focusedProblem ?? spec.message?.(state, list));
  const hints: readonly KeyHint[] = state.help
    ? [
        ['↑↓', 'scroll'],
        ['any other key', 'back'],
      ]
    : spec.hints(state).map((hint): KeyHint => (hint[0] === '?' && questionMarkTypes(focused) ? ['Ctrl+G', 'help'] : hint));
  return (
    <ThemeProvider colour={colour}>
      <Frame
        steps={stepTitles}
        current={current_}
        {...(current_ < 0 ? { title: spec.title } : {})}
        columns={columns}
        rows={rows}
        hints={hints}
        message={message}
      >
        {state.help ? (
          <Help spec={spec} columns={columns} rows={bodyRows(rows, columns, message)} scroll={state.helpScroll} />
        ) : (
          <spec.Body state={state} fields={list} columns={columns} rows={bodyRows(rows, columns, message)} />
        )}
      </Frame>
    </ThemeProvider>
  );
}

const globalKeys: readonly KeyHint[] = [
  ['↑↓ Tab', 'move between fields'],
  ['←→', 'move the cursor, or change a choice'],
  ['→ at the end', 'take the grey completion of a path'],
  ['Enter', "the screen's step (shown at the bottom)"],
  ['Esc', 'back one screen'],
  ['? or Ctrl+G', 'this help (? types in a field with text)'],
  ['Ctrl-C', 'quit (during a push: stop safely)'],
];

/** The help of a screen as lines of the terminal's width: what it does, then the keys. */
export function helpLines(spec: ScreenSpec, columns: number): string[] {
  return [
    `Help: ${spec.title}`,
    ...wrapText(spec.help.join(' '), columns),
    '',
    'Keys',
    ...globalKeys.flatMap(([key, action]) => wrapText(`  ${key.padEnd(14)} ${action}`, columns)),
  ];
}

function Help({ spec, columns, rows, scroll }: { spec: ScreenSpec; columns: number; rows: number; scroll: number }) {
  const lines = helpLines(spec, columns);
  const start = Math.min(scroll, Math.max(0, lines.length - rows));
  return (
    <Box flexDirection="column" width={columns}>
      {lines.slice(start, start + rows).map((line, index) => (
        <Text key={`${start + index}`} bold={start + index === 0 || line === 'Keys'}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
