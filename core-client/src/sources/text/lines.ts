/** A line of text without its line ending, numbered from 1, with the byte offset where it starts in the file. */
export interface TextLine {
  readonly number: number;
  readonly text: string;
  /** The UTF-8 length of what came before it, plus `firstOffset` (a byte-order mark the decoder dropped). */
  readonly byteOffset: number;
}

/**
 * Splits streamed text into lines (LF or CRLF), holding at most one partial line between chunks. The byte offsets
 * let a reader come back to one line later on its own (the Auth0 join reads matched password lines back).
 */
export async function* splitLines(chunks: AsyncIterable<string>, firstOffset = 0): AsyncGenerator<TextLine> {
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
