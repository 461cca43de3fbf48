import { readSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceError } from '../source-error.js';
import { openText } from '../text/open-text.js';
import { type TextLine, splitLines } from '../text/lines.js';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
/** One read back fetches this much, so a user export in the hash file's order costs one read per block. */
const BLOCK_BYTES = 4 * 1024;
const NEWLINE = 0x0a;

function cannotRead(file: string, error: unknown): SourceError {
  const detail = error instanceof Error ? error.message : String(error);
  return new SourceError('unreadable', { file }, `cannot read the file: ${detail}`, { cause: error });
}

async function firstBytes(handle: FileHandle, count: number): Promise<Buffer> {
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(count), 0, count, 0);
  return buffer.subarray(0, bytesRead);
}

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/**
 * The password-hash export opened for the join: read front to back once, then line by line at a byte offset.
 * Offsets need an uncompressed file, so a gzipped export is decompressed once, during the first pass, into a file
 * under the system's temp folder that is unlinked as soon as it is opened: it lives only through this descriptor,
 * so no ending of the process (a SIGKILL included) leaves the hashes on disk.
 */
export class HashFile {
  readonly file: string;
  readonly #handle: FileHandle;
  /** True when the handle is a decompressed copy that the first pass writes. */
  readonly #copying: boolean;
  /** A folder left to remove at `close()`: only where an open file cannot be unlinked (Windows). */
  readonly #leftFolder: string | undefined;
  /** Bytes before the first line that the text decoder drops (a byte-order mark). */
  readonly #firstOffset: number;
  #block = Buffer.alloc(BLOCK_BYTES);
  #blockStart = 0;
  #blockLength = 0;

  private constructor(file: string, handle: FileHandle, firstOffset: number, copy: { leftFolder: string | undefined } | undefined) {
    this.file = file;
    this.#handle = handle;
    this.#firstOffset = firstOffset;
    this.#copying = copy !== undefined;
    this.#leftFolder = copy?.leftFolder;
  }

  static async open(file: string, tempRoot: string = tmpdir()): Promise<HashFile> {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      throw cannotRead(file, error);
    }
    let start: Buffer;
    try {
      start = await firstBytes(handle, UTF8_BOM.length);
    } catch (error) {
      await handle.close();
      throw cannotRead(file, error);
    }
    if (!startsWith(start, GZIP_MAGIC)) return new HashFile(file, handle, startsWith(start, UTF8_BOM) ? UTF8_BOM.length : 0, undefined);
    await handle.close();
    let folder: string | undefined;
    let copy: FileHandle;
    try {
      folder = await mkdtemp(join(tempRoot, 'core-migrate-auth0-'));
      copy = await open(join(folder, 'passwords.ndjson'), 'w+', 0o600);
    } catch (error) {
      if (folder !== undefined) await rm(folder, { recursive: true, force: true });
      throw new SourceError('unreadable', { file }, `cannot make a decompressed copy in ${tempRoot}: ${(error as Error).message}`, { cause: error });
    }
    // Still empty here; from now on the copy is reached only through `copy`, and the system frees it on any exit.
    const unlinked = await rm(folder, { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    return new HashFile(file, copy, 0, { leftFolder: unlinked ? undefined : folder });
  }

  /** The one pass over the whole file: every line with its offset. A gzipped export is copied as it is decompressed. */
  firstPass(): AsyncGenerator<TextLine> {
    const text = openText(this.file);
    return splitLines(this.#copying ? this.#copied(text) : text, { file: this.file, firstOffset: this.#firstOffset });
  }

  /**
   * Each chunk reaches the copy before its lines are indexed, so a line can be read back as soon as it is seen.
   * The text was checked as UTF-8 on the way: re-encoded, it is the decompressed bytes minus any byte-order mark.
   */
  async *#copied(text: AsyncIterable<string>): AsyncGenerator<string> {
    let position = 0;
    for await (const chunk of text) {
      const bytes = Buffer.from(chunk, 'utf8');
      let written = 0;
      try {
        while (written < bytes.length) {
          const { bytesWritten } = await this.#handle.write(bytes, written, bytes.length - written, position + written);
          written += bytesWritten;
        }
      } catch (error) {
        throw new SourceError('unreadable', { file: this.file }, `cannot write the decompressed copy: ${(error as Error).message}`, { cause: error });
      }
      position += bytes.length;
      yield chunk;
    }
  }

  /**
   * The line starting at `offset` (an offset the first pass gave), without its line ending. The read is
   * synchronous on purpose: one per matched user, it takes about 2 µs from the page cache against about 20 µs
   * through the thread pool (`FileHandle.read`), which made the join five times slower than the old in-memory map.
   */
  async lineAt(offset: number): Promise<string> {
    let end = this.#newlineInBlock(offset);
    if (end === -1) end = await this.#load(offset);
    const line = this.#block.toString('utf8', offset - this.#blockStart, end);
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  /** Where the line at `offset` ends within the cached block, or -1 when the block does not hold all of it. */
  #newlineInBlock(offset: number): number {
    const from = offset - this.#blockStart;
    if (from < 0 || from >= this.#blockLength) return -1;
    const newline = this.#block.indexOf(NEWLINE, from);
    return newline === -1 || newline >= this.#blockLength ? -1 : newline;
  }

  /** Reads a block from `offset`, growing it for a line longer than a block; returns where the line ends. */
  async #load(offset: number): Promise<number> {
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = readSync(this.#handle.fd, this.#block, 0, this.#block.length, offset);
      } catch (error) {
        this.#blockLength = 0;
        throw cannotRead(this.file, error);
      }
      this.#blockStart = offset;
      this.#blockLength = bytesRead;
      const newline = this.#newlineInBlock(offset);
      if (newline !== -1) return newline;
      // The last line of a file may have no line ending.
      if (bytesRead < this.#block.length) return bytesRead;
      this.#block = Buffer.alloc(this.#block.length * 2);
    }
  }

  async close(): Promise<void> {
    try {
      await this.#handle.close();
    } finally {
      if (this.#leftFolder !== undefined) await rm(this.#leftFolder, { recursive: true, force: true });
    }
  }
}
