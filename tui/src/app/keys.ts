import type { Key } from 'ink';

/** One key press as the screens handle it. */
export interface KeyPress {
  input: string;
  key: Key;
}

/** A key press with no special key: plain text. */
export const noKeyFlags: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** A key press of one character, named as Ink names it when it comes alone. */
function keyOfCharacter(character: string): KeyPress {
  switch (character) {
    case '\r':
    case '\n':
      return { input: '', key: { ...noKeyFlags, return: true } };
    case '\t':
      return { input: '', key: { ...noKeyFlags, tab: true } };
    case '\u007f':
    case '\b':
      return { input: '', key: { ...noKeyFlags, backspace: true } };
    case '\u001b':
      return { input: '', key: { ...noKeyFlags, escape: true } };
    default: {
      const code = character.codePointAt(0) ?? 0;
      if (code > 0 && code < 27) return { input: String.fromCharCode(code + 96), key: { ...noKeyFlags, ctrl: true } };
      return { input: character, key: { ...noKeyFlags, shift: /^[A-Z]$/.test(character) } };
    }
  }
}

/**
 * The key presses in one read. Ink hands over escape sequences and Backspaces one by one, but text that came in one
 * read (fast typing, a script, two Enters) arrives as one string, where an Enter or a Tab would be lost: split into
 * characters, it behaves as the same keys typed one by one. Pastes come separately (Ink's `usePaste`).
 */
export function keysOf(input: string, key: Key): KeyPress[] {
  const characters = Array.from(input);
  const plain = !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab;
  if (characters.length <= 1 || !plain) return [{ input, key }];
  return characters.map(keyOfCharacter);
}
