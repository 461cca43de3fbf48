import { HeldText, type ChunkPositions, type TextPosition } from './chunk-text.js';
import { JsonScanError } from './json-scan-error.js';

/** Keys of the top-level object longer than this cannot be the array's key, so they are not kept. */
const MAX_KEY_CHARS = 256;

/** An element of the array as text for JSON.parse, or a record too deep to hand on. */
export type ScannedElement = { readonly index: number; readonly text: string } | { readonly index: number; readonly tooDeep: true };

/**
 * The array's elements as text: the scanner says where each starts and ends in the chunks it reads; this keeps the
 * text of the element in progress (across chunks, up to `maxBytes`) and holds the finished ones until taken.
 */
export class ElementKeeper {
  readonly #maxBytes: number;
  readonly #positions: ChunkPositions;
  // Where the element in progress starts in the current chunk; -1 outside one.
  #start = -1;
  #index = -1;
  readonly #text = new HeldText();
  #startPosition: TextPosition | undefined;
  #tooDeep = false;
  #ready: ScannedElement[] = [];

  constructor(maxBytes: number, positions: ChunkPositions) {
    this.#maxBytes = maxBytes;
    this.#positions = positions;
  }

  get inProgress(): boolean {
    return this.#start !== -1;
  }

  /** The index of the element begun last. */
  get index(): number {
    return this.#index;
  }

  take(): ScannedElement[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  chunkEntered(): void {
    if (this.#start !== -1) this.#start = 0;
  }

  starts(at: number): void {
    this.#index += 1;
    this.#start = at;
    this.#tooDeep = false;
  }

  /** The element nests deeper than a record may: it is handed on as too deep, not as text. */
  nestsTooDeep(): void {
    this.#tooDeep = true;
  }

  ends(chunk: string, end: number): void {
    const index = this.#index;
    const last = chunk.slice(this.#start, end);
    // Within one chunk, an element cannot reach the limit unless its characters could (three bytes each at most).
    if (this.#text.spansChunks || last.length * 3 > this.#maxBytes) {
      this.#startPosition ??= this.#positions.at(this.#start);
      this.#checkBytes(this.#text.bytes + Buffer.byteLength(last));
    }
    const text = this.#text.finish(last);
    this.#startPosition = undefined;
    this.#start = -1;
    this.#ready.push(this.#tooDeep ? { index, tooDeep: true } : { index, text });
  }

  /** The chunk ends inside the element: its part of the text is held; call before the positions leave the chunk. */
  chunkLeft(chunk: string): void {
    if (this.#start === -1) return;
    this.#startPosition ??= this.#positions.at(this.#start);
    this.#text.hold(this.#start === 0 ? chunk : chunk.slice(this.#start));
    this.#checkBytes(this.#text.bytes);
  }

  #checkBytes(bytes: number): void {
    if (bytes <= this.#maxBytes) return;
    throw new JsonScanError(
      'record-too-long',
      this.#startPosition,
      `element #${this.#index} is longer than ${sizeText(this.#maxBytes)}, far more than any user record: the file is damaged or not an export of users`,
      this.#index,
    );
  }
}

/** A key of the top-level object, kept across chunks while it is short enough to be the array's key. */
export class TopLevelKeyKeeper {
  // Where the key in progress starts in the current chunk; -1 when none is kept.
  #start = -1;
  readonly #text = new HeldText();

  chunkEntered(): void {
    if (this.#start !== -1) this.#start = 0;
  }

  /** `at` is the key's opening quote. */
  starts(at: number): void {
    this.#start = at + 1;
  }

  /** The key whose closing quote is just before `end`; undefined when none was kept or it is too long to be the array's. */
  ends(chunk: string, end: number): string | undefined {
    if (this.#start === -1) return undefined;
    const last = chunk.slice(this.#start, end - 1);
    const tooLong = this.#text.chars + last.length > MAX_KEY_CHARS;
    const raw = this.#text.finish(last);
    this.#start = -1;
    if (tooLong) return undefined;
    // The text was checked as a JSON string already; escapes (`"us\u0065rs"`) name the key too.
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  chunkLeft(chunk: string): void {
    // A key past the limit is not the array's: only its length is kept on.
    if (this.#start !== -1) this.#text.hold(this.#text.chars > MAX_KEY_CHARS ? '' : chunk.slice(this.#start));
  }
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
