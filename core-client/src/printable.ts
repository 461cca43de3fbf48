/**
 * Control and format characters (C0, DEL, C1, the bidirectional overrides such as U+202E, zero-width and other
 * invisible format characters, line and paragraph separators) let a value from an export move the cursor, recolour
 * or clear the operator's terminal, or show an email other than the one that is there.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const UNPRINTABLE_EXCEPT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}\u2028\u2029]/gu;

function escape(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

export function hasUnprintable(text: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text);
}

/** One value (an email, a location, a reason) made safe to print: every control character shown escaped. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/**
 * Text for the terminal, line by line: what every printer of the command line passes its output through, so no
 * value from an export reaches the terminal raw. Newlines stay; the caller adds its own cursor controls after.
 */
export function printableLines(text: string): string {
  return text.replace(UNPRINTABLE_EXCEPT_NEWLINE, escape);
}

/** JSON for the terminal: still valid JSON, with every character `printable` escapes written as `\uXXXX`. */
export function printableJson(value: unknown): string {
  return JSON.stringify(value).replace(UNPRINTABLE, (character) =>
    Array.from({ length: character.length }, (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join(''),
  );
}
