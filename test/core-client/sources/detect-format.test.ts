import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../core-client/src/sources/detect-format.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import { fixture, readAll, withTempDir } from './support.js';

describe('detectFormat', () => {
  it.each([
    ['firebase/users.json', 'firebase-json'],
    ['firebase/users.csv', 'firebase-csv'],
    ['firebase/users-wide.csv', 'firebase-csv'],
    ['auth0/users.ndjson', 'auth0'],
    ['auth0/passwords.ndjson', 'auth0'],
    ['generic/users.ndjson', 'ndjson'],
    ['generic/users-array.json', 'json-array'],
    ['generic/users.csv', 'csv'],
    ['generic/mapped.csv', 'csv'],
  ])('%s is %s', async (file, format) => {
    expect(await detectFormat(fixture(file))).toBe(format);
  });

  it.each([
    ['export.ndjson', 'null', 'ndjson'],
    ['export.ndjson', '42', 'ndjson'],
    ['export', 'null', 'ndjson'],
    ['auth0.ndjson', 'true', 'auth0'],
  ])('%s whose first line is %s (a record refused later, not the wrong format)', async (name, firstLine, format) => {
    await withTempDir(async (dir) => {
      const path = join(dir, name);
      const record = format === 'auth0' ? '{"user_id":"auth0|1","email":"a@x.io"}' : '{"email":"a@x.io"}';
      await writeFile(path, `${firstLine}\n${record}\n`);
      expect(await detectFormat(path)).toBe(format);
    });
  });

  it('looks inside gzip, and at the content when the name says nothing', async () => {
    await withTempDir(async (dir) => {
      const gz = join(dir, 'export.json.gz');
      await writeFile(gz, gzipSync('{"users": [{"localId": "a"}]}'));
      expect(await detectFormat(gz)).toBe('firebase-json');
      const noName = join(dir, 'export');
      await writeFile(noName, gzipSync('{"user_id":"auth0|1"}\n'));
      expect(await detectFormat(noName)).toBe('auth0');
      const { records } = await readAll(readSource(noName));
      expect(records).toEqual([expect.objectContaining({ sourceId: 'auth0|1' })]);
    });
  });

  it('returns a SourceError for a file of the wrong format, an empty file, and a file that is not UTF-8', async () => {
    const wrong = await detectFormat(fixture('broken/csv-named.json'));
    expect(wrong).toBeInstanceOf(SourceError);
    expect((wrong as SourceError).reason).toBe('wrong-format');
    expect(((await detectFormat(fixture('broken/empty.ndjson'))) as SourceError).reason).toBe('empty');
    await withTempDir(async (dir) => {
      const binary = join(dir, 'photo.png');
      await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(((await detectFormat(binary)) as SourceError).reason).toBe('not-utf8');
    });
  });

  it('makes readSource throw the detection error', async () => {
    const { error } = await readAll(readSource(fixture('broken/csv-named.json')));
    expect((error as SourceError).reason).toBe('wrong-format');
  });
});
