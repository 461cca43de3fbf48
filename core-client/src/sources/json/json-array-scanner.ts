import { DEFAULT_MAX_LINE_BYTES } from '../text/lines.js';
import { BitStack } from './bit-stack.js';
import { ChunkPositions } from './chunk-text.js';
import {
  AFTER_MINUS,
  AFTER_ZERO,
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON_CHAR,
  COMMA,
  INTEGER,
  MINUS,
  NUMBER_BROKEN,
  NUMBER_ENDED,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  ZERO,
  isDigit,
  isEscapable,
  isHexDigit,
  isWhitespace,
  kindOf,
  numberProblem,
  numberStep,
  shown,
} from './json-grammar.js';
import { MAX_RECORD_DEPTH } from './json-depth.js';
import { ElementKeeper, TopLevelKeyKeeper, type ScannedElement } from './json-kept-text.js';
import { JsonScanError } from './json-scan-error.js';

export { JsonScanError, type JsonScanErrorKind } from './json-scan-error.js';
export type { ScannedElement } from './json-kept-text.js';

/** One record's text is bounded like a line of the line-based formats, for the same reasons (lines.ts). */
export const DEFAULT_MAX_ELEMENT_BYTES = DEFAULT_MAX_LINE_BYTES;

/** Nesting beside the users is only checked, one bit a level; past this the file is damaged (2 MiB of bits). */
export const MAX_DOCUMENT_DEPTH = 1 << 24;

export interface JsonArrayScannerOptions {
  /** Top-level key holding the array (`users` for Firebase); absent when the file itself is the array. */
  readonly arrayKey?: string;
  readonly maxElementBytes?: number;
  /**
   * Without `arrayKey`: arrays may follow one another (whitespace between), as the pages of a paged API written one
   * after another (`[…][…]`); their elements are numbered on from one array to the next.
   */
  readonly concatenated?: boolean;
}

// Where the scanner is in the grammar; a number's own states are in json-grammar.ts.
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
  readonly #concatenated: boolean;
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

  // Where the current chunk starts in the file.
  #chunk = '';
  readonly #positions = new ChunkPositions();

  readonly #elements: ElementKeeper;
  readonly #topLevelKey = new TopLevelKeyKeeper();

  constructor(options: JsonArrayScannerOptions = {}) {
    this.#arrayKey = options.arrayKey;
    this.#concatenated = options.arrayKey === undefined && options.concatenated === true;
    this.#elements = new ElementKeeper(options.maxElementBytes ?? DEFAULT_MAX_ELEMENT_BYTES, this.#positions);
  }

  /** The elements completed so far, each once. */
  take(): ScannedElement[] {
    return this.#elements.take();
  }

  /** Scans the next chunk of text; elements completed before an error stay available to `take()`. */
  scan(chunk: string): void {
    this.#chunk = chunk;
    this.#positions.enter(chunk);
    this.#elements.chunkEntered();
    this.#topLevelKey.chunkEntered();
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
    const where = this.#positions.end;
    const what = this.#elements.inProgress ? `element #${this.#elements.index} is not complete` : `expected ${this.#expecting()}`;
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
        if (this.#concatenated && code === OPEN_BRACKET) {
          this.#valueStarts(code, at);
          return;
        }
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
        throw new JsonScanError('wrong-format', this.#positions.at(at), `${this.#expected()}, but "${this.#arrayKey}" holds ${kindOf(code)}`);
      this.#arrayStarts();
    } else if (this.#inArray && depth === this.#arrayDepth) {
      this.#elements.starts(at);
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
    const length = chunk.length;
    for (let at = start; at < length; at += 1) {
      const code = chunk.charCodeAt(at);
      const next = numberStep(this.#numberState, code);
      if (next === NUMBER_ENDED) return this.#numberEnded(at);
      if (next === NUMBER_BROKEN) throw this.#syntax(at, numberProblem(this.#numberState, code));
      this.#numberState = next;
    }
    return length;
  }

  #numberEnded(at: number): number {
    this.#valueEnded(at);
    return at;
  }

  #push(isObject: boolean, at: number): void {
    if (this.#containers.depth >= MAX_DOCUMENT_DEPTH) {
      throw new JsonScanError(
        'too-deep',
        this.#positions.at(at),
        `the JSON nests deeper than ${MAX_DOCUMENT_DEPTH} levels: the file is damaged or not an export of users`,
      );
    }
    this.#containers.push(isObject);
    if (this.#elements.inProgress && this.#containers.depth - this.#arrayDepth > MAX_RECORD_DEPTH) this.#elements.nestsTooDeep();
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
    if (this.#elements.inProgress && depth === this.#arrayDepth) this.#elements.ends(this.#chunk, end);
  }

  #arrayStarts(): void {
    this.#inArray = true;
    this.#sawArray = true;
    this.#arrayDepth = this.#containers.depth + 1;
  }

  #keyStarts(at: number): void {
    this.#stringIsKey = true;
    this.#state = STRING;
    if (this.#arrayKey !== undefined && this.#containers.depth === 1) this.#topLevelKey.starts(at);
  }

  #keyEnded(end: number): void {
    this.#state = COLON;
    const key = this.#topLevelKey.ends(this.#chunk, end);
    if (key === undefined || key !== this.#arrayKey) return;
    if (this.#sawArray) {
      throw new JsonScanError('wrong-format', this.#positions.at(end), `${this.#expected()}, but the "${key}" key appears twice at the top level`);
    }
    this.#arrayValueNext = true;
  }

  #chunkEnded(): void {
    this.#elements.chunkLeft(this.#chunk);
    this.#topLevelKey.chunkLeft(this.#chunk);
    this.#positions.leave();
    this.#chunk = '';
  }

  #syntax(at: number, detail: string): JsonScanError {
    return new JsonScanError('not-json', this.#positions.at(at), detail);
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
