import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreClient } from '../../../core-client/src/http/core-client.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, jsonOf, runCli, summaryText } from './push-support.js';
import { coreClientOf, reportLines, ROLES_FILE, writeFirebaseRolesExport } from './roles-support.js';

describe('core-migrate push brings roles along (issue 21)', () => {
  let core: CoreDouble;
  let client: CoreClient;
  let dir: string;

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    client = coreClientOf(core);
    dir = await mkdtemp(join(tmpdir(), 'push-roles-'));
  });
  afterEach(async () => {
    await client.close();
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Firebase: plan offers where roles are; push creates them with their permissions, gives them, reports the rest; rollback removes what it created', async () => {
    const files = await writeFirebaseRolesExport(dir, {
      'fb-ann': { roles: ['admin', 'editors'] },
      'fb-bob': { roles: 'viewer', admin: false },
      'fb-cid': { roles: ['ghost'] },
      'fb-dan': undefined,
    });
    // A role the core had before, with other permissions: reported, never changed without --roles-update.
    await client.putRole({ role: 'viewer', permissions: ['legacy:read'] });

    const offered = await runCli(['plan', files.exportPath, '--hash-config', files.hashConfigPath, '--json'], dir);
    expect(jsonOf(offered)['roles']).toMatchObject({
      found: [{ path: 'customClaims.roles', records: 3, roles: { admin: 1, editors: 1, viewer: 1, ghost: 1 } }],
      operationsWithRoles: 0,
    });
    const offeredText = await runCli(['plan', files.exportPath, '--hash-config', files.hashConfigPath], dir);
    expect(offeredText.stdout).toContain('found at customClaims.roles in 3 record(s)');
    expect(offeredText.stdout).toContain('no roles are given until a roles path names one of these (--roles-from)');

    const roleFlags = ['--roles-from', 'customClaims.roles', '--role-map', 'editors=editor', '--roles-file', files.rolesPath];
    const planned = await runCli(['plan', files.exportPath, '--hash-config', files.hashConfigPath, ...roleFlags], dir);
    expect(planned.stdout).toContain('from customClaims.roles: admin 1 · editor 1 · viewer 1 (2 operations get roles)');
    expect(planned.stdout).toContain('not in the roles file (not given, reported): ghost 1');

    const push = ['push', files.exportPath, '--core', core.url, '--hash-config', files.hashConfigPath, '--report', 'report.ndjson', ...roleFlags];
    const run = await runCli([...push, '--json'], dir);
    // The one warning: the scrypt-variant users go with no known account proving their hash parameters.
    expect(run.stderr.split('\n').filter((line) => /warning|error/i.test(line) && !line.includes('scrypt-variant user(s)'))).toEqual([]);
    expect(run.exitCode).toBe(0);
    const summary = jsonOf(run);
    expect(summary['steps']).toMatchObject({ rolesCreated: 2, rolesAssigned: 3, mapped: 4 });
    expect(summary['roles']).toMatchObject({ created: ['admin', 'editor'], existing: ['viewer'], updated: [], refused: {} });
    expect((summary['roles'] as { differing: string[] }).differing).toEqual([
      'The role "viewer" is already on the core without "posts:read" of the roles file: left as it is (--roles-update adds them).',
      'The role "viewer" on the core also has "legacy:read", which the roles file does not give: left as they are (the core\'s role calls never remove a permission).',
    ]);
    expect(summaryText(run)).toContain('Roles: 2 created, 1 already on the core, 3 given to users');

    // Users are named by their old id; the core holds the roles with the file's permissions.
    expect(await client.userRoles('fb-ann')).toEqual(['admin', 'editor']);
    expect(await client.userRoles('fb-bob')).toEqual(['viewer']);
    expect(await client.userRoles('fb-cid')).toEqual([]);
    expect(await client.rolePermissions('admin')).toEqual(ROLES_FILE.admin);
    expect(await client.rolePermissions('viewer')).toEqual(['legacy:read']);
    // Roles stay out of nothing else: the claims are still the metadata's, as before.
    expect(core.identity.metadataOf('fb-ann')).toMatchObject({ customClaims: { roles: ['admin', 'editors'] } });
    const report = await reportLines(join(dir, 'report.ndjson'));
    expect(report).toContainEqual(
      expect.objectContaining({ code: 'roleUnknown', sourceId: 'fb-cid', email: 'fb-cid@example.com', reason: expect.stringContaining('"ghost"') }),
    );

    // Run again: everything is journalled, nothing more is created or given.
    const again = await runCli([...push, '--json'], dir);
    expect(jsonOf(again)).toMatchObject({ skipped: 4, steps: { rolesCreated: 0, rolesAssigned: 0 } });

    const rolledBack = await runCli(['rollback', '--journal', join(dir, 'users.json.push-journal.ndjson'), '--core', core.url, '--json'], dir);
    expect(rolledBack.exitCode).toBe(0);
    expect(jsonOf(rolledBack)).toMatchObject({ removed: 4, roles: { created: 2, removed: ['admin', 'editor'], kept: [] } });
    expect(core.users()).toEqual([]);
    // The role the core had before the migration stays.
    expect(await client.listRoles()).toEqual(['viewer']);
  });

  it('--roles-update adds the permissions an existing role lacks', async () => {
    const files = await writeFirebaseRolesExport(dir, { 'fb-bob': { roles: ['viewer'] } });
    await client.putRole({ role: 'viewer', permissions: ['legacy:read'] });
    const run = await runCli(
      [
        'push',
        files.exportPath,
        '--core',
        core.url,
        '--hash-config',
        files.hashConfigPath,
        '--roles-from',
        'customClaims.roles',
        '--roles-file',
        files.rolesPath,
        '--roles-update',
        '--json',
      ],
      dir,
    );
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)['roles']).toMatchObject({ created: [], existing: ['viewer'], updated: ['viewer'] });
    expect(await client.rolePermissions('viewer')).toEqual(['legacy:read', 'posts:read']);
    expect(await client.userRoles('fb-bob')).toEqual(['viewer']);
  });

  it('Auth0: roles in app_metadata, created without permissions when no roles file is given', async () => {
    const hash = await bcryptHashOf('pw');
    const users = join(dir, 'users.ndjson');
    const passwords = join(dir, 'passwords.ndjson');
    await writeFile(
      users,
      [
        { user_id: 'auth0|a1', email: 'ann@example.com', email_verified: true, app_metadata: { roles: ['admin', 'support'] } },
        { user_id: 'auth0|a2', email: 'bob@example.com', email_verified: true, app_metadata: { plan: 'free' } },
      ]
        .map((line) => JSON.stringify({ ...line, identities: [{ provider: 'auth0', user_id: line.user_id.slice(6), connection: 'db', isSocial: false }] }))
        .join('\n'),
    );
    await writeFile(
      passwords,
      ['a1', 'a2']
        .map((id, index) => JSON.stringify({ _id: { $oid: id }, email: index === 0 ? 'ann@example.com' : 'bob@example.com', passwordHash: hash }))
        .join('\n'),
    );
    const run = await runCli(
      ['push', users, '--format', 'auth0', '--auth0-password-file', passwords, '--core', core.url, '--roles-from', 'appMetadata.roles', '--json'],
      dir,
    );
    expect(run.stderr).not.toMatch(/warning|error/i);
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ imported: 2, steps: { rolesCreated: 2, rolesAssigned: 2 } });
    expect(await client.userRoles('auth0|a1')).toEqual(['admin', 'support']);
    expect(await client.userRoles('auth0|a2')).toEqual([]);
    expect(await client.rolePermissions('support')).toEqual([]);
  });

  it('generic NDJSON and CSV: the mapped roles field, as a list, an object of flags, or names separated by commas', async () => {
    const hash = await bcryptHashOf('pw');
    const ndjson = join(dir, 'users.ndjson');
    await writeFile(
      ndjson,
      [
        { id: 'u1', email: 'ann@example.com', passwordHash: hash, groups: { admin: true, beta: false } },
        { id: 'u2', email: 'bob@example.com', passwordHash: hash, groups: ['editor'] },
        { id: 'u3', email: 'cid@example.com', passwordHash: hash, groups: 42 },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const run = await runCli(
      ['push', ndjson, '--core', core.url, '--map', 'roles=groups', '--roles-from', 'roles', '--report', 'report.ndjson', '--json'],
      dir,
    );
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ imported: 3, steps: { rolesCreated: 2, rolesAssigned: 2 } });
    expect(await client.userRoles('u1')).toEqual(['admin']);
    expect(await client.userRoles('u2')).toEqual(['editor']);
    expect(await reportLines(join(dir, 'report.ndjson'))).toContainEqual(
      expect.objectContaining({ code: 'rolesUnreadable', sourceId: 'u3', reason: expect.stringContaining('roles: it is a number') }),
    );

    core.reset();
    const csv = join(dir, 'users.csv');
    await writeFile(csv, `id,email,passwordHash,roles\nc1,dee@example.com,${hash},"admin, editor"\nc2,eve@example.com,${hash},\n`);
    const fromCsv = await runCli(['push', csv, '--core', core.url, '--roles-from', 'roles', '--journal', 'csv.journal', '--json'], dir);
    expect(fromCsv.exitCode).toBe(0);
    expect(await client.userRoles('c1')).toEqual(['admin', 'editor']);
    expect(await client.userRoles('c2')).toEqual([]);
  });

  it('a core without the roles recipe is said before anything is sent, with the flag that turns roles off', async () => {
    const files = await writeFirebaseRolesExport(dir, { 'fb-ann': { roles: ['admin'] } });
    core.identity.setMissing(['roles']);
    const push = ['push', files.exportPath, '--core', core.url, '--hash-config', files.hashConfigPath, '--roles-from', 'customClaims.roles'];
    const refused = await runCli(push, dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('has no user roles (/recipe/role) (it answered 404)');
    expect(refused.stderr).toContain('pass --no-roles');
    expect(core.users()).toEqual([]);

    const without = await runCli([...push, '--no-roles', '--json'], dir);
    expect(without.exitCode).toBe(0);
    expect(jsonOf(without)).toMatchObject({ imported: 1, steps: { rolesCreated: 0, rolesAssigned: 0 } });
  });

  it("a role name the core refuses: the user is created without it, and the report names the record with the core's sentence", async () => {
    const files = await writeFirebaseRolesExport(dir, { 'fb-ann': { roles: ['admin', 'bad role'] }, 'fb-bob': { roles: ['bad role'] } });
    core.faults.failBodiesContaining('"role":"bad role"', { status: 400, body: 'Role name is not allowed\n' });
    const run = await runCli(
      [
        'push',
        files.exportPath,
        '--core',
        core.url,
        '--hash-config',
        files.hashConfigPath,
        '--roles-from',
        'customClaims.roles',
        '--report',
        'report.ndjson',
        '--json',
      ],
      dir,
    );
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ imported: 2, roles: { created: ['admin'], refused: { 'bad role': 'Role name is not allowed' } } });
    expect(await client.userRoles('fb-ann')).toEqual(['admin']);
    const refusals = (await reportLines(join(dir, 'report.ndjson'))).filter((line) => line['code'] === 'roleRefused');
    expect(refusals.map((line) => line['sourceId'])).toEqual(['fb-ann', 'fb-bob']);
    expect(refusals[0]?.['reason']).toBe('the core refused the role "bad role": Role name is not allowed; the user did not get it');
  });
});
