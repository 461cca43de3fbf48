import type { Duplex } from 'node:stream';
import parserStream from 'stream-json';
import pick from 'stream-json/filters/pick.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import { SourceError } from '../source-error.js';

/** One element of the streamed array, with its position in the array. */
export interface JsonArrayItem {
  readonly index: number;
  readonly value: unknown;
}

export interface JsonArrayShape {
  /** Top-level key holding the array (`users` for Firebase); absent when the file itself is the array. */
  readonly arrayKey?: string;
}

// Small slices, each awaited, so a syntax error can be placed within a few lines: the parser reports no position.
const SLICE_CHARS = 1024;

interface Position {
  byte: number;
  line: number;
}

function* slices(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SLICE_CHARS);
    // Never split a surrogate pair: byte counts of the halves would be wrong.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function writeAndWait(stream: Duplex, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * The parser hands on a chunk's tokens only when the whole chunk parses, so each line goes in as its own chunk:
 * a syntax error then costs the elements of its line, not those of the lines before it in the slice.
 */
function writeLinesAndWait(stream: Duplex, slice: string): Promise<void> {
  const writes: Promise<void>[] = [];
  let start = 0;
  for (let end = slice.indexOf('\n'); end !== -1; end = slice.indexOf('\n', start)) {
    writes.push(writeAndWait(stream, slice.slice(start, end + 1)));
    start = end + 1;
  }
  if (start < slice.length) writes.push(writeAndWait(stream, slice.slice(start)));
  return Promise.all(writes).then(() => undefined);
}

function endAndWait(stream: Duplex): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

function parserDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Parser cannot parse input: /, '').replace(/^Parser has /, '');
}

function withLastIndex(error: SourceError, lastIndex: number | undefined): SourceError {
  if (error.kind !== 'not-json' && error.kind !== 'truncated') return error;
  const read = lastIndex === undefined ? 'no element was read before it' : `the last element read is #${lastIndex}`;
  return new SourceError(error.kind, error.location, `${error.detail}; ${read}`, { cause: error.cause });
}

/**
 * Streams the elements of a JSON array (the whole file, or the array under one top-level key) without holding
 * the file: stream-json parses, and only one element at a time is assembled. Elements read before a syntax
 * error are yielded first (best effort: a few just before it may be lost), then the error is thrown.
 */
export async function* readJsonArrayItems(file: string, text: AsyncIterable<string>, shape: JsonArrayShape): AsyncGenerator<JsonArrayItem> {
  const parser = parserStream({ packValues: true, streamValues: false });
  const afterParser: Duplex = shape.arrayKey === undefined ? streamArray.asStream() : pick.asStream({ filter: shape.arrayKey });
  const items: Duplex = shape.arrayKey === undefined ? afterParser : afterParser.pipe(streamArray.asStream());
  // Errors reach us through write callbacks and the iteration; these listeners only keep them from being "unhandled".
  parser.on('error', () => undefined);
  afterParser.on('error', () => undefined);
  parser.pipe(afterParser);
  let sawArrayKey = shape.arrayKey === undefined;
  if (!sawArrayKey) afterParser.once('data', () => (sawArrayKey = true));

  const position: Position = { byte: 0, line: 1 };
  let failure: SourceError | undefined;
  let stopped = false;
  let lastIndex: number | undefined;

  const expectedStart = shape.arrayKey === undefined ? '[' : '{';
  const describeExpected = shape.arrayKey === undefined ? 'a JSON array' : `a JSON object with a "${shape.arrayKey}" array`;

  const feed = async (): Promise<void> => {
    let checkedStart = false;
    try {
      for await (const chunk of text) {
        if (!checkedStart) {
          const first = chunk.trimStart().charAt(0);
          if (first === '') continue;
          checkedStart = true;
          if (first !== expectedStart) {
            throw new SourceError('wrong-format', { file, line: 1, byteOffset: 0 }, `expected ${describeExpected}, but the file starts with "${first}"`);
          }
        }
        for (const slice of slices(chunk)) {
          if (stopped) return;
          const start: Position = { ...position };
          position.byte += Buffer.byteLength(slice);
          position.line += countNewlines(slice);
          try {
            await writeLinesAndWait(parser, slice);
          } catch (error) {
            if (stopped) return;
            const lines = start.line === position.line ? `line ${start.line}` : `lines ${start.line}–${position.line}`;
            throw new SourceError(
              'not-json',
              { file, line: start.line, byteOffset: start.byte },
              `not valid JSON in ${lines} (bytes ${start.byte}–${position.byte}): ${parserDetail(error)}`,
              { cause: error },
            );
          }
        }
      }
      try {
        await endAndWait(parser);
      } catch (error) {
        throw new SourceError(
          'truncated',
          { file, line: position.line, byteOffset: position.byte },
          `the file ends before its JSON is complete (${parserDetail(error)}); it looks cut short`,
          { cause: error },
        );
      }
    } catch (error) {
      if (stopped) return;
      failure = error instanceof SourceError ? error : new SourceError('unreadable', { file }, String(error), { cause: error });
      // Let what the parser already produced drain, then end: the failure is thrown after the last good element.
      afterParser.end();
    }
  };
  const feeding = feed();

  try {
    for await (const item of items as AsyncIterable<{ key: number; value: unknown }>) {
      lastIndex = item.key;
      yield { index: item.key, value: item.value };
    }
  } catch (error) {
    await feeding;
    if (failure) throw withLastIndex(failure, lastIndex);
    const where = { file, line: position.line, byteOffset: position.byte };
    throw new SourceError('wrong-format', where, `expected ${describeExpected}: ${parserDetail(error)}`, { cause: error });
  } finally {
    stopped = true;
    parser.destroy();
    items.destroy();
  }
  await feeding;
  if (failure) throw withLastIndex(failure, lastIndex);
  if (!sawArrayKey) {
    throw new SourceError('wrong-format', { file }, `expected ${describeExpected}, but there is no "${shape.arrayKey}" key at the top level`);
  }
}
