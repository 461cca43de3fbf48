import type { Key } from 'ink';

/**
 * What a key does to a one-line field's text: printable input (or a paste) is appended, Backspace removes the
 * last character, Ctrl+U clears. `undefined` when the key is not an edit (navigation, Enter, Esc): the screen
 * decides what those do.
 */
export function applyTextKey(value: string, input: string, key: Key, multiline = false): string | undefined {
  if (key.ctrl && input === 'u') return '';
  if (key.backspace || key.delete) return value.slice(0, -1);
  if (key.tab || key.return || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return undefined;
  if (key.ctrl || key.meta || input.length === 0) return undefined;
  // A paste may carry the terminal's line endings; a one-line field keeps the text only.
  const text = multiline ? input.replace(/\r\n?/g, '\n') : input.replace(/[\r\n]+/g, ' ').trimEnd();
  return text.length === 0 ? undefined : value + text;
}
