import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
/** The built module (vitest builds dist/ first), for a plain Node run as another user. */
const ACCESS_MODULE = new URL('../../../core-client/dist/login-time/store/store-file-access.js', import.meta.url).href;
const API_KEY = 'sqlite-store-file-test-api-key-0123456789';
/** The image's user (Dockerfile): the test runs as root in CI, and opens the store as this user. */
const IMAGE_UID = 10001;

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'sqlite-store-file-'));
  // Another user must reach the store's folder for the permission test (mkdtemp makes it 0700).
  chmodSync(directory, 0o755);
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A hash's random part, as it would sit in the file's bytes. */
function secretOf(hash: string): string {
  return hash.split('$')[3] ?? hash;
}

function heldIn(path: string, hashes: readonly string[]): string[] {
  if (!existsSync(path)) return [];
  const bytes = readFileSync(path);
  return hashes.filter((hash) => bytes.includes(secretOf(hash)));
}

describe('the SQLite waiting store’s file', () => {
  it('keeps no legacy hash of a migrated user in its bytes: not in the database after a checkpoint, not in the WAL', async () => {
    const path = join(directory, 'bytes.sqlite');
    const store = await openWaitingStore(path);
    const hashes = Array.from({ length: 40 }, (_, index) => `pbkdf2_sha256$1000$salt${index}$${randomBytes(32).toString('base64')}`);
    for (const [index, legacyHash] of hashes.entries()) {
      const metadata = { note: 'x'.repeat(200) };
      await store.park({
        email: `user${index}@example.com`,
        sourceId: `old-${index}`,
        mapSourceId: false,
        emailVerified: true,
        family: 'django_pbkdf2_sha256',
        legacyHash,
        metadata,
      });
    }
    const migrated = hashes.slice(0, 35);
    const waiting = hashes.slice(35);
    for (const index of migrated.keys()) {
      await store.claim(`user${index}@example.com`);
      await store.markMigrated(`user${index}@example.com`, `core-${index}`);
    }
    // While the service runs: neither the database nor its WAL holds an arrived user's hash; the waiting ones are there.
    expect([...heldIn(path, migrated), ...heldIn(`${path}-wal`, migrated)]).toEqual([]);
    expect(new Set([...heldIn(path, waiting), ...heldIn(`${path}-wal`, waiting)])).toEqual(new Set(waiting));
    // Closing checkpoints what is left into the database.
    await store.close();
    expect(heldIn(path, migrated)).toEqual([]);
    expect(heldIn(path, waiting)).toEqual(waiting);
  });

  describe('written by another user', () => {
    let core: CoreDouble;
    beforeAll(async () => {
      core = await startCoreDouble({ apiKeys: [API_KEY] });
    });
    afterAll(async () => core.close());

    const asRoot = process.getuid?.() === 0;
    /** Who the process opening the store runs as: the image's user when the test is root (CI), else the test's own. */
    const opener = asRoot ? { uid: IMAGE_UID, gid: IMAGE_UID } : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

    /** A store written by this test's user in a folder of its own, its file (`keep: 'file'`) or its folder kept from the opener. */
    async function storeOfAnotherUser(name: string, keep: 'file' | 'folder'): Promise<{ folder: string; path: string }> {
      const folder = join(directory, name);
      const path = join(folder, 'waiting.sqlite');
      mkdirSync(folder, { mode: 0o755 });
      await (await openWaitingStore(path)).close();
      if (asRoot && keep === 'file') chownSync(folder, IMAGE_UID, IMAGE_UID);
      // Not root: the test's own user is refused by the modes instead of the owners.
      if (!asRoot) chmodSync(keep === 'file' ? path : folder, keep === 'file' ? 0o000 : 0o555);
      return { folder, path };
    }

    function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
      const child = spawn(process.execPath, args, {
        cwd: directory,
        env: { ...process.env, CORE_API_KEY: API_KEY, LOGIN_MIGRATION_SERVICE_KEY: 'a-service-key-of-this-test-0123456789' },
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(asRoot && opener),
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
    }

    it('serve names the cause of a file it may not open: permission denied, the owner found, the uid:gid to hand the store to', async () => {
      const { folder, path } = await storeOfAnotherUser('file-of-root', 'file');
      const { code, stderr } = await run([BIN, 'login-migration', 'serve', '--store', path, '--core', core.url, '--port', '0']);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`${path} cannot be opened: permission denied: the file ${path} is owned by uid ${asRoot ? 0 : opener.uid}`);
      expect(stderr).toContain(`this process runs as uid ${opener.uid}, gid ${opener.gid}`);
      expect(stderr).toContain(`chown -R ${opener.uid}:${opener.gid} ${folder}`);
      expect(stderr).not.toContain('cannot be opened as a SQLite database');
    });

    it('names a folder it may not write, where SQLite makes its -wal and -shm files', async () => {
      const { folder, path } = await storeOfAnotherUser('folder-of-root', 'folder');
      const opening = `import('${ACCESS_MODULE}').then(({ storeAccessProblem }) => process.stderr.write(storeAccessProblem(process.argv[1]) ?? 'none'))`;
      const { stderr } = await run(['-e', opening, path]);
      expect(stderr).toMatch(
        new RegExp(`^permission denied: its folder ${folder} is owned by uid ${asRoot ? 0 : opener.uid}, gid \\d+, mode 0[57]55, where SQLite`),
      );
      expect(stderr).toContain(`chown -R ${opener.uid}:${opener.gid} ${folder}`);
    });
  });
});
