import { Box, Text } from 'ink';
import { outcomeLabels, pushOutcomes } from 'core-client';
import { printable } from 'core-client/printable';
import { formatCount, formatMaybeCount } from '../components/numbers.js';
import { ProgressBar } from '../components/progress-bar.js';
import { Table } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { wrapText } from '../components/wrap.js';
import { formatDuration } from '../app/push-progress.js';
import type { BodyProps, ScreenSpec } from '../app/screen.js';
import type { AppState } from '../app/state.js';

function target(state: AppState): string {
  return state.preflight.state === 'done' ? state.preflight.value.target : 'the core';
}

function Body({ state, columns, rows }: BodyProps) {
  const { run } = state;
  if (run.state === 'failed') {
    return (
      <Box flexDirection="column">
        <Text bold>Nothing was sent.</Text>
        <Text wrap="wrap">
          <Tone tone="error">{`✗ ${run.problem.message}`}</Tone>
        </Text>
      </Box>
    );
  }
  if (run.state !== 'running') {
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">{`${state.draft.dryRun ? 'Dry run against' : 'Pushing to'} ${target(state)}`}</Text>
        <Text wrap="wrap">{printable(run.state === 'preparing' ? run.note : 'starting…')}</Text>
      </Box>
    );
  }
  const view = run.progress;
  const rate = `${view.ratePerSecond.toFixed(view.ratePerSecond < 10 ? 1 : 0)}/s`;
  const barWidth = Math.max(10, Math.min(60, columns - 30));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{printable(`${view.dryRun ? 'Dry run against' : 'Pushing to'} ${target(state)}`)}</Text>
      <Box marginTop={1}>
        <ProgressBar done={view.done} total={view.total} width={barWidth} />
        <Text>{`  ${formatCount(view.done)}/${formatMaybeCount(view.total)}`}</Text>
      </Box>
      <Text wrap="truncate-end">{`rate ${rate}   ETA ${formatDuration(view.etaSeconds)}   concurrency ${view.concurrency}${view.paused ? '   PAUSED' : ''}`}</Text>
      <Box marginTop={1}>
        <Table
          rows={pushOutcomes
            .filter((outcome) => outcome !== 'notAttempted')
            .map((outcome) => ({ label: outcomeLabels[outcome], value: view.counts?.[outcome] ?? 0 }))}
          columns={columns}
          maxRows={Math.max(3, rows - 8)}
        />
      </Box>
      {view.note === undefined
        ? null
        : wrapText(printable(view.note), columns)
            .slice(0, 3)
            .map((line) => (
              <Tone key={line} tone={view.stopping ? 'warning' : 'muted'}>
                {line}
              </Tone>
            ))}
    </Box>
  );
}

export const pushScreen: ScreenSpec = {
  id: 'push',
  title: 'Push',
  fields: () => [],
  keys: (press, { state, commands }) => {
    const { run } = state;
    if (run.state === 'failed') {
      if (press.key.return) commands.fix(run.problem.setting);
      else if (press.input === 'q') commands.quit();
      else return false;
      return true;
    }
    if (run.state !== 'running' && run.state !== 'preparing') return false;
    if (press.input === 'p' && run.state === 'running') commands.togglePause();
    else if (press.input === 'q' || (press.key.ctrl && press.input === 'c')) commands.stopPush();
    else return false;
    return true;
  },
  enter: () => undefined,
  back: ({ state, commands }) => {
    if (state.run.state === 'failed') commands.fix(state.run.problem.setting);
  },
  message: (state) => {
    if (state.run.state === 'failed') return { tone: 'error', text: 'Enter goes to the setting that fixes it; q quits.' };
    if (state.run.state === 'running' && state.run.progress.stopping)
      return { tone: 'warning', text: 'Stopping safely: operations in flight finish and are journalled.' };
    return undefined;
  },
  hints: (state) => {
    if (state.run.state === 'failed') {
      return [
        ['Enter', 'fix it'],
        ['q', 'quit'],
      ];
    }
    if (state.run.state === 'running' && state.run.progress.stopping) return [['q', 'abandon the requests in flight (the journal holds)']];
    return [
      ['p', state.run.state === 'running' && state.run.progress.paused ? 'resume' : 'pause'],
      ['q', 'stop safely (resumable)'],
      ['?', 'help'],
    ];
  },
  help: [
    'The push as the engine reports it: progress, rate, time left, requests in flight, and every outcome so far.',
    'p pauses and resumes. q stops safely: no new operation starts, those in flight finish and are journalled, and',
    'the summary offers to resume; a second q abandons the requests still in flight (the journal holds either way).',
    'If the run cannot start, the reason is shown here and Enter leads to the setting that fixes it.',
  ],
  Body,
};
