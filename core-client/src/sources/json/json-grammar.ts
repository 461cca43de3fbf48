// The pieces of JSON's grammar (RFC 8259) the scanner checks character by character, as UTF-16 code units.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON_CHAR = 0x3a;
export const MINUS = 0x2d;
export const ZERO = 0x30;
const PLUS = 0x2b;
const DOT = 0x2e;
const NINE = 0x39;

export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

export function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

export function isEscapable(code: number): boolean {
  // " \ / b f n r t
  return code === QUOTE || code === BACKSLASH || code === 0x2f || code === 0x62 || code === 0x66 || code === 0x6e || code === 0x72 || code === 0x74;
}

/** A found character for a message: printable ASCII as itself, anything else by its code point (never raw). */
export function shown(code: number): string {
  return code > 0x20 && code < 0x7f ? `"${String.fromCharCode(code)}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a value starting with `code` is, for a message. */
export function kindOf(code: number): string {
  if (code === OPEN_BRACE) return 'an object';
  if (code === QUOTE) return 'a string';
  if (code === MINUS || isDigit(code)) return 'a number';
  if (code === 0x74 || code === 0x66) return 'true or false';
  if (code === 0x6e) return 'null';
  return shown(code);
}

// Where a number is: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
export const AFTER_MINUS = 0;
export const AFTER_ZERO = 1;
export const INTEGER = 2;
const AFTER_DOT = 3;
const FRACTION = 4;
const AFTER_E = 5;
const AFTER_EXPONENT_SIGN = 6;
const EXPONENT = 7;
/** `code` is not part of the number, which is complete before it. */
export const NUMBER_ENDED = -1;
/** `code` cannot come here: the number is broken. */
export const NUMBER_BROKEN = -2;

/** The number's state after `code`. */
export function numberStep(state: number, code: number): number {
  const digit = isDigit(code);
  switch (state) {
    case AFTER_MINUS:
      return digit ? (code === ZERO ? AFTER_ZERO : INTEGER) : NUMBER_BROKEN;
    case AFTER_ZERO:
    case INTEGER:
      if (digit) return state === INTEGER ? INTEGER : NUMBER_BROKEN;
      if (code === DOT) return AFTER_DOT;
      return code === 0x65 || code === 0x45 ? AFTER_E : NUMBER_ENDED;
    case AFTER_DOT:
      return digit ? FRACTION : NUMBER_BROKEN;
    case FRACTION:
      if (digit) return FRACTION;
      return code === 0x65 || code === 0x45 ? AFTER_E : NUMBER_ENDED;
    case AFTER_E:
      if (code === PLUS || code === MINUS) return AFTER_EXPONENT_SIGN;
      return digit ? EXPONENT : NUMBER_BROKEN;
    case AFTER_EXPONENT_SIGN:
      return digit ? EXPONENT : NUMBER_BROKEN;
    default:
      return digit ? EXPONENT : NUMBER_ENDED;
  }
}

/** Why `code` breaks a number in `state`. */
export function numberProblem(state: number, code: number): string {
  if (state === AFTER_ZERO) return 'a number must not start with 0 followed by digits';
  if (state === AFTER_MINUS) return `${shown(code)} after "-", expected a digit`;
  if (state === AFTER_DOT) return `${shown(code)} after a decimal point, expected a digit`;
  return `${shown(code)} in an exponent, expected a digit`;
}
