import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFailureReason, readSettingText } from '../../../core-client/src/files/setting-text.js';

describe('readSettingText: a file a setting names, read with a bound', () => {
  it('reads a small file whole, multi-byte characters across chunk boundaries included', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'setting-text-')), 'config.txt');
    const text = `${'é'.repeat(70_000)}\nend\n`;
    await writeFile(path, text);
    expect(await readSettingText(path)).toBe(text);
  });

  it('refuses a file over the bound, and an endless one, after reading no more than the bound', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'setting-text-')), 'big.txt');
    await writeFile(path, 'x'.repeat(1001));
    await expect(readSettingText(path, 1000)).rejects.toMatchObject({ code: 'EFBIG' });
    expect(await readSettingText(path, 1001)).toHaveLength(1001);
    const endless = await readSettingText('/dev/zero').catch((error: unknown) => error);
    expect(readFailureReason(endless)).toBe('more than 4 MiB: is it the right file?');
  });

  it('names the code of any other failure', async () => {
    const missing = await readSettingText('/nonexistent/config.txt').catch((error: unknown) => error);
    expect(readFailureReason(missing)).toBe('ENOENT');
  });
});
