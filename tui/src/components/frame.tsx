import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { KeyHints, type KeyHint } from './key-hints.js';
import { Tone, type ToneName } from './theme.js';
import { wrapText } from './wrap.js';

/** The lines a frame uses besides its body: the steps, a gap, one message line, the key hints. */
export const FRAME_LINES = 4;
/** A long message (an error that names its fix, the rollback's question at 60 columns) takes up to this many lines from the body. */
const MAX_MESSAGE_LINES = 4;

/** The lines the message takes: one, or as many as it wraps to (up to a few). */
export function messageLines(message: { text: string } | undefined, columns: number): number {
  return message === undefined ? 1 : Math.min(MAX_MESSAGE_LINES, wrapText(message.text, columns).length);
}

/** The rows the body has in a frame of `rows` with this message. */
export function bodyRows(rows: number, columns: number, message: { text: string } | undefined): number {
  return Math.max(1, rows - FRAME_LINES - messageLines(message, columns) + 1);
}

export interface FrameProps {
  steps: readonly string[];
  /** The step shown as current (-1 for none, e.g. the report view). */
  current: number;
  /** Shown instead of the steps' names when the screen is not one of them. */
  title?: string;
  columns: number;
  rows: number;
  hints: readonly KeyHint[];
  /** One line above the hints: what is wrong with the focused field, a question, the screen's status. */
  message?: { text: string; tone: ToneName } | undefined;
  children: ReactNode;
}

/** The step names as they fit: all of them when there is room, else the current one and its number. */
export function stepLine(steps: readonly string[], current: number, title: string | undefined, columns: number): string {
  if (title === undefined) {
    const numbered = steps.map((name, index) => (index === current ? `[${index + 1} ${name}]` : `${index + 1} ${name}`)).join(' › ');
    if (`core-migrate ${numbered}`.length <= columns) return numbered;
    const named = steps.map((name, index) => (index === current ? `[${name}]` : name)).join(' › ');
    if (`core-migrate ${named}`.length <= columns) return named;
  }
  const name = title ?? steps[current] ?? '';
  return current >= 0 ? `step ${current + 1} of ${steps.length}: ${name}` : name;
}

/**
 * Every screen: where the walk is on top, the body in exactly the rows left, one message line, the keys. Its size is
 * the terminal's (Ink's window size), so a resize redraws it whole.
 */
export function Frame({ steps, current, title, columns, rows, hints, message, children }: FrameProps) {
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Box height={1}>
        <Text wrap="truncate-end">
          <Text bold>core-migrate </Text>
          <Tone tone="accent" bold>
            {stepLine(steps, current, title, columns)}
          </Tone>
        </Text>
      </Box>
      <Box flexDirection="column" marginTop={1} height={bodyRows(rows, columns, message)} overflowY="hidden">
        {children}
      </Box>
      <Box height={messageLines(message, columns)} overflowY="hidden">
        <Text wrap="wrap">{message === undefined ? '' : <Tone tone={message.tone}>{message.text}</Tone>}</Text>
      </Box>
      <Box height={1}>
        <KeyHints hints={hints} columns={columns} />
      </Box>
    </Box>
  );
}
