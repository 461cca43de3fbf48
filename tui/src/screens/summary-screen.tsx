import { Box, Text, useInput } from 'ink';
import type { PushSummary } from 'core-client/push/summary';
import { wrappedLineCount } from '../components/clipped.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { Table, type TableRow } from '../components/table.js';
import { Tone } from '../components/theme.js';

export interface SummaryScreenProps {
  summary: PushSummary;
  /** The command that continues this push from its journal (no secret in it: the key comes from the environment or stack). */
  resumeCommand: string;
  onQuit: () => void;
}

/** Rows besides the counts and the notes: title, gaps, verdict, sum, report, journal, the key hints. */
const fixedLines = 9;
const screenLines = 24;

export function SummaryScreen({ summary, resumeCommand, onQuit }: SummaryScreenProps) {
  useInput((input, key) => {
    if (key.return || key.escape || input === 'q') onQuit();
  });
  const rows: TableRow[] = [
    { label: 'imported', value: summary.imported },
    { label: 'already existed', value: summary.alreadyExisted, note: summary.alreadyExisted > 0 ? 'their hash was REPLACED' : '' },
    { label: 'third-party created', value: summary.thirdPartyCreated },
    { label: 'third-party existing', value: summary.thirdPartyExisting },
    { label: 'rejected by the plan', value: summary.rejected },
    { label: 'failed at the core', value: summary.failed },
    { label: 'skipped (journal)', value: summary.skipped },
    { label: 'not attempted', value: summary.notAttempted, note: summary.notAttempted > 0 ? 'a resume sends them' : '' },
  ];
  const sum = rows.reduce((total, row) => total + Number(row.value), 0);
  const adds = sum === summary.total;
  const stopped = summary.stoppedEarly;
  const credentials = summary.credentials;
  const credentialsLine =
    credentials === undefined
      ? undefined
      : `Credentials: ${credentials.checked} checked, ${credentials.matchedLocally} matched locally, ${credentials.loggedIn === null ? 'the core offers no sign-in to prove logins' : `${credentials.loggedIn} logged in at the core`}`;
  const noteLines =
    (stopped === undefined ? 0 : wrappedLineCount(stopped.message, 80)) +
    (credentialsLine === undefined ? 0 : wrappedLineCount(credentialsLine, 80)) +
    wrappedLineCount(resumeCommand, 71);
  // A long resume command must show whole (it is copied): past 24 lines the counts that are zero give it their rows.
  const zeroRows = rows.filter((row) => row.value === 0);
  const foldZeros = fixedLines + rows.length + noteLines > screenLines && zeroRows.length > 1;
  return (
    <ScreenFrame step="Summary" hints={[['Enter/q', 'quit']]}>
      <Text bold>{summary.dryRun ? 'Dry run finished: nothing was written.' : stopped === undefined ? 'Push finished.' : 'Push stopped early.'}</Text>
      {stopped === undefined ? null : <Tone tone="warning">{stopped.message}</Tone>}
      <Table rows={foldZeros ? rows.filter((row) => row.value !== 0) : rows} labelWidth={24} />
      {foldZeros ? <Text wrap="truncate-end">{`  0 each: ${zeroRows.map((row) => row.label).join(', ')}`}</Text> : null}
      <Text>
        {adds ? <Tone tone="ok">✓ </Tone> : <Tone tone="error">✗ </Tone>}
        {`these add up to ${sum.toLocaleString('en-US')} of ${summary.total.toLocaleString('en-US')} planned operations`}
      </Text>
      {credentialsLine === undefined ? null : <Text wrap="wrap">{credentialsLine}</Text>}
      <Box flexDirection="column" marginTop={1}>
        <Text wrap="truncate-end">{`report   ${summary.reportPath ?? '(none)'}`}</Text>
        <Text wrap="truncate-end">{`journal  ${summary.journalPath ?? '(none)'}`}</Text>
        <Box>
          <Box width={9} flexShrink={0}>
            <Text>resume</Text>
          </Box>
          <Text wrap="wrap">{resumeCommand}</Text>
        </Box>
      </Box>
    </ScreenFrame>
  );
}
