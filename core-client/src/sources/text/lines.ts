import { SourceError } from '../source-error.js';

/** A line of text without its line ending, numbered from 1, with the byte offset where it starts in the file. */
export interface TextLine {
  readonly number: number;
  readonly text: string;
  /** The UTF-8 length of what came before it, plus `firstOffset` (a byte-order mark the decoder dropped). */
  readonly byteOffset: number;
}

/**
 * No export has a user record anywhere near this long; a longer line is a broken or hostile file (`/dev/zero`, a
 * gzip bomb of one endless line), and holding it would grow memory until the process fails.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface SplitLinesOptions {
  /** Named in the error of a line that is too long. */
  readonly file: string;
  /** Bytes before the first line that the text decoder dropped (a byte-order mark). */
  readonly firstOffset?: number;
  readonly maxLineBytes?: number;
}

export function lineTooLong(file: string, line: number, byteOffset: number, maxLineBytes: number): SourceError {
  return new SourceError(
    'line-too-long',
    { file, line, byteOffset },
    `line ${line} is longer than ${sizeText(maxLineBytes)}, far more than any user record: the file is damaged or not an export of users`,
  );
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Splits streamed text into lines (LF or CRLF) in linear time: a line that spans chunks is kept as its pieces and
 * joined once, when its end arrives, and a line over `maxLineBytes` ends the stream with a SourceError naming it
 * before it is held whole. The byte offsets let a reader come back to one line later on its own (the Auth0 join
 * reads matched password lines back).
 */
export async function* splitLines(chunks: AsyncIterable<string>, options: SplitLinesOptions): AsyncGenerator<TextLine> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let number = 0;
  let byteOffset = options.firstOffset ?? 0;
  let pieces: string[] = [];
  let pieceBytes = 0;
  for await (const chunk of chunks) {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      let raw = chunk.slice(start, newline);
      let bytes = Buffer.byteLength(raw);
      if (pieces.length > 0) {
        pieces.push(raw);
        raw = pieces.join('');
        bytes += pieceBytes;
        pieces = [];
        pieceBytes = 0;
      }
      if (bytes > maxLineBytes) throw lineTooLong(options.file, number + 1, byteOffset, maxLineBytes);
      number += 1;
      yield { number, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, byteOffset };
      byteOffset += bytes + 1;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.slice(start);
      pieceBytes += Buffer.byteLength(rest);
      if (pieceBytes > maxLineBytes) throw lineTooLong(options.file, number + 1, byteOffset, maxLineBytes);
      pieces.push(rest);
    }
  }
  if (pieces.length > 0) {
    const raw = pieces.join('');
    number += 1;
    yield { number, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, byteOffset };
  }
}
