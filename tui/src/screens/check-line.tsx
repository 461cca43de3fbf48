import { Box, Text } from 'ink';
import { Tone } from '../components/theme.js';
import type { CheckResult, Outcome } from './walk-state.js';

/** The verdict of the known-password check, in words and a symbol. */
export function CheckLine({ check }: { check: Outcome<CheckResult> }) {
  if (check.state === 'idle') return null;
  if (check.state === 'running') return <Text>{'  checking…'}</Text>;
  if (check.state === 'failed') return <Tone tone="error">{`  ✗ ${check.message}`}</Tone>;
  return (
    <Box marginLeft={2}>
      <Text wrap="wrap">
        <Tone tone={check.value.match ? 'ok' : 'error'}>{check.value.match ? '✓ ' : '✗ '}</Tone>
        {check.value.sentence}
      </Text>
    </Box>
  );
}
