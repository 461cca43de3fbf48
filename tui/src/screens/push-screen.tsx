import { Box, Text, useInput } from 'ink';
import type { PushCounts } from 'core-client/push/summary';
import { ProgressBar } from '../components/progress-bar.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { Table } from '../components/table.js';
import { Tone } from '../components/theme.js';
import { formatDuration, type PushProgressView } from '../hooks/push-progress.js';

export interface PushScreenProps {
  view: PushProgressView;
  target: string;
  failure: string | undefined;
  onPauseToggle: () => void;
  onStop: () => void;
  onQuit: () => void;
}

const countRows: { key: keyof PushCounts; label: string }[] = [
  { key: 'imported', label: 'imported' },
  { key: 'alreadyExisted', label: 'already existed (hash replaced)' },
  { key: 'thirdPartyCreated', label: 'third-party created' },
  { key: 'thirdPartyExisting', label: 'third-party existing' },
  { key: 'rejected', label: 'rejected by the plan' },
  { key: 'failed', label: 'failed at the core' },
  { key: 'skipped', label: 'skipped (journal says done)' },
];

/** Progress as the engine reports it (a few times a second); p pauses, q (or Ctrl-C) stops safely. */
export function PushScreen({ view, target, failure, onPauseToggle, onStop, onQuit }: PushScreenProps) {
  useInput((input, key) => {
    if (failure !== undefined) {
      if (input === 'q' || key.escape) onQuit();
      return;
    }
    if (input === 'p') onPauseToggle();
    // A second q abandons the requests in flight; the journal still holds every answered one.
    if (input === 'q' || (key.ctrl && input === 'c')) onStop();
  });
  const rate = `${view.ratePerSecond.toFixed(view.ratePerSecond < 10 ? 1 : 0)}/s`;
  const hints: [string, string][] =
    failure !== undefined
      ? [['q', 'quit']]
      : view.stopping
        ? [['q', 'abandon the requests in flight (the journal holds)']]
        : [
            ['p', view.paused ? 'resume' : 'pause'],
            ['q', 'stop safely (resumable)'],
          ];
  return (
    <ScreenFrame step="Push" hints={hints}>
      <Text wrap="truncate-end">{`${view.dryRun ? 'Dry run against' : 'Pushing to'} ${target}`}</Text>
      <Box marginTop={1}>
        <ProgressBar done={view.done} total={view.total} width={44} />
        <Text>{`  ${view.done.toLocaleString('en-US')}/${view.total === undefined ? '?' : view.total.toLocaleString('en-US')}`}</Text>
      </Box>
      <Text>{`rate ${rate}   ETA ${formatDuration(view.etaSeconds)}   concurrency ${view.concurrency}${view.paused ? '   PAUSED' : ''}`}</Text>
      <Box marginTop={1}>
        <Table rows={countRows.map((row) => ({ label: row.label, value: view.counts?.[row.key] ?? 0 }))} labelWidth={34} />
      </Box>
      {view.note === undefined ? null : (
        <Text wrap="wrap">
          <Tone tone={view.stopping ? 'warning' : 'muted'}>{view.note}</Tone>
        </Text>
      )}
      {failure === undefined ? null : <Tone tone="error">{`✗ ${failure}`}</Tone>}
    </ScreenFrame>
  );
}
