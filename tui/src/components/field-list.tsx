import { Box, Text } from 'ink';
import type { Secret } from 'core-client';
import { printable } from 'core-client/printable';
import { Cursor, visiblePart } from './cursor.js';
import { cursorIndex } from './text-edit.js';
import { Tone } from './theme.js';

interface ShownFieldBase {
  id: string;
  label: string;
  problem?: string | undefined;
  note?: string | undefined;
}

/**
 * What the list draws of a field, and no more: the app's fields (FieldSpec, app/screen.ts) fit it as they are, so
 * this component needs nothing from the app above it.
 */
export type ShownField = ShownFieldBase &
  (
    | { kind: 'text' | 'path'; value: string; placeholder?: string }
    | { kind: 'masked'; value: Secret; placeholder?: string }
    | { kind: 'choice'; value: string; describe?: (choice: string) => string }
    | { kind: 'action'; value: string }
  );

export interface FieldListProps {
  fields: readonly ShownField[];
  focus: number;
  /** False while a question is asked: no field shows as focused. */
  editing: boolean;
  cursorFromEnd: number;
  /** A completion shown after the cursor of the focused path field. */
  completion?: string | undefined;
  columns: number;
  /** Lines the list may take: past them it scrolls with the focus. */
  maxRows: number;
}

/** The label column: as wide as the longest label, but never more than a third of the screen. */
export function labelWidth(fields: readonly ShownField[], columns: number): number {
  const longest = Math.max(8, ...fields.map((field) => Array.from(field.label).length));
  return Math.min(longest + 2, Math.max(10, Math.floor(columns / 3)));
}

/** The fields' window that holds the focused one, when they do not all fit. */
export function visibleWindow(count: number, focus: number, maxRows: number): { start: number; end: number } {
  if (count <= maxRows) return { start: 0, end: count };
  const rows = Math.max(1, maxRows);
  const start = Math.min(Math.max(0, focus - Math.floor(rows / 2)), count - rows);
  return { start, end: start + rows };
}

/** Dots shown at most for a masked value: enough to see typing and deleting, without a screen-wide bar. */
const MASK_LIMIT = 24;

/** A masked value: one dot a character, so typing and deleting show; never the characters themselves. */
export function maskOf(length: number, room: number): string {
  const limit = Math.min(room, MASK_LIMIT);
  return length <= limit ? '•'.repeat(length) : `${'•'.repeat(Math.max(limit - 1, 1))}…`;
}

function FieldValue({
  field,
  focused,
  cursorFromEnd,
  completion,
  room,
}: {
  field: ShownField;
  focused: boolean;
  cursorFromEnd: number;
  completion?: string | undefined;
  room: number;
}) {
  switch (field.kind) {
    case 'text':
    case 'path': {
      // A pasted value may hold control characters: they are shown escaped (the value itself is kept as it is).
      const characters = Array.from(field.value).map((character) => printable(character));
      const at = focused ? cursorIndex(characters, cursorFromEnd) : characters.length;
      const shown = visiblePart(characters, at, room);
      const ghost =
        focused && completion !== undefined && completion.startsWith(field.value) && at === characters.length ? completion.slice(field.value.length) : '';
      return (
        <Text wrap="truncate-end">
          {shown.before}
          {focused ? <Cursor under={shown.under} /> : (shown.under ?? '')}
          {shown.after}
          {ghost === '' ? null : <Tone tone="muted">{ghost}</Tone>}
          {field.value === '' && field.placeholder !== undefined ? <Tone tone="muted">{field.placeholder}</Tone> : null}
        </Text>
      );
    }
    case 'masked': {
      const length = Array.from(field.value.reveal()).length;
      return (
        <Text wrap="truncate-end">
          {maskOf(length, room - 1)}
          {focused ? <Cursor under={undefined} /> : null}
          {length === 0 && field.placeholder !== undefined ? <Tone tone="muted">{field.placeholder}</Tone> : null}
        </Text>
      );
    }
    case 'choice': {
      const text = printable(field.describe === undefined ? field.value : field.describe(field.value));
      return <Text wrap="truncate-end">{focused ? `‹ ${text} ›` : text}</Text>;
    }
    case 'action':
      return (
        <Text wrap="truncate-end">
          <Tone tone={focused ? 'accent' : 'plain'}>{printable(field.value)}</Tone>
        </Text>
      );
  }
}

/** The screen's fields, one a line: ▸ marks the focused one, ✗ one with a problem (told in full on the message line). */
export function FieldList({ fields, focus, editing, cursorFromEnd, completion, columns, maxRows }: FieldListProps) {
  const width = labelWidth(fields, columns);
  const { start, end } = visibleWindow(fields.length, focus, maxRows);
  return (
    <Box flexDirection="column">
      {fields.slice(start, end).map((field, offset) => {
        const index = start + offset;
        const focused = editing && index === focus;
        const trailer = field.problem !== undefined ? ` ✗ ${field.problem}` : field.note !== undefined && field.note !== '' ? `  ${field.note}` : '';
        const room = Math.max(8, columns - width - 2 - Math.min(Array.from(trailer).length, Math.floor(columns / 3)));
        return (
          <Box key={field.id} height={1}>
            <Box width={2} flexShrink={0}>
              <Text>{focused ? '▸' : ' '}</Text>
            </Box>
            <Box width={width} flexShrink={0}>
              <Text wrap="truncate-end">
                <Tone tone={focused ? 'accent' : 'plain'} bold={focused}>
                  {field.label}
                </Tone>
              </Text>
            </Box>
            <Box flexShrink={1} flexGrow={0}>
              <FieldValue field={field} focused={focused} cursorFromEnd={cursorFromEnd} completion={completion} room={room} />
            </Box>
            {trailer === '' ? null : (
              <Box flexShrink={1} flexGrow={1}>
                <Text wrap="truncate-end">
                  <Tone tone={field.problem !== undefined ? 'error' : 'muted'}>{trailer}</Tone>
                </Text>
              </Box>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
