import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonArrayItems, type JsonArrayItem, type JsonArrayShape } from '../../../core-client/src/sources/json/json-array-items.js';
import { MAX_RECORD_DEPTH } from '../../../core-client/src/sources/json/json-depth.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import { readAll } from './support.js';

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

function read(text: string, shape: JsonArrayShape = {}, chunkSize = 64 * 1024): Promise<{ records: JsonArrayItem[]; error: unknown }> {
  return readAll(readJsonArrayItems('f.json', chunksOf(text, chunkSize), shape));
}

function valuesOf(items: JsonArrayItem[]): unknown[] {
  return items.map((item) => ('value' in item ? item.value : item.problem));
}

function sourceError(error: unknown): SourceError {
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

const elements = [
  { localId: 'a', email: 'ada@example.com', nested: { list: [1, -2.5e-3, 0, 1e10, true, false, null], empty: {}, none: [] } },
  'a string with "quotes", a \\ backslash, \u00e9, \u20ac, \ud834\udd1e and \u0000 \n\t escapes',
  -0.0,
  123456789012,
  [[], [[]], {}],
  null,
];

describe('readJsonArrayItems: what JSON.parse reads, element by element', () => {
  it.each([1, 2, 3, 7, 64 * 1024])('reads every kind of value the same in chunks of %i characters', async (size) => {
    const text = ` [\n${elements.map((element) => JSON.stringify(element, null, size % 2 === 0 ? 0 : 2)).join(' ,\r\n')}\n]\n`;
    const { records, error } = await read(text, {}, size);
    expect(error).toBeUndefined();
    expect(records.map((item) => item.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(valuesOf(records)).toEqual(JSON.parse(text));
  });

  it('reads any JSON value as an element, however the text is cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 6 }), { maxLength: 5 }), fc.integer({ min: 1, max: 40 }), async (values, size) => {
        const text = JSON.stringify(values);
        const { records, error } = await read(text, {}, size);
        expect(error).toBeUndefined();
        expect(valuesOf(records)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses exactly what JSON.parse refuses (property over near-JSON text)', async () => {
    const pieces = [
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      '"a"',
      '"\\u00e9"',
      '"\\x"',
      '"\\u12"',
      '1',
      '-',
      '0',
      '01',
      '1.',
      '.5',
      '1e',
      '1e+2',
      'true',
      'tru',
      'null',
      ' ',
      '\n',
      '"\t"',
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (parts, size) => {
        const text = `[${parts.join('')}]`;
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const { error } = await read(text, {}, size);
        expect(error === undefined).toBe(valid);
        if (!valid) expect(['not-json', 'truncated']).toContain(sourceError(error).reason);
      }),
    );
  });
});

describe('readJsonArrayItems: broken files', () => {
  it('names the line and the UTF-8 byte of a syntax error, after the elements before it', async () => {
    const text = '[\n{"name": "é€𝄞"},\n{"name": "b"}\n{"name": "c"}\n]';
    const { records, error } = await read(text, {}, 5);
    expect(records).toHaveLength(2);
    const failure = sourceError(error);
    expect(failure.reason).toBe('not-json');
    // 2 bytes of "[\n", 23 of the first line (é 2, € 3, 𝄞 4 bytes; the chunks cut 𝄞 in two) and 14 of the second.
    expect(failure.location).toEqual({ file: 'f.json', line: 4, byteOffset: 2 + 23 + 14 });
    expect(failure.message).toMatch(/line 4 \(byte 39\): unexpected "\{", expected ','; the last element read is #1$/);
  });

  it('a cut file names its end and the element it cuts', async () => {
    const { records, error } = await read('[{"a": 1}, {"a": "two', {}, 3);
    expect(records).toHaveLength(1);
    const failure = sourceError(error);
    expect(failure.reason).toBe('truncated');
    expect(failure.location).toEqual({ file: 'f.json', line: 1, byteOffset: 21 });
    expect(failure.message).toContain('(element #1 is not complete); it looks cut short; the last element read is #0');
  });

  it('refuses text after the array, and a second document', async () => {
    expect(sourceError((await read('[1] 2')).error).message).toContain('unexpected "2" after the end of the JSON');
    expect(sourceError((await read('[1]\n[2]')).error).location).toMatchObject({ line: 2, byteOffset: 4 });
  });

  it('refuses an array where an object with the key is expected, and the other way round', async () => {
    const object = sourceError((await read('[]', { arrayKey: 'users' })).error);
    expect(object.reason).toBe('wrong-format');
    expect(object.message).toContain('expected a JSON object with a "users" array, but the file starts with "["');
    expect(sourceError((await read(' \n{"users": []}')).error).detail).toBe('expected a JSON array, but the file starts with "{"');
  });
});

describe('readJsonArrayItems: the array under a key', () => {
  const users = { arrayKey: 'users' };

  it('finds the key after other keys, reads the keys after it, and takes an escaped spelling of it', async () => {
    const text = '{"version": {"a": [1, {"users": [9]}]}, "users": [{"id": 1}, {"id": 2}], "after": [[{"users": 3}]]}';
    const { records, error } = await read(text, users, 4);
    expect(error).toBeUndefined();
    expect(valuesOf(records)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(valuesOf((await read('{"us\\u0065rs": [1]}', users)).records)).toEqual([1]);
    const longKey = `{"${'users'.repeat(60)}": [0], "users": [1]}`;
    expect(valuesOf((await read(longKey, users, 7)).records)).toEqual([1]);
  });

  it('refuses a file without the key, a key that holds no array, and the key twice', async () => {
    const missing = sourceError((await read('{"people": [1]}', users)).error);
    expect(missing.reason).toBe('wrong-format');
    expect(missing.detail).toBe('expected a JSON object with a "users" array, but there is no "users" key at the top level');
    const notArray = sourceError((await read('{"users": {"a": 1}}', users)).error);
    expect(notArray.detail).toBe('expected a JSON object with a "users" array, but "users" holds an object');
    expect(notArray.location).toEqual({ file: 'f.json', line: 1, byteOffset: 10 });
    const twice = await read('{"users": [1], "users": [2]}', users);
    expect(valuesOf(twice.records)).toEqual([1]);
    expect(sourceError(twice.error).detail).toContain('the "users" key appears twice at the top level');
  });

  // Issue 11: the stream-json reader took 107 s for 100,000 levels beside the users (and in some shapes never
  // finished). Linear, a million levels is a few megabytes read in a fraction of a second: the timeout alone fails the
  // old code, and nothing here times the new one.
  it('reads past a million levels of nesting beside the users, before and after them', { timeout: 10_000 }, async () => {
    const levels = 1_000_000;
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const deepObject = `${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`;
    const text = `{"before": ${deep}, "users": [{"localId": "a"}, {"localId": "b"}], "after": ${deepObject}}`;
    const { records, error } = await read(text, users);
    expect(error).toBeUndefined();
    expect(valuesOf(records)).toEqual([{ localId: 'a' }, { localId: 'b' }]);
  });
});

describe('readJsonArrayItems: bounds', () => {
  it(`hands on a record nested deeper than ${MAX_RECORD_DEPTH} levels as a problem naming it, and reads on`, async () => {
    const nested = (depth: number): string => `${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}`;
    const { records, error } = await read(`[${nested(MAX_RECORD_DEPTH)}, ${nested(MAX_RECORD_DEPTH + 1)}, "next"]`, {}, 7);
    expect(error).toBeUndefined();
    expect(records[0]).toHaveProperty('value');
    expect(records[1]).toEqual({ index: 1, problem: `the record nests deeper than ${MAX_RECORD_DEPTH} levels, deeper than any export of users` });
    expect(records[2]).toEqual({ index: 2, value: 'next' });
  });

  it.each([4096, 100])('stops at an element longer than the limit, naming it and where it starts (chunks of %i)', async (size) => {
    const { records, error } = await read(`[1,\n "${'é'.repeat(600)}", 3]`, { maxElementBytes: 1_000 }, size);
    expect(valuesOf(records)).toEqual([1]);
    const failure = sourceError(error);
    expect(failure.reason).toBe('record-too-long');
    expect(failure.location).toEqual({ file: 'f.json', index: 1, line: 2, byteOffset: 5 });
    expect(failure.detail).toBe('element #1 is longer than 1000 bytes, far more than any user record: the file is damaged or not an export of users');
  });

  it('an element of exactly the limit is read; the limit counts bytes', async () => {
    const { records, error } = await read(`["${'é'.repeat(499)}"]`, { maxElementBytes: 1_000 }, 10);
    expect(error).toBeUndefined();
    expect(records).toHaveLength(1);
  });

  it('an endless element ends with that error without holding it', async () => {
    async function* endless(): AsyncGenerator<string> {
      yield '{"users": [{"note": "';
      for (;;) yield 'y'.repeat(4096);
    }
    const { error } = await readAll(readJsonArrayItems('f.json', endless(), { arrayKey: 'users', maxElementBytes: 64 * 1024 }));
    expect(sourceError(error).reason).toBe('record-too-long');
  });
});
