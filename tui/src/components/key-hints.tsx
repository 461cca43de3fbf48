import { Box, Text } from 'ink';
import { Tone } from './theme.js';

/** A key and what it does on the current screen, e.g. ['Esc', 'back']. */
export type KeyHint = readonly [key: string, action: string];

/** What ←/→, Home and End do in a text field (masked fields have no cursor to move). */
export const cursorKeysHint: KeyHint = ['←→ Home End', 'cursor'];

/** The line at the foot of every screen that says which keys do what. */
export function KeyHints({ hints }: { hints: readonly KeyHint[] }) {
  return (
    <Box flexWrap="wrap">
      {hints.map(([key, action], index) => (
        <Text key={key}>
          {index > 0 ? '  ' : ''}
          <Tone tone="accent" bold>
            {key}
          </Tone>{' '}
          {action}
        </Text>
      ))}
    </Box>
  );
}
