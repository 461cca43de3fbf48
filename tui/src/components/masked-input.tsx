import { Text } from 'ink';
import type { Secret } from 'core-client/secret';
import { Cursor } from './cursor.js';
import { Tone } from './theme.js';

/**
 * How a secret field looks: the same `***` once anything is typed, with the cursor after it, so neither the value
 * nor its length reaches the screen. The screen's key handler edits it with `applyTextKey(…, { masked: true })`,
 * which only appends and deletes at the end: a cursor moving over `***` would tell the length.
 */
export function MaskedInput({ value, focus, placeholder = '(empty)' }: { value: Secret; focus: boolean; placeholder?: string }) {
  return (
    <Text wrap="truncate-end">
      {value.isEmpty ? '' : '***'}
      {focus ? <Cursor under={undefined} /> : null}
      {value.isEmpty ? <Tone tone="muted">{placeholder}</Tone> : null}
    </Text>
  );
}
