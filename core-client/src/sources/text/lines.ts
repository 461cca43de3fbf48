/** A line of text without its line ending, numbered from 1. */
export interface TextLine {
  readonly number: number;
  readonly text: string;
}

/** Splits streamed text into lines (LF or CRLF), holding at most one partial line between chunks. */
export async function* splitLines(chunks: AsyncIterable<string>): AsyncGenerator<TextLine> {
  let number = 0;
  let partial = '';
  for await (const chunk of chunks) {
    const text = partial.length === 0 ? chunk : partial + chunk;
    let start = 0;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      number += 1;
      yield { number, text: text.slice(start, end) };
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = text.slice(start);
  }
  if (partial.length > 0) {
    number += 1;
    yield { number, text: partial.endsWith('\r') ? partial.slice(0, -1) : partial };
  }
}
