import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { Tone } from './theme.js';

/** A labelled row; the focused one is marked with ▸ so the marker, not colour, shows where typing goes. */
export function FieldRow({ label, focus, children, width = 16 }: { label: string; focus: boolean; children: ReactNode; width?: number }) {
  return (
    <Box>
      <Text>{focus ? '▸ ' : '  '}</Text>
      <Box width={width} flexShrink={0}>
        <Tone tone={focus ? 'accent' : 'plain'} bold={focus}>
          {label}
        </Tone>
      </Box>
      <Box flexGrow={1}>{children}</Box>
    </Box>
  );
}

/** Long values (paths) show their end, where the typing happens. */
export function visibleTail(value: string, room: number): string {
  return value.length <= room ? value : `…${value.slice(value.length - room + 1)}`;
}

export interface TextFieldProps {
  label: string;
  value: string;
  focus: boolean;
  placeholder?: string;
  width?: number;
  /** A short word after the value, e.g. why it was refused. */
  note?: string;
}

/** A one-line text field as shown; the screen's key handler edits it with `applyTextKey`. */
export function TextField({ label, value, focus, placeholder, width = 16, note }: TextFieldProps) {
  return (
    <FieldRow label={label} focus={focus} width={width}>
      <Text wrap="truncate-end">
        {visibleTail(value, 78 - width - 4)}
        {focus ? <Text inverse> </Text> : null}
        {value === '' && placeholder !== undefined ? <Tone tone="muted">{placeholder}</Tone> : null}
        {note === undefined || note === '' || value === '' ? null : <Tone tone="muted">{`  ${note}`}</Tone>}
      </Text>
    </FieldRow>
  );
}
