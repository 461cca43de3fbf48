import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { Cursor, visiblePart } from './cursor.js';
import { cursorIndex } from './text-edit.js';
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

export interface TextFieldProps {
  label: string;
  value: string;
  focus: boolean;
  /** Where the cursor is, counted from the end of the value (see `TextEdit`); shown only when focused. */
  cursorFromEnd?: number;
  placeholder?: string;
  width?: number;
  /** A short word after the value, e.g. why it was refused. */
  note?: string;
}

/** A one-line text field as shown; the screen's key handler edits it with `applyTextKey`. */
export function TextField({ label, value, focus, cursorFromEnd = 0, placeholder, width = 16, note }: TextFieldProps) {
  const characters = Array.from(value);
  const at = focus ? cursorIndex(characters, cursorFromEnd) : characters.length;
  const shown = visiblePart(characters, at, 78 - width - 3);
  return (
    <FieldRow label={label} focus={focus} width={width}>
      <Text wrap="truncate-end">
        {shown.before}
        {focus ? <Cursor under={shown.under} /> : (shown.under ?? '')}
        {shown.after}
        {value === '' && placeholder !== undefined ? <Tone tone="muted">{placeholder}</Tone> : null}
        {note === undefined || note === '' || value === '' ? null : <Tone tone="muted">{`  ${note}`}</Tone>}
      </Text>
    </FieldRow>
  );
}
