import { Text } from 'ink';
import { Tone } from './theme.js';

/** A key and what it does on the current screen, e.g. ['Esc', 'back']. */
export type KeyHint = readonly [key: string, action: string];

/** The hints that fit on one line of `columns`, most important first (the screen lists them in that order). */
export function fittingHints(hints: readonly KeyHint[], columns: number): KeyHint[] {
  const shown: KeyHint[] = [];
  let used = 0;
  for (const hint of hints) {
    const width = hint[0].length + 1 + hint[1].length + (shown.length > 0 ? 2 : 0);
    if (used + width > columns) break;
    shown.push(hint);
    used += width;
  }
  return shown;
}

/** The line at the foot of every screen that says which keys do what. */
export function KeyHints({ hints, columns = 80 }: { hints: readonly KeyHint[]; columns?: number }) {
  return (
    <Text wrap="truncate-end">
      {fittingHints(hints, columns).map(([key, action], index) => (
        <Text key={key}>
          {index > 0 ? '  ' : ''}
          <Tone tone="accent" bold>
            {key}
          </Tone>{' '}
          {action}
        </Text>
      ))}
    </Text>
  );
}
