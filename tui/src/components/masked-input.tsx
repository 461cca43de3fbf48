import { Text, useInput } from 'ink';
import { Secret } from 'core-client';
import { Tone } from './theme.js';

export interface MaskedInputProps {
  value: Secret;
  onChange: (value: Secret) => void;
  focus: boolean;
  placeholder?: string;
}

/**
 * A field for a secret. It always shows the same `***` once anything is typed, so neither the value nor its
 * length reaches the screen; Backspace removes the last character, Ctrl+U clears the field.
 */
export function MaskedInput({ value, onChange, focus, placeholder = '(empty)' }: MaskedInputProps) {
  useInput(
    (input, key) => {
      if (key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.return || key.escape) return;
      if (key.ctrl && input === 'u') {
        onChange(new Secret(''));
        return;
      }
      if (key.backspace || key.delete) {
        onChange(new Secret(value.reveal().slice(0, -1)));
        return;
      }
      if (key.ctrl || key.meta || input.length === 0) return;
      // A paste arrives as one chunk, possibly with the terminal's line ending: keep only the secret itself.
      onChange(new Secret(value.reveal() + input.replace(/[\r\n]+/g, '')));
    },
    { isActive: focus },
  );
  if (value.isEmpty) return <Tone tone="muted">{placeholder}</Tone>;
  return <Text>{'***'}</Text>;
}
