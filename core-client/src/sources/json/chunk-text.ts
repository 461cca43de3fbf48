export interface TextPosition {
  readonly line: number;
  readonly byteOffset: number;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * A chunk cut between the two halves of a surrogate pair would count 3 + 3 bytes for a 4-byte character: the first
 * half counts 1. (openText's chunks end on whole characters; other callers' may not.)
 */
function endsInHighSurrogate(chunk: string): boolean {
  const last = chunk.charCodeAt(chunk.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/**
 * Line and UTF-8 byte of places in streamed text. Each chunk is counted once as it is left; a place inside the
 * current chunk costs counting up to it, which only an error or a long record asks for.
 */
export class ChunkPositions {
  #chunk = '';
  #line = 1;
  #byte = 0;

  enter(chunk: string): void {
    this.#chunk = chunk;
  }

  at(index: number): TextPosition {
    const before = this.#chunk.slice(0, index);
    return { line: this.#line + countNewlines(before), byteOffset: this.#byte + Buffer.byteLength(before) };
  }

  leave(): void {
    this.#line += countNewlines(this.#chunk);
    this.#byte += Buffer.byteLength(this.#chunk) - (endsInHighSurrogate(this.#chunk) ? 2 : 0);
    this.#chunk = '';
  }

  /** Where the text left so far ends. */
  get end(): TextPosition {
    return { line: this.#line, byteOffset: this.#byte };
  }
}

/** Text that may span chunks, held as its pieces and joined once at its end: linear however many chunks it spans. */
export class HeldText {
  #pieces: string[] = [];
  #bytes = 0;
  #chars = 0;

  get spansChunks(): boolean {
    return this.#pieces.length > 0;
  }

  /** UTF-8 bytes of the pieces held. */
  get bytes(): number {
    return this.#bytes;
  }

  get chars(): number {
    return this.#chars;
  }

  hold(piece: string): void {
    this.#pieces.push(piece);
    this.#bytes += Buffer.byteLength(piece);
    this.#chars += piece.length;
  }

  /** The whole text, ending with `last`; the holder is empty again. */
  finish(last: string): string {
    if (this.#pieces.length === 0) return last;
    this.#pieces.push(last);
    const text = this.#pieces.join('');
    this.drop();
    return text;
  }

  drop(): void {
    this.#pieces = [];
    this.#bytes = 0;
    this.#chars = 0;
  }
}
