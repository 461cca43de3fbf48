import { mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceFingerprint } from '../../../core-client/src/push/fingerprint.js';

describe('sourceFingerprint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fingerprint-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('depends on content, not on the path', async () => {
    await writeFile(join(dir, 'a.json'), '{"users":[]}');
    await copyFile(join(dir, 'a.json'), join(dir, 'moved.json'));
    expect(await sourceFingerprint(join(dir, 'moved.json'))).toBe(await sourceFingerprint(join(dir, 'a.json')));
    expect(await sourceFingerprint(join(dir, 'a.json'))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes with the first bytes, the last bytes and the size of a big file', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    await writeFile(join(dir, 'big'), big);
    const original = await sourceFingerprint(join(dir, 'big'));
    const head = Buffer.from(big);
    head[0] = 0x62;
    const tail = Buffer.from(big);
    tail[tail.length - 1] = 0x62;
    await writeFile(join(dir, 'head'), head);
    await writeFile(join(dir, 'tail'), tail);
    await writeFile(join(dir, 'longer'), Buffer.concat([big, Buffer.from('a')]));
    const others = await Promise.all(['head', 'tail', 'longer'].map((name) => sourceFingerprint(join(dir, name))));
    for (const other of others) expect(other).not.toBe(original);
  });

  it('handles an empty file', async () => {
    await writeFile(join(dir, 'empty'), '');
    expect(await sourceFingerprint(join(dir, 'empty'))).toMatch(/^sha256:/);
  });
});
