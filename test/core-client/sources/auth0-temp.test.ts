import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { withTempDir } from './support.js';

const HOLDER = fileURLToPath(new URL('./hold-hash-file.ts', import.meta.url));

function hashExport(count: number): Buffer {
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify({ _id: { $oid: `oid${index}` }, email: `user${index}@example.com`, passwordHash: `$2b$10$${'h'.repeat(53)}` }),
  );
  return gzipSync(`${lines.join('\n')}\n`);
}

describe('the decompressed Auth0 hash export', () => {
  it('leaves nothing in the temp folder when the process reading it is killed with SIGKILL', async () => {
    await withTempDir(async (dir) => {
      const gzipped = join(dir, 'passwords.ndjson.gz');
      await writeFile(gzipped, hashExport(20_000));
      const tempRoot = join(dir, 'tmp');
      await mkdir(tempRoot);
      const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, gzipped, tempRoot], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = once(child, 'exit');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => stdout.includes('\n') && resolve());
        child.once('exit', () => reject(new Error(`the child ended before it was ready: ${stderr}`)));
      });
      // The copy was being read (a hash line came back from it) when the child was killed.
      expect(stdout).toMatch(/^ready \{"_id":\{"\$oid":"oid0"\}/);
      child.kill('SIGKILL');
      await exited;
      expect(await readdir(tempRoot)).toEqual([]);
    });
  });
});
