import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcryptjs from 'bcryptjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const lines = (users: object[]): string => `${users.map((user) => JSON.stringify(user)).join('\n')}\n`;

describe('core-migrate sync --login-time --verify-with keeps the users the old system checks in step', () => {
  let core: CoreDouble;
  let dir: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'old-system-sync-'));
    // Not asked by a push or a sync: only the service asks it.
    await writeFile(join(dir, 'old-system.json'), JSON.stringify({ kind: 'openid', tokenEndpoint: 'http://127.0.0.1:9/token', clientId: 'migrator' }));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('re-parks a new email under the same old id, lets a user with an importable hash now leave the store, and takes the gone out', async () => {
    const flags = ['--core', core.url, '--login-time', 'waiting.sqlite', '--verify-with', 'old-system.json', '--journal', 'journal.ndjson', '--json'];
    await writeFile(
      join(dir, 'monday.ndjson'),
      lines([
        { id: 'o-1', email: 'ann@example.com' },
        { id: 'o-2', email: 'bob@example.com' },
        { id: 'o-3', email: 'gone@example.com' },
      ]),
    );
    expect(jsonOf(await runCli(['push', 'monday.ndjson', ...flags], dir))).toMatchObject({ parkedForLogin: 3 });

    await writeFile(
      join(dir, 'tuesday.ndjson'),
      lines([
        { id: 'o-1', email: 'ann.new@example.com' },
        { id: 'o-2', email: 'bob@example.com', passwordHash: bcryptjs.hashSync('bob password', 4) },
      ]),
    );
    const sync = await runCli(['sync', 'tuesday.ndjson', ...flags], dir);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(core.emailPasswordUsers().map((user) => user.email)).toEqual(['bob@example.com']);
    const store = await openWaitingStore(join(dir, 'waiting.sqlite'));
    try {
      expect(await store.find('ann.new@example.com')).toMatchObject({ sourceId: 'o-1', oldSystem: 'openid', state: 'waiting' });
      for (const email of ['ann@example.com', 'bob@example.com', 'gone@example.com']) expect(await store.find(email)).toBeUndefined();
      expect(await store.counts()).toMatchObject({ waiting: 1, migrated: 0 });
    } finally {
      await store.close();
    }
  });
});
