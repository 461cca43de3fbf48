import type { Key } from 'ink';

/**
 * A one-line field's text and its cursor, counted in characters from the END (0: after the last character).
 * Counted from the end, a freshly focused field, a completed path and fields filled from a paste all have the
 * cursor where typing usually goes, and typing or deleting before the cursor leaves it where it is.
 */
export interface TextEdit {
  value: string;
  cursorFromEnd: number;
}

export interface TextKeyOptions {
  /** A paste keeps its line breaks (the hash_config block). */
  multiline?: boolean;
  /** A secret is only appended to and deleted from at its end: a cursor moving over `***` would hint at its length. */
  masked?: boolean;
}

/** Where the cursor is as an index into the field's characters (code points, so an emoji is one step). */
export function cursorIndex(characters: readonly string[], cursorFromEnd: number): number {
  return characters.length - Math.min(Math.max(cursorFromEnd, 0), characters.length);
}

/**
 * What a key does to a one-line field: typed or pasted text goes in at the cursor, ←/→ move it, Home/End (and
 * Ctrl+A/Ctrl+E) jump, Backspace deletes before it and Delete after it, Ctrl+U clears. `undefined` when the key
 * changes nothing here (Tab, Enter, Esc, ↑/↓, ← at the start…): the screen decides what those do. Backspace and
 * Delete are meant as on the keyboard; Ink names them so.
 */
export function applyTextKey(field: TextEdit, input: string, key: Key, options: TextKeyOptions = {}): TextEdit | undefined {
  const characters = Array.from(field.value);
  const at = options.masked === true ? characters.length : cursorIndex(characters, field.cursorFromEnd);
  const result = (next: string[], cursor: number): TextEdit | undefined => {
    const edited = { value: next.join(''), cursorFromEnd: next.length - cursor };
    return edited.value === field.value && edited.cursorFromEnd === field.cursorFromEnd ? undefined : edited;
  };
  if (key.ctrl && input === 'u') return result([], 0);
  if (key.tab || key.return || key.escape || key.upArrow || key.downArrow) return undefined;
  if (key.backspace) return at === 0 ? undefined : result([...characters.slice(0, at - 1), ...characters.slice(at)], at - 1);
  if (options.masked === true && (key.delete || key.leftArrow || key.rightArrow || key.home || key.end)) return undefined;
  if (key.delete) return result([...characters.slice(0, at), ...characters.slice(at + 1)], at);
  if (key.leftArrow) return result(characters, Math.max(at - 1, 0));
  if (key.rightArrow) return result(characters, Math.min(at + 1, characters.length));
  if (key.home || (key.ctrl && input === 'a')) return options.masked === true ? undefined : result(characters, 0);
  if (key.end || (key.ctrl && input === 'e')) return options.masked === true ? undefined : result(characters, characters.length);
  if (key.ctrl || key.meta || input.length === 0) return undefined;
  // A paste may carry the terminal's line endings; a one-line field keeps the text only. A space typed is text: a
  // password may hold one.
  const text = options.multiline === true ? input.replace(/\r\n?/g, '\n') : input.replace(/[\r\n]+$/, '').replace(/[\r\n]+/g, ' ');
  if (text.length === 0) return undefined;
  const inserted = Array.from(text);
  return result([...characters.slice(0, at), ...inserted, ...characters.slice(at)], at + inserted.length);
}
