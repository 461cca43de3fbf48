import { DEFAULT_MAX_LINE_BYTES } from '../text/lines.js';
import { BitStack } from './bit-stack.js';
import { MAX_RECORD_DEPTH } from './json-depth.js';

/** One record's text is bounded like a line of the line-based formats, for the same reasons (lines.ts). */
export const DEFAULT_MAX_ELEMENT_BYTES = DEFAULT_MAX_LINE_BYTES;

/** Nesting beside the users is only checked, one bit a level; past this the file is damaged (2 MiB of bits). */
export const MAX_DOCUMENT_DEPTH = 1 << 24;

/** Keys of the top-level object longer than this cannot be the array's key, so they are not kept. */
const MAX_KEY_CHARS = 256;

export interface TextPosition {
  readonly line: number;
  readonly byteOffset: number;
}

/** An element of the array as text for JSON.parse, or a record too deep to hand on. */
export type ScannedElement = { readonly index: number; readonly text: string } | { readonly index: number; readonly tooDeep: true };

export type JsonScanErrorKind = 'not-json' | 'truncated' | 'wrong-format' | 'record-too-long' | 'too-deep';

export class JsonScanError extends Error {
  override readonly name = 'JsonScanError';
  constructor(
    readonly kind: JsonScanErrorKind,
    /** Where the problem is; absent when it is about the file as a whole (no array key at all). */
    readonly position: TextPosition | undefined,
    readonly detail: string,
    /** The element it concerns, when it concerns one. */
    readonly index?: number,
  ) {
    super(detail);
  }
}

export interface JsonArrayScannerOptions {
  /** Top-level key holding the array (`users` for Firebase); absent when the file itself is the array. */
  readonly arrayKey?: string;
  readonly maxElementBytes?: number;
}

// Where the scanner is in the grammar. Numbers and literals have their own small states below.
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const KEY = 2;
const KEY_OR_CLOSE = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const STRING = 6;
const ESCAPE = 7;
const UNICODE = 8;
const NUMBER = 9;
const LITERAL = 10;
const END = 11;

const AFTER_MINUS = 0;
const AFTER_ZERO = 1;
const INTEGER = 2;
const AFTER_DOT = 3;
const FRACTION = 4;
const AFTER_E = 5;
const AFTER_EXPONENT_SIGN = 6;
const EXPONENT = 7;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON_CHAR = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const NEWLINE = 0x0a;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === NEWLINE || code === 0x0d || code === 0x09;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function isEscapable(code: number): boolean {
  // " \ / b f n r t
  return code === QUOTE || code === BACKSLASH || code === 0x2f || code === 0x62 || code === 0x66 || code === 0x6e || code === 0x72 || code === 0x74;
}

