import { Text } from 'ink';
import type { Secret } from 'core-client';
import { Tone } from './theme.js';

/**
 * How a secret field looks: the same `***` once anything is typed, so neither the value nor its length
 * reaches the screen. Editing goes through the screen's key handler (`applyTextKey` on the revealed value).
 */
export function MaskedInput({ value, focus, placeholder = '(empty)' }: { value: Secret; focus: boolean; placeholder?: string }) {
  if (value.isEmpty) {
    return (
      <Text>
        {focus ? <Text inverse> </Text> : null}
        <Tone tone="muted">{placeholder}</Tone>
      </Text>
    );
  }
  return (
    <Text>
      ***
      {focus ? <Text inverse> </Text> : null}
    </Text>
  );
}
