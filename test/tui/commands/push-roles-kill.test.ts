import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import type { CoreClient } from '../../../core-client/src/http/core-client.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';
import { coreClientOf, writeFirebaseRolesExport } from './roles-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const EXTRA_USERS = 20;

describe('roles across a killed push, and a rollback', () => {
  let core: CoreDouble;
  let client: CoreClient;
  let dir: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    client = coreClientOf(core);
    dir = await mkdtemp(join(tmpdir(), 'push-roles-kill-'));
  });
  afterEach(async () => {
    await client.close();
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a push killed (SIGKILL) between "created" and "roles assigned" gives the roles on resume; rollback then removes users and the roles it created', async () => {
    const files = await writeFirebaseRolesExport(dir, { 'fb-ann': { roles: ['admin', 'editor'] } }, EXTRA_USERS);
    const journal = join(dir, 'push.journal');
    const args = [
      'push',
      files.exportPath,
      '--core',
      core.url,
      '--hash-config',
      files.hashConfigPath,
      '--journal',
      journal,
      '--report',
      join(dir, 'report.ndjson'),
      '--roles-from',
      'customClaims.roles',
      '--roles-file',
      files.rolesPath,
    ];
    // Every role assignment is held: the child is killed with users created, mapped and described, but without roles.
    core.faults.holdPath('/recipe/user/role', 'PUT');
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, CORE_API_KEY: API_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    await waitFor(() => core.faults.heldCount() >= 1, 'the first role assignment', 20_000);
    child.kill('SIGKILL');
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    // The held assignments were fully sent: a core may still act on them after their client died, or not. Both resume.
    core.faults.releaseHeld();
    core.faults.clearFaults();
    const lines = await readFile(journal, 'utf8');
    expect(lines).toContain('"s":"metadata"');
    expect(lines).not.toContain('"s":"roles"');
    // The roles were created before the first user, and recorded for the rollback.
    expect((await readFile(`${journal}.roles`, 'utf8')).trim().split('\n')).toEqual(['{"role":"admin"}', '{"role":"editor"}']);

    const resumed = await runCli([...args, '--json'], dir);
    expect(resumed.exitCode).toBe(0);
    const summary = jsonOf(resumed);
    expect(summary).toMatchObject({ failed: 0, notAttempted: 0, roles: { created: [], existing: ['admin', 'editor'] } });
    const steps = summary['steps'] as Record<string, number>;
    expect(steps['completedAfterResume']).toBeGreaterThanOrEqual(1);
    expect(await client.userRoles('fb-ann')).toEqual(['admin', 'editor']);
    for (let index = 1; index <= EXTRA_USERS; index += 1) expect(await client.userRoles(`fb-x${index}`)).toEqual(['editor']);
    expect(await client.rolePermissions('admin')).toEqual(['users:read', 'users:write']);

    // Someone gives a role the migration created to a user of their own: the rollback keeps that role.
    const theirs = await client.importPasswordHash({
      email: 'theirs@example.com',
      passwordHash: '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
    });
    await client.addUserRole({ userId: theirs.userId, role: 'editor' });

    const dryRun = await runCli(['rollback', '--journal', journal, '--core', core.url, '--dry-run', '--json'], dir);
    expect(jsonOf(dryRun)).toMatchObject({ dryRun: true, roles: { created: 2, removed: [], kept: [] } });
    expect(await client.listRoles()).toEqual(['admin', 'editor']);

    const rolledBack = await runCli(['rollback', '--journal', journal, '--core', core.url, '--json'], dir);
    expect(rolledBack.exitCode).toBe(0);
    expect(jsonOf(rolledBack)).toMatchObject({ removed: EXTRA_USERS + 1, roles: { created: 2, removed: ['admin'], kept: [{ role: 'editor', users: 1 }] } });
    expect(core.users().map((user) => user.email)).toEqual(['theirs@example.com']);
    expect(await client.listRoles()).toEqual(['editor']);
    expect(await client.userRoles(theirs.userId)).toEqual(['editor']);
  });
});
