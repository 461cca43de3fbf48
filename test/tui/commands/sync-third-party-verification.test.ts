import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const googleUser = (emailVerified: boolean) => ({
  localId: 'fb-grace',
  email: 'grace@example.com',
  emailVerified,
  providerUserInfo: [{ providerId: 'google.com', rawId: 'g-grace', email: 'grace@example.com' }],
});

// Found on a real core (test/real-core): sign-in-up verifies an email but never un-verifies it, so a sync that only
// sent sign-in-up again left a verification the old system had withdrawn.
describe('core-migrate sync: a third-party user whose verification the old system withdrew', () => {
  let core: CoreDouble;
  let dir: string;
  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'sync-tp-verification-'));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is unverified in the core after the sync', async () => {
    const run = async (command: 'push' | 'sync', name: string, emailVerified: boolean) => {
      await writeFile(join(dir, name), `${JSON.stringify({ users: [googleUser(emailVerified)] })}\n`);
      return runCli([command, name, '--core', core.url, '--journal', 'journal.ndjson', '--json'], dir);
    };
    expect((await run('push', 'monday.json', true)).exitCode).toBe(0);
    expect(core.identity.isVerified('fb-grace', 'grace@example.com')).toBe(true);

    const sync = await run('sync', 'tuesday.json', false);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(jsonOf(sync)).toMatchObject({ updated: 1, failed: 0 });
    expect(core.identity.isVerified('fb-grace', 'grace@example.com')).toBe(false);
  });
});
