import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import { DEFAULT_MAX_LINE_BYTES, splitLines } from '../../../core-client/src/sources/text/lines.js';
import { readAll, withTempDir } from './support.js';

async function* pieces(...texts: string[]): AsyncGenerator<string> {
  for (const text of texts) yield text;
}

function expectLineTooLong(error: unknown, file: string, line: number): void {
  expect(error).toBeInstanceOf(SourceError);
  const sourceError = error as SourceError;
  expect(sourceError.reason).toBe('line-too-long');
  expect(sourceError.location).toMatchObject({ file, line });
  expect(sourceError.message).toContain(`line ${line} is longer than`);
}

describe('splitLines with a line limit', () => {
  it('joins a line that spans many chunks once, with the right offsets', async () => {
    const long = 'x'.repeat(5_000);
    const chunks = ['a\n', ...long.match(/.{1,7}/g)!, '\r\nb'];
    const { records, error } = await readAll(splitLines(pieces(...chunks), { file: 'f' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      { number: 1, text: 'a', byteOffset: 0 },
      { number: 2, text: long, byteOffset: 2 },
      { number: 3, text: 'b', byteOffset: 5_004 },
    ]);
  });

  it('a 15 MiB line arriving in 1 KiB pieces is joined once: each piece is looked at once (linear time)', async () => {
    // A splitter that joins and rescans what it holds at every piece (the former one) does about 115 GiB of copying
    // here and never ends within the test's timeout; this one joins the 15,360 pieces once, at the line's end.
    const piece = 'z'.repeat(1024);
    async function* manyPieces(): AsyncGenerator<string> {
      yield 'first\n';
      for (let index = 0; index < 15 * 1024; index += 1) yield piece;
      yield '\nlast\n';
    }
    const { records, error } = await readAll(splitLines(manyPieces(), { file: 'f' }));
    expect(error).toBeUndefined();
    expect(records.map((line) => [line.number, line.text.length, line.byteOffset])).toEqual([
      [1, 5, 0],
      [2, 15 * 1024 * 1024, 6],
      [3, 4, 6 + 15 * 1024 * 1024 + 1],
    ]);
  });

  it('a line over the limit ends the stream with an error naming its number; the lines before it come first', async () => {
    const { records, error } = await readAll(
      splitLines(pieces('ok\n', 'fine\n', 'é'.repeat(300), 'é'.repeat(300), '\nnever'), { file: 'f', maxLineBytes: 1_000 }),
    );
    expect(records.map((line) => line.text)).toEqual(['ok', 'fine']);
    expectLineTooLong(error, 'f', 3);
  });

  it('a line of exactly the limit is read; the limit counts bytes, not characters', async () => {
    const { records, error } = await readAll(splitLines(pieces('é'.repeat(500), '\n'), { file: 'f', maxLineBytes: 1_000 }));
    expect(error).toBeUndefined();
    expect(records).toHaveLength(1);
    const over = await readAll(splitLines(pieces('é'.repeat(500), 'a\n'), { file: 'f', maxLineBytes: 1_000 }));
    expectLineTooLong(over.error, 'f', 1);
  });

  it('an endless last line without a line ending is stopped too', async () => {
    async function* endless(): AsyncGenerator<string> {
      for (;;) yield 'y'.repeat(4_096);
    }
    const { error } = await readAll(splitLines(endless(), { file: 'f', maxLineBytes: 64 * 1024 }));
    expectLineTooLong(error, 'f', 1);
  });
});

describe('endless lines in real files end with a sentence, not a RangeError', () => {
  it.each(['ndjson', 'csv', 'auth0', 'firebase-csv'] as const)('/dev/zero read as %s', async (format) => {
    const { error } = await readAll(readSource('/dev/zero', { format }));
    expectLineTooLong(error, '/dev/zero', 1);
  });

  it('/dev/zero for detection', async () => {
    expectLineTooLong(await detectFormat('/dev/zero'), '/dev/zero', 1);
  });

  it('a gzip bomb of one endless line, as an export and as the Auth0 password file', async () => {
    await withTempDir(async (dir) => {
      const bomb = gzipSync(Buffer.alloc(DEFAULT_MAX_LINE_BYTES + 4 * 1024 * 1024, '{'.charCodeAt(0)), { level: 9 });
      const exportFile = join(dir, 'users.ndjson.gz');
      await writeFile(exportFile, bomb);
      expectLineTooLong((await readAll(readSource(exportFile, { format: 'ndjson' }))).error, exportFile, 1);

      const users = join(dir, 'users.ndjson');
      await writeFile(users, `${JSON.stringify({ user_id: 'auth0|1', email: 'a@example.com' })}\n`);
      const passwords = join(dir, 'passwords.ndjson.gz');
      await writeFile(passwords, bomb);
      expectLineTooLong((await readAll(readSource(users, { format: 'auth0', auth0PasswordFile: passwords }))).error, passwords, 1);
    });
  });
});

describe('format detection reads a first line longer than its usual head', () => {
  it('NDJSON and Auth0 whose first line is 200 KiB', async () => {
    await withTempDir(async (dir) => {
      const padding = 'p'.repeat(200 * 1024);
      const ndjson = join(dir, 'users.ndjson');
      await writeFile(ndjson, `${JSON.stringify({ note: padding, email: 'a@example.com' })}\n${JSON.stringify({ email: 'b@example.com' })}\n`);
      expect(await detectFormat(ndjson)).toBe('ndjson');
      const auth0 = join(dir, 'auth0-users.json');
      await writeFile(auth0, `${JSON.stringify({ note: padding, user_id: 'auth0|1', email: 'a@example.com' })}\n`);
      expect(await detectFormat(auth0)).toBe('auth0');
    });
  });

  it('a first line over the limit is named as such, not as an unknown format', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      await writeFile(file, `${JSON.stringify({ note: 'q'.repeat(300 * 1024) })}\n`);
      expectLineTooLong(await detectFormat(file, 128 * 1024), file, 1);
    });
  });
});
