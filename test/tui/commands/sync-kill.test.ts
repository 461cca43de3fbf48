import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const USERS = 40;

describe('a sync killed at a random moment resumes exactly', () => {
  let core: CoreDouble;
  let dir: string;
  let hash: string;
  const exportOf = (name: string, label: string) =>
    writeFile(
      join(dir, name),
      `${JSON.stringify({
        users: Array.from({ length: USERS }, (_, index) => ({
          localId: `fb-${index}`,
          email: `user${index}@example.com`,
          emailVerified: true,
          passwordHash: hash,
          displayName: `${label} ${index}`,
        })),
      })}\n`,
    );
  const args = (command: string, file: string, ...extra: string[]) => [command, join(dir, file), '--core', core.url, '--journal', 'journal.ndjson', ...extra];
  const metadataWrites = (): { userId: string; name: unknown }[] =>
    core
      .requests()
      .filter((request) => request.method === 'PUT' && request.path.endsWith('/recipe/user/metadata'))
      .map((request) => {
        // The pre-flight's probe sends an empty body (nothing to act on).
        const body = request.body as { userId?: string; metadataUpdate?: { displayName?: unknown } };
        return { userId: body.userId ?? '', name: body.metadataUpdate?.displayName };
      })
      .filter((write) => write.userId !== '');

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'sync-kill-'));
    hash = await bcryptHashOf('password');
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('killed (SIGKILL) mid-sync, the resume sends each change not yet journalled and none that was; a further sync sends nothing', async () => {
    await exportOf('monday.json', 'Old');
    expect((await runCli(args('push', 'monday.json'), dir)).exitCode).toBe(0);
    await exportOf('tuesday.json', 'New');
    core.faults.setLatencyMs(15);
    const child = spawn(process.execPath, [BIN, ...args('sync', 'tuesday.json', '--concurrency', '2')], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    const killAfter = 5 + Math.floor(Math.random() * 20);
    await waitFor(() => metadataWrites().filter((write) => String(write.name).startsWith('New')).length >= killAfter, 'some changes sent', 20_000);
    child.kill('SIGKILL');
    await exited;
    core.faults.setLatencyMs(0);
    const beforeResume = metadataWrites().filter((write) => String(write.name).startsWith('New')).length;
    expect(beforeResume).toBeLessThan(USERS);

    const resumed = await runCli(args('sync', 'tuesday.json', '--json'), dir);
    expect(resumed.exitCode).toBe(0);
    const sync = jsonOf(resumed)['sync'] as { changed: number; unchanged: number };
    const changes = metadataWrites().filter((write) => String(write.name).startsWith('New'));
    // None skipped: every user has its new name.
    for (let index = 0; index < USERS; index += 1) expect(core.identity.metadataOf(`fb-${index}`)['displayName']).toBe(`New ${index}`);
    // None sent twice, but those whose answer the kill cut off before they were journalled (at most the two in flight
    // and the lines of the last event-loop turn).
    expect(sync.changed).toBe(changes.length - beforeResume);
    expect(changes.length - USERS).toBeLessThanOrEqual(4);
    expect(sync.changed + sync.unchanged).toBe(USERS);

    const writesBefore = metadataWrites().length;
    const again = await runCli(args('sync', 'tuesday.json', '--json'), dir);
    expect(jsonOf(again)['sync']).toMatchObject({ changed: 0, unchanged: USERS });
    expect(metadataWrites()).toHaveLength(writesBefore);
  });
});
