import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SourceError } from '../source-error.js';
import { firstInvalidUtf8Index, incompleteTailLength } from './utf8.js';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const NEWLINE = 0x0a;
const READ_BYTES = 8 * 1024;

export function withoutGzipExtension(path: string): string {
  return path.toLowerCase().endsWith('.gz') ? path.slice(0, -3) : path;
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return error instanceof Error ? error.message : String(error);
}

async function startsWithGzipMagic(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } catch (error) {
    throw new SourceError('unreadable', { file: path }, `cannot read the file: ${describeFsError(error)}`, { cause: error });
  } finally {
    await handle?.close();
  }
}

/** The file's bytes, gunzipped when the file starts with the gzip magic bytes (whatever its name). */
async function openBytes(path: string): Promise<{ bytes: Readable; gzipped: boolean }> {
  const gzipped = await startsWithGzipMagic(path);
  if (!gzipped && path.toLowerCase().endsWith('.gz')) {
    throw new SourceError('bad-gzip', { file: path }, 'the name ends in .gz but the file is not gzip-compressed');
  }
  // Small reads: the decoded chunk in progress is what each young-generation GC finds alive and copies, and that
  // copying is what makes V8 grow its young generation. 8 KiB rather than 16 kept the plan of 5 M users at 32 MiB
  // semi-spaces instead of 64 (peak RSS 221 MiB instead of 275), for about 4 % of its speed; 64 KiB was 310-346.
  const file = createReadStream(path, { highWaterMark: READ_BYTES });
  if (!gzipped) return { bytes: file, gzipped };
  // pipeline destroys both streams with the first error, so a damaged gzip surfaces in the reading loop.
  return { bytes: pipeline(file, createGunzip({ chunkSize: READ_BYTES }), () => undefined), gzipped };
}

function countNewlines(bytes: Buffer, end: number): number {
  let count = 0;
  let at = bytes.indexOf(NEWLINE, 0);
  while (at !== -1 && at < end) {
    count += 1;
    at = bytes.indexOf(NEWLINE, at + 1);
  }
  return count;
}

/**
 * Streams a file as text, strictly decoded as UTF-8 (a BOM is dropped): a byte that is not UTF-8 ends the
 * stream with a SourceError naming its offset and line, instead of turning silently into U+FFFD. Gzip is
 * undone on the way. A file with no bytes, or only whitespace, is an error too: nothing to migrate is
 * almost always the wrong file.
 */
export async function* openText(path: string): AsyncGenerator<string> {
  const { bytes, gzipped } = await openBytes(path);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let byteOffset = 0;
  let line = 1;
  let carried: Uint8Array = new Uint8Array(0);
  let sawContent = false;

  const notUtf8 = (chunk: Buffer, chunkOffset: number, atEnd: boolean): SourceError => {
    const joined = Buffer.concat([carried, chunk]);
    const index = Math.max(0, firstInvalidUtf8Index(joined, atEnd));
    const offset = chunkOffset - carried.length + index;
    const lineOfByte = line + countNewlines(joined, index);
    const byte = joined[index];
    const what =
      byte === undefined || (atEnd && firstInvalidUtf8Index(joined, false) === -1)
        ? 'ends in the middle of a UTF-8 character'
        : `has a byte that is not UTF-8 (0x${byte.toString(16).padStart(2, '0')})`;
    return new SourceError('not-utf8', { file: path, line: lineOfByte, byteOffset: offset }, `the file ${what}; save it as UTF-8`);
  };

  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        const error = notUtf8(chunk, byteOffset, false);
        // What precedes the bad byte is still read, so the records before it are not lost.
        const validEnd = (error.location.byteOffset ?? 0) - (byteOffset - carried.length);
        const before = Buffer.concat([carried, chunk]).subarray(0, Math.max(0, validEnd));
        const text = new TextDecoder('utf-8').decode(before);
        if (text.length > 0) yield text;
        throw error;
      }
      line += countNewlines(chunk, chunk.length);
      const tail = chunk.length >= 3 ? chunk.subarray(-3) : Buffer.concat([carried, chunk]).subarray(-3);
      carried = tail.subarray(tail.length - incompleteTailLength(tail));
      byteOffset += chunk.length;
      if (!sawContent && /\S/.test(text)) sawContent = true;
      if (text.length > 0) yield text;
    }
    try {
      const rest = decoder.decode();
      if (rest.length > 0) yield rest;
    } catch {
      throw notUtf8(Buffer.alloc(0), byteOffset, true);
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (gzipped && error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Z_')) {
      throw new SourceError('bad-gzip', { file: path }, `the gzip data is damaged or cut short (${error.message})`, { cause: error });
    }
    throw new SourceError('unreadable', { file: path }, `cannot read the file: ${describeFsError(error)}`, { cause: error });
  } finally {
    bytes.destroy();
  }
  if (!sawContent) {
    throw new SourceError('empty', { file: path }, byteOffset === 0 ? 'the file is empty' : 'the file holds only whitespace');
  }
}
