import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { KeyHints, type KeyHint } from './key-hints.js';
import { Tone } from './theme.js';

export const walkSteps = ['Connect', 'Source', 'Hashes', 'Review', 'Push', 'Summary'] as const;
export type WalkStepTitle = (typeof walkSteps)[number];

/** Every screen: where you are in the walk on top, the screen's body, then its keys; sized for 80x24. */
export function ScreenFrame({ step, hints, children }: { step: WalkStepTitle; hints: readonly KeyHint[]; children: ReactNode }) {
  const position = walkSteps.indexOf(step);
  return (
    <Box flexDirection="column" width={80}>
      <Box>
        <Text bold>core-migrate </Text>
        {walkSteps.map((name, index) => (
          <Text key={name}>
            {index > 0 ? ' › ' : ''}
            {index === position ? (
              <Tone tone="accent" bold>
                {`[${index + 1} ${name}]`}
              </Tone>
            ) : (
              <Tone tone="muted">{`${index + 1} ${name}`}</Tone>
            )}
          </Text>
        ))}
      </Box>
      <Box flexDirection="column" marginTop={1} marginBottom={1}>
        {children}
      </Box>
      <KeyHints hints={hints} />
    </Box>
  );
}
