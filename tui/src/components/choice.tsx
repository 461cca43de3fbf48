import { Text } from 'ink';
import { FieldRow } from './field.js';

/** A value picked with ←/→ from a short list; shown as ‹ value › when focused. */
export function ChoiceField({ label, value, focus, width }: { label: string; value: string; focus: boolean; width?: number }) {
  return (
    <FieldRow label={label} focus={focus} {...(width === undefined ? {} : { width })}>
      <Text>{focus ? `‹ ${value} ›` : value}</Text>
    </FieldRow>
  );
}

export function cycle<T>(options: readonly T[], current: T, step: 1 | -1): T {
  const index = options.indexOf(current);
  const next = (index + step + options.length) % options.length;
  return options[next] ?? current;
}
