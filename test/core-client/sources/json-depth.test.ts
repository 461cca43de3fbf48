import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_DEPTH, TOO_DEEP_REASON, nestsDeeperThan } from '../../../core-client/src/sources/json/json-depth.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { readAll, withTempDir } from './support.js';

const nested = (depth: number): string => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan(nested(10), 10)).toBe(false);
    expect(nestsDeeperThan(nested(12), 10)).toBe(true);
    const padded = `{"text": "${'[{'.repeat(50)} \\" ${'[{'.repeat(50)}", "a": [[[1]]]}`;
    expect(nestsDeeperThan(padded, 4)).toBe(false);
    expect(nestsDeeperThan(padded, 3)).toBe(true);
  });
});

describe('records nested too deep in the line formats', () => {
  it('an NDJSON line nested too deep is a malformed record, even the first, and the lines after it are read', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      const deep = JSON.stringify({ email: 'a@example.com', meta: JSON.parse(nested(MAX_RECORD_DEPTH)) as unknown });
      await writeFile(file, `${deep}\n${JSON.stringify({ email: 'b@example.com', meta: JSON.parse(nested(MAX_RECORD_DEPTH - 2)) as unknown })}\n`);
      const { records, error } = await readAll(readSource(file, { format: 'ndjson' }));
      expect(error).toBeUndefined();
      expect(records).toEqual([
        { kind: 'malformed', location: { file, line: 1 }, reason: TOO_DEEP_REASON },
        expect.objectContaining({ kind: 'user', email: 'b@example.com' }),
      ]);
    });
  });

  it('Firebase custom claims nested too deep are kept as their text', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.json');
      const claims = nested(MAX_RECORD_DEPTH + 2);
      await writeFile(file, JSON.stringify({ users: [{ localId: 'fb-1', customAttributes: claims }] }));
      const { records, error } = await readAll(readSource(file, { format: 'firebase-json' }));
      expect(error).toBeUndefined();
      expect(records[0]).toMatchObject({ kind: 'user', profile: { customClaims: { raw: claims } } });
    });
  });
});
