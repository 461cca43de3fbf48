import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainHttpWarning, readableByOthersWarning } from '../../../core-client/src/files/exposure-warnings.js';

describe('plainHttpWarning', () => {
  it('warns for plain http:// to a host that is not this machine', () => {
    expect(plainHttpWarning('http://core.internal:3567')).toBe(
      'Warning: http://core.internal:3567 is plain http:// to another host: the api-key and every password hash travel in clear. Use https://, or an SSH tunnel to 127.0.0.1.',
    );
    expect(plainHttpWarning('http://10.0.0.5:3567/core')).toMatch(/^Warning: http:\/\/10\.0\.0\.5:3567 is plain http/);
    expect(plainHttpWarning('http://[fe80::1]:3567')).toMatch(/plain http/);
    expect(plainHttpWarning('http://[::ffff:10.0.0.5]:3567')).toMatch(/plain http/);
  });

  it('stays quiet for https:// and for loopback addresses', () => {
    for (const url of [
      'https://core.example.com',
      'http://127.0.0.1:3567',
      'http://127.1.2.3',
      'http://localhost:3567',
      'http://[::1]:3567',
      'http://[::ffff:127.0.0.1]:3567',
      'http://app.localhost',
    ]) {
      expect(plainHttpWarning(url), url).toBeUndefined();
    }
  });
});

describe('readableByOthersWarning', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'exposure-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('warns for a secret file readable by its group or by everyone, not for one only its owner reads', async () => {
    const path = join(dir, 'hash-config.json');
    await writeFile(path, '{}');
    await chmod(path, 0o644);
    expect(await readableByOthersWarning(path, 'the signer key')).toBe(
      `Warning: ${path} holds the signer key and is readable by every user of this machine (mode 644): run chmod 600 ${path}.`,
    );
    await chmod(path, 0o640);
    expect(await readableByOthersWarning(path, 'the signer key')).toMatch(/readable by its group \(mode 640\)/);
    await chmod(path, 0o600);
    expect(await readableByOthersWarning(path, 'the signer key')).toBeUndefined();
  });
});