/** A found character for a message: printable ASCII as itself, anything else by its code point (never raw). */
function shown(code: number): string {
  return code > 0x20 && code < 0x7f ? `"${String.fromCharCode(code)}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * Finds the elements of one JSON array in streamed text (the whole file, or the array under one top-level key) in
 * one linear pass, validating all of the JSON as strictly as JSON.parse does, and hands on each element's text: the
 * caller parses it natively, far faster than a parser in JavaScript builds values. Nesting is kept as one bit a
 * level, so deep nesting anywhere costs linear time (the stream-json reader before this took 107 s for 100,000
 * levels beside the users). Text is kept only for the element in progress, up to `maxElementBytes`. Errors carry
 * the exact line and byte.
 */
export class JsonArrayScanner {
  readonly #arrayKey: string | undefined;
  readonly #maxElementBytes: number;
  // One bit per open container: true for an object, false for an array.
  readonly #containers = new BitStack();
  #state = VALUE;
  #numberState = AFTER_MINUS;
  #literal = '';
  #literalAt = 0;
  #hexLeft = 0;
  #stringIsKey = false;

  // The array's place: its elements are the values whose container is at `#arrayDepth`.
  #inArray = false;
  #arrayDepth = 0;
  #sawArray = false;
  #arrayValueNext = false;

  // The element in progress (`#elementStart` is -1 outside one).
  #elementStart = -1;
  #elementIndex = -1;
  #elementPieces: string[] = [];
  #elementPieceBytes = 0;
  #elementStartPosition: TextPosition | undefined;
  #elementTooDeep = false;
  #ready: ScannedElement[] = [];

  // A key of the top-level object in progress (`#keyStart` is -1 when none is kept).
  #keyStart = -1;
  #keyPieces: string[] = [];
  #keyChars = 0;

  // Where the current chunk starts in the file.
  #chunk = '';
  #chunkLine = 1;
  #chunkByte = 0;

  constructor(options: JsonArrayScannerOptions = {}) {
    this.#arrayKey = options.arrayKey;
    this.#maxElementBytes = options.maxElementBytes ?? DEFAULT_MAX_ELEMENT_BYTES;
  }

  /** The elements completed so far, each once. */
  take(): ScannedElement[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  /** Scans the next chunk of text; elements completed before an error stay available to `take()`. */
  scan(chunk: string): void {
    this.#chunk = chunk;
    if (this.#elementStart !== -1) this.#elementStart = 0;
    if (this.#keyStart !== -1) this.#keyStart = 0;
    const length = chunk.length;
    let at = 0;
    while (at < length) {
      switch (this.#state) {
        case STRING: {
          let code = 0;
          while (at < length) {
            code = chunk.charCodeAt(at);
            if (code === QUOTE || code === BACKSLASH || code < 0x20) break;
            at += 1;
          }
          if (at === length) break;
          if (code === QUOTE) {
            at += 1;
            if (this.#stringIsKey) this.#keyEnded(at);
            else this.#valueEnded(at);
          } else if (code === BACKSLASH) {
            at += 1;
            this.#state = ESCAPE;
          } else {
            throw this.#syntax(at, `${shown(code)} inside a string: control characters must be escaped`);
          }
          break;
        }
        case ESCAPE: {
          const code = chunk.charCodeAt(at);
          if (code === 0x75) {
            this.#state = UNICODE;
            this.#hexLeft = 4;
          } else if (isEscapable(code)) {
            this.#state = STRING;
          } else {
            throw this.#syntax(at, `\\${String.fromCharCode(code)} is not an escape JSON knows`);
          }
          at += 1;
          break;
        }
        case UNICODE: {
          const code = chunk.charCodeAt(at);
          if (!isHexDigit(code)) throw this.#syntax(at, `${shown(code)} where a \\u escape needs a hexadecimal digit`);
          this.#hexLeft -= 1;
          if (this.#hexLeft === 0) this.#state = STRING;
          at += 1;
          break;
        }
        case NUMBER:
          at = this.#number(chunk, at);
          break;
        case LITERAL: {
          const code = chunk.charCodeAt(at);
          if (code !== this.#literal.charCodeAt(this.#literalAt)) {
            throw this.#syntax(at, `${shown(code)} where "${this.#literal}" was being written`);
          }
          at += 1;
          this.#literalAt += 1;
          if (this.#literalAt === this.#literal.length) this.#valueEnded(at);
          break;
        }
        default: {
          const code = chunk.charCodeAt(at);
          if (isWhitespace(code)) {
            at += 1;
            while (at < length && isWhitespace(chunk.charCodeAt(at))) at += 1;
            break;
          }
          this.#structural(code, at);
          at += 1;
        }
      }
    }
    this.#chunkEnded();
  }

  /** The text has ended: throws when the JSON is not complete, or the array was never found. */
  end(): void {
    if (this.#state === END) {
      if (!this.#sawArray) {
        throw new JsonScanError('wrong-format', undefined, `${this.#expected()}, but there is no "${this.#arrayKey ?? ''}" key at the top level`);
      }
      return;
    }
    const where = { line: this.#chunkLine, byteOffset: this.#chunkByte };
    const what = this.#elementStart !== -1 ? `element #${this.#elementIndex} is not complete` : `expected ${this.#expecting()}`;
    throw new JsonScanError('truncated', where, `the file ends before its JSON is complete (${what}); it looks cut short`);
  }

  /** A character outside strings, numbers and literals. */
  #structural(code: number, at: number): void {
    switch (this.#state) {
      case VALUE:
        this.#valueStarts(code, at);
        return;
      case VALUE_OR_CLOSE:
        if (code === CLOSE_BRACKET) this.#close(code, at);
        else this.#valueStarts(code, at);
        return;
      case KEY:
      case KEY_OR_CLOSE:
        if (code === QUOTE) this.#keyStarts(at);
        else if (code === CLOSE_BRACE && this.#state === KEY_OR_CLOSE) this.#close(code, at);
        else throw this.#syntax(at, `unexpected ${shown(code)}, expected ${this.#expecting()}`);
        return;
      case COLON:
        if (code !== COLON_CHAR) throw this.#syntax(at, `unexpected ${shown(code)}, expected ':'`);
        this.#state = VALUE;
        return;
      case AFTER_VALUE:
        if (code === COMMA) this.#state = this.#containers.top() ? KEY : VALUE;
        else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) this.#close(code, at);
        // A missing comma is by far the likeliest mistake here.
        else throw this.#syntax(at, `unexpected ${shown(code)}, expected ','`);
        return;
      default:
        throw this.#syntax(at, `unexpected ${shown(code)} after the end of the JSON`);
    }
  }

  #valueStarts(code: number, at: number): void {
    const depth = this.#containers.depth;
    if (depth === 0) {
      const opener = this.#arrayKey === undefined ? OPEN_BRACKET : OPEN_BRACE;
      if (code !== opener) throw new JsonScanError('wrong-format', { line: 1, byteOffset: 0 }, `${this.#expected()}, but the file starts with ${shown(code)}`);
      if (this.#arrayKey === undefined) this.#arrayStarts();
    } else if (this.#arrayValueNext) {
      this.#arrayValueNext = false;
      if (code !== OPEN_BRACKET)
        throw new JsonScanError('wrong-format', this.#positionAt(at), `${this.#expected()}, but "${this.#arrayKey}" holds ${kindOf(code)}`);
      this.#arrayStarts();
    } else if (this.#inArray && depth === this.#arrayDepth) {
      this.#elementStarts(at);
    }
    switch (code) {
      case OPEN_BRACE:
        this.#push(true, at);
        this.#state = KEY_OR_CLOSE;
        return;
      case OPEN_BRACKET:
        this.#push(false, at);
        this.#state = VALUE_OR_CLOSE;
        return;
      case QUOTE:
        this.#stringIsKey = false;
        this.#state = STRING;
        return;
      case MINUS:
        this.#numberState = AFTER_MINUS;
        this.#state = NUMBER;
        return;
      case 0x74:
      case 0x66:
      case 0x6e:
        this.#literal = code === 0x74 ? 'true' : code === 0x66 ? 'false' : 'null';
        this.#literalAt = 1;
        this.#state = LITERAL;
        return;
      default:
        if (!isDigit(code)) throw this.#syntax(at, `unexpected ${shown(code)}, expected ${this.#expecting()}`);
        this.#numberState = code === ZERO ? AFTER_ZERO : INTEGER;
        this.#state = NUMBER;
    }
  }

  /** Reads number characters from `at`; returns where the scan goes on (the character after the number is not used). */
  #number(chunk: string, start: number): number {
    let at = start;
    const length = chunk.length;
    while (at < length) {
      const code = chunk.charCodeAt(at);
      switch (this.#numberState) {
        case AFTER_MINUS:
          if (!isDigit(code)) throw this.#syntax(at, `${shown(code)} after "-", expected a digit`);
          this.#numberState = code === ZERO ? AFTER_ZERO : INTEGER;
          break;
        case INTEGER:
        case AFTER_ZERO:
          if (isDigit(code) && this.#numberState === INTEGER) break;
          if (isDigit(code)) throw this.#syntax(at, 'a number must not start with 0 followed by digits');
          if (code === DOT) this.#numberState = AFTER_DOT;
          else if (code === 0x65 || code === 0x45) this.#numberState = AFTER_E;
          else return this.#numberEnded(at);
          break;
        case AFTER_DOT:
          if (!isDigit(code)) throw this.#syntax(at, `${shown(code)} after a decimal point, expected a digit`);
          this.#numberState = FRACTION;
          break;
        case FRACTION:
          if (isDigit(code)) break;
          if (code === 0x65 || code === 0x45) this.#numberState = AFTER_E;
          else return this.#numberEnded(at);
          break;
        case AFTER_E:
          if (code === PLUS || code === MINUS) this.#numberState = AFTER_EXPONENT_SIGN;
          else if (isDigit(code)) this.#numberState = EXPONENT;
          else throw this.#syntax(at, `${shown(code)} in an exponent, expected a digit`);
          break;
        case AFTER_EXPONENT_SIGN:
          if (!isDigit(code)) throw this.#syntax(at, `${shown(code)} in an exponent, expected a digit`);
          this.#numberState = EXPONENT;
          break;
        default:
          if (!isDigit(code)) return this.#numberEnded(at);
      }
      at += 1;
    }
    return at;
  }

  #numberEnded(at: number): number {
    this.#valueEnded(at);
    return at;
  }

  #push(isObject: boolean, at: number): void {
    if (this.#containers.depth >= MAX_DOCUMENT_DEPTH) {
      throw new JsonScanError(
        'too-deep',
        this.#positionAt(at),
        `the JSON nests deeper than ${MAX_DOCUMENT_DEPTH} levels: the file is damaged or not an export of users`,
      );
    }
    this.#containers.push(isObject);
    if (this.#elementStart !== -1 && this.#containers.depth - this.#arrayDepth > MAX_RECORD_DEPTH) this.#elementTooDeep = true;
  }

  #close(code: number, at: number): void {
    const closesObject = this.#containers.top();
    if (closesObject !== (code === CLOSE_BRACE)) {
      throw this.#syntax(at, `unexpected ${shown(code)}, expected ${this.#expecting()}`);
    }
    this.#containers.pop();
    if (this.#inArray && this.#containers.depth < this.#arrayDepth) this.#inArray = false;
    this.#valueEnded(at + 1);
  }

  /** A value ended just before `end`: it may have been an element, or the whole document. */
  #valueEnded(end: number): void {
    const depth = this.#containers.depth;
    this.#state = depth === 0 ? END : AFTER_VALUE;
    if (this.#elementStart !== -1 && depth === this.#arrayDepth) this.#elementEnded(end);
  }

  #arrayStarts(): void {
    this.#inArray = true;
    this.#sawArray = true;
    this.#arrayDepth = this.#containers.depth + 1;
  }

  #elementStarts(at: number): void {
    this.#elementIndex += 1;
    this.#elementStart = at;
    this.#elementTooDeep = false;
  }

  #elementEnded(end: number): void {
    const index = this.#elementIndex;
    const last = this.#chunk.slice(this.#elementStart, end);
    let text = last;
    if (this.#elementPieces.length > 0) {
      this.#elementPieces.push(last);
      text = this.#elementPieces.join('');
      this.#checkElementBytes(this.#elementPieceBytes + Buffer.byteLength(last));
      this.#elementPieces = [];
      this.#elementPieceBytes = 0;
      this.#elementStartPosition = undefined;
    } else if (last.length * 3 > this.#maxElementBytes) {
      this.#elementStartPosition = this.#positionAt(this.#elementStart);
      this.#checkElementBytes(Buffer.byteLength(last));
    }
    this.#elementStart = -1;
    this.#ready.push(this.#elementTooDeep ? { index, tooDeep: true } : { index, text });
  }

  #checkElementBytes(bytes: number): void {
    if (bytes <= this.#maxElementBytes) return;
    throw new JsonScanError(
      'record-too-long',
      this.#elementStartPosition,
      `element #${this.#elementIndex} is longer than ${sizeText(this.#maxElementBytes)}, far more than any user record: the file is damaged or not an export of users`,
      this.#elementIndex,
    );
  }

  #keyStarts(at: number): void {
    this.#stringIsKey = true;
    this.#state = STRING;
    if (this.#arrayKey !== undefined && this.#containers.depth === 1) {
      this.#keyStart = at + 1;
      this.#keyPieces = [];
      this.#keyChars = 0;
    }
  }

  #keyEnded(end: number): void {
    this.#state = COLON;
    if (this.#keyStart === -1) return;
    const last = this.#chunk.slice(this.#keyStart, end - 1);
    const raw = this.#keyPieces.length === 0 ? last : this.#keyPieces.join('') + last;
    this.#keyStart = -1;
    this.#keyPieces = [];
    if (this.#keyChars + last.length > MAX_KEY_CHARS) return;
    // The text was checked as a JSON string already; escapes (`"us\u0065rs"`) name the key too.
    const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    if (key !== this.#arrayKey) return;
    if (this.#sawArray) {
      throw new JsonScanError('wrong-format', this.#positionAt(end), `${this.#expected()}, but the "${key}" key appears twice at the top level`);
    }
    this.#arrayValueNext = true;
  }

  #chunkEnded(): void {
    const chunk = this.#chunk;
    if (this.#elementStart !== -1) {
      if (this.#elementPieces.length === 0) this.#elementStartPosition = this.#positionAt(this.#elementStart);
      const piece = this.#elementStart === 0 ? chunk : chunk.slice(this.#elementStart);
      this.#elementPieces.push(piece);
      this.#elementPieceBytes += Buffer.byteLength(piece);
      this.#checkElementBytes(this.#elementPieceBytes);
    }
    if (this.#keyStart !== -1) {
      const piece = chunk.slice(this.#keyStart);
      this.#keyChars += piece.length;
      if (this.#keyChars <= MAX_KEY_CHARS) this.#keyPieces.push(piece);
    }
    this.#chunkLine += countNewlines(chunk, chunk.length);
    this.#chunkByte += Buffer.byteLength(chunk) - (endsInHighSurrogate(chunk) ? 2 : 0);
    this.#chunk = '';
  }

  #positionAt(at: number): TextPosition {
    const before = this.#chunk.slice(0, at);
    return { line: this.#chunkLine + countNewlines(before, at), byteOffset: this.#chunkByte + Buffer.byteLength(before) };
  }

  #syntax(at: number, detail: string): JsonScanError {
    return new JsonScanError('not-json', this.#positionAt(at), detail);
  }

  #expected(): string {
    return this.#arrayKey === undefined ? 'expected a JSON array' : `expected a JSON object with a "${this.#arrayKey}" array`;
  }

  /** What the grammar allows next, for messages. */
  #expecting(): string {
    const closer = this.#containers.top() ? "'}'" : "']'";
    switch (this.#state) {
      case VALUE:
        return this.#containers.depth === 0 ? (this.#arrayKey === undefined ? "'['" : "'{'") : 'a value';
      case VALUE_OR_CLOSE:
        return "a value or ']'";
      case KEY:
        return 'a key in double quotes';
      case KEY_OR_CLOSE:
        return "a key in double quotes or '}'";
      case COLON:
        return "':'";
      case AFTER_VALUE:
        return `',' or ${closer}`;
      case STRING:
      case ESCAPE:
      case UNICODE:
        return 'the end of a string';
      case NUMBER:
        return 'the rest of a number';
      case LITERAL:
        return `the rest of "${this.#literal}"`;
      default:
        return 'nothing more';
    }
  }
}

/**
 * A chunk cut between the two halves of a surrogate pair would count 3 + 3 bytes for a 4-byte character: the first
 * half counts 1. (openText's chunks end on whole characters; other callers' may not.)
 */
function endsInHighSurrogate(chunk: string): boolean {
  const last = chunk.charCodeAt(chunk.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

function kindOf(code: number): string {
  if (code === OPEN_BRACE) return 'an object';
  if (code === QUOTE) return 'a string';
  if (code === MINUS || isDigit(code)) return 'a number';
  if (code === 0x74 || code === 0x66) return 'true or false';
  if (code === 0x6e) return 'null';
  return shown(code);
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
