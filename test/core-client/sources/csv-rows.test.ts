import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../core-client/src/sources/csv/csv-rows.js';
import { splitLines } from '../../../core-client/src/sources/text/lines.js';
import { readAll } from './support.js';

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function rows(text: string, limits = { maxRecordChars: 1 << 20, batchRecords: 2 }) {
  const { records, error } = await readAll(readCsvRows(splitLines(once(text), { file: 'f.csv' }), limits));
  expect(error).toBeUndefined();
  return records.map((row) => (row.kind === 'row' ? [row.line, ...row.fields] : [row.line, 'ERROR']));
}

describe('readCsvRows', () => {
  it('numbers records by the line they start on and skips blank lines', async () => {
    expect(await rows('a,b\n\n"x\ny",z\nc,d\n')).toEqual([
      [1, 'a', 'b'],
      [3, 'x\ny', 'z'],
      [5, 'c', 'd'],
    ]);
  });

  it('costs a stray closing quote its own row only, whichever batch it falls in', async () => {
    const text = ['1,a', '2,"b"x', '3,c', '4,d', '5,e', ''].join('\n');
    for (const batchRecords of [1, 2, 3, 100]) {
      expect(await rows(text, { maxRecordChars: 1 << 20, batchRecords })).toEqual([
        [1, '1', 'a'],
        [2, 'ERROR'],
        [3, '3', 'c'],
        [4, '4', 'd'],
        [5, '5', 'e'],
      ]);
    }
  });

  it('gives up only the first line of a record swallowed by an opening quote', async () => {
    // Line 2's stray quote pairs with line 4's quote; the record 2-4 fails, lines 3-4 are read again.
    const text = ['1,a', '2,b"c', '3,c', '4,"d', 'e",f', '6,g', ''].join('\n');
    expect(await rows(text)).toEqual([
      [1, '1', 'a'],
      [2, 'ERROR'],
      [3, '3', 'c'],
      [4, '4', 'd\ne', 'f'],
      [6, '6', 'g'],
    ]);
  });

  it('gives up an opening quote that is not closed within the limit, keeping memory bounded', async () => {
    const text = ['1,"open', '2,a', '3,b', '4,c', ''].join('\n');
    expect(await rows(text, { maxRecordChars: 10, batchRecords: 2 })).toEqual([
      [1, 'ERROR'],
      [2, '2', 'a'],
      [3, '3', 'b'],
      [4, '4', 'c'],
    ]);
  });
});
