import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import { splitLines } from '../../../core-client/src/sources/text/lines.js';
import { openText } from '../../../core-client/src/sources/text/open-text.js';
import { firstInvalidUtf8Index, incompleteTailLength } from '../../../core-client/src/sources/text/utf8.js';
import { fixture, readAll, withTempDir } from './support.js';

async function textOf(path: string): Promise<{ text: string; error: unknown }> {
  const { records, error } = await readAll(openText(path));
  return { text: records.join(''), error };
}

describe('firstInvalidUtf8Index', () => {
  it('accepts ASCII and multi-byte characters', () => {
    expect(firstInvalidUtf8Index(Buffer.from('café €𝄞'), true)).toBe(-1);
  });

  it('names the first byte that is not UTF-8', () => {
    expect(firstInvalidUtf8Index(Buffer.from([0x61, 0x62, 0xe9, 0x63]), true)).toBe(2);
    expect(firstInvalidUtf8Index(Buffer.from([0xc0, 0x80]), true)).toBe(0); // overlong
    expect(firstInvalidUtf8Index(Buffer.from([0x61, 0xed, 0xa0, 0x80]), true)).toBe(1); // surrogate
  });

  it('treats a cut character as invalid only at the end of the input', () => {
    expect(firstInvalidUtf8Index(Buffer.from([0x61, 0xe2, 0x82]), false)).toBe(-1);
    expect(firstInvalidUtf8Index(Buffer.from([0x61, 0xe2, 0x82]), true)).toBe(1);
  });

  it('counts the bytes of a character cut by the end of a chunk', () => {
    expect(incompleteTailLength(Buffer.from([0x61, 0xe2, 0x82]))).toBe(2);
    expect(incompleteTailLength(Buffer.from('a€'))).toBe(0);
    expect(incompleteTailLength(Buffer.from([0x61, 0xf0]))).toBe(1);
  });
});

describe('splitLines', () => {
  it('numbers LF and CRLF lines across chunk boundaries, with the byte offset each starts at', async () => {
    async function* chunks(): AsyncGenerator<string> {
      yield 'one\r\ntw';
      yield 'o\n\nthré';
      yield 'e';
    }
    const { records } = await readAll(splitLines(chunks(), { file: 'f', firstOffset: 3 }));
    expect(records).toEqual([
      { number: 1, text: 'one', byteOffset: 3 },
      { number: 2, text: 'two', byteOffset: 8 },
      { number: 3, text: '', byteOffset: 12 },
      { number: 4, text: 'thrée', byteOffset: 13 },
    ]);
  });
});

describe('openText', () => {
  it('reads gzip by its magic bytes, whatever the name, and by a .gz name', async () => {
    await withTempDir(async (dir) => {
      const content = '{"email":"ada@example.com"}\n';
      await writeFile(join(dir, 'users.ndjson'), gzipSync(content));
      await writeFile(join(dir, 'users.ndjson.gz'), gzipSync(content));
      expect((await textOf(join(dir, 'users.ndjson'))).text).toBe(content);
      expect((await textOf(join(dir, 'users.ndjson.gz'))).text).toBe(content);
    });
  });

  it('refuses a damaged gzip file and a .gz name without gzip inside', async () => {
    await withTempDir(async (dir) => {
      const compressed = gzipSync('{"email":"ada@example.com"}\n'.repeat(100));
      await writeFile(join(dir, 'cut.gz'), compressed.subarray(0, compressed.length - 20));
      await writeFile(join(dir, 'plain.json.gz'), '{"users": []}');
      const cut = await textOf(join(dir, 'cut.gz'));
      expect(cut.error).toBeInstanceOf(SourceError);
      expect((cut.error as SourceError).reason).toBe('bad-gzip');
      const plain = await textOf(join(dir, 'plain.json.gz'));
      expect((plain.error as SourceError).reason).toBe('bad-gzip');
    });
  });

  it('names the byte and line of a byte that is not UTF-8, after yielding the text before it', async () => {
    const path = fixture('broken/not-utf8.ndjson');
    const { text, error } = await textOf(path);
    expect(text).toBe('{"email":"ada@example.com"}\n{"email":"caf');
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).reason).toBe('not-utf8');
    expect((error as SourceError).location).toEqual({ file: path, line: 2, byteOffset: 41 });
    expect((error as SourceError).message).toContain('0xe9');
  });

  it('finds a bad byte far into a file, and accepts a character split across read chunks', async () => {
    await withTempDir(async (dir) => {
      const filler = 'a'.repeat(65535); // a read chunk (8 KiB, as any power of two up to 64 KiB) ends inside the "€" that follows
      const good = join(dir, 'good.txt');
      await writeFile(good, `${filler}€\nend\n`);
      expect((await textOf(good)).text).toBe(`${filler}€\nend\n`);
      const bad = join(dir, 'bad.txt');
      await writeFile(bad, Buffer.concat([Buffer.from(`${filler}€\nx`), Buffer.from([0xff]), Buffer.from('\n')]));
      const { error } = await textOf(bad);
      expect((error as SourceError).location).toEqual({ file: bad, line: 2, byteOffset: 65535 + 3 + 1 + 1 });
    });
  });

  it('reports a file that ends inside a character', async () => {
    const { error } = await textOf(fixture('broken/cut-utf8.ndjson'));
    expect((error as SourceError).reason).toBe('not-utf8');
    expect((error as SourceError).message).toContain('ends in the middle of a UTF-8 character');
  });

  it('refuses an empty file, a whitespace-only file and a missing one', async () => {
    expect(((await textOf(fixture('broken/empty.ndjson'))).error as SourceError).reason).toBe('empty');
    expect(((await textOf(fixture('broken/blank.ndjson'))).error as SourceError).reason).toBe('empty');
    const missing = (await textOf(fixture('broken/no-such-file.json'))).error as SourceError;
    expect(missing.reason).toBe('unreadable');
    expect(missing.message).toContain('no such file');
  });

  it('drops a byte-order mark', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'bom.csv');
      await writeFile(path, '\uFEFFemail\n');
      expect((await textOf(path)).text).toBe('email\n');
    });
  });
});
