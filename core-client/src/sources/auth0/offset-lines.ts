import type { TextLine } from '../text/lines.js';

/** A line and the byte offset where it starts in the file, so it can be read back later on its own. */
export interface OffsetLine extends TextLine {
  readonly byteOffset: number;
}

/**
 * Splits streamed text into lines (LF or CRLF) numbered as `splitLines` numbers them, and adds each line's byte
 * offset: the UTF-8 length of what came before, plus `firstOffset` (a byte-order mark the decoder dropped).
 */
export async function* splitLinesWithOffsets(chunks: AsyncIterable<string>, firstOffset: number): AsyncGenerator<OffsetLine> {
  let number = 0;
  let byteOffset = firstOffset;
  let partial = '';
  for await (const chunk of chunks) {
    const text = partial.length === 0 ? chunk : partial + chunk;
    let start = 0;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      const raw = text.slice(start, newline);
      number += 1;
      yield { number, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, byteOffset };
      byteOffset += Buffer.byteLength(raw) + 1;
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = text.slice(start);
  }
  if (partial.length > 0) {
    number += 1;
    yield { number, text: partial.endsWith('\r') ? partial.slice(0, -1) : partial, byteOffset };
  }
}
