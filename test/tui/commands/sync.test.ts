import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf } from '../../core-double/known-hashes.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, jsonOf, runCli, signIn, userWrites, writeVectorHashConfig } from './push-support.js';

type FirebaseUser = Record<string, unknown>;
const scrypt = { passwordHash: VENDOR_SCRYPT_VECTOR.hash, salt: VENDOR_SCRYPT_VECTOR.salt };

function monday(): FirebaseUser[] {
  return [
    {
      localId: 'fb-ada',
      email: 'ada@example.com',
      emailVerified: true,
      ...scrypt,
      displayName: 'Ada Lovelace',
      photoUrl: 'https://example.com/ada.png',
      providerUserInfo: [
        { providerId: 'password', rawId: 'ada@example.com', email: 'ada@example.com' },
        { providerId: 'google.com', rawId: 'g-ada', email: 'ada@example.com' },
      ],
    },
    { localId: 'fb-grace', email: 'grace@example.com', emailVerified: true, providerUserInfo: [{ providerId: 'google.com', rawId: 'g-grace' }] },
    { localId: 'fb-linus', email: 'linus@example.com', emailVerified: false, ...scrypt },
    { localId: 'fb-mallory', email: 'mallory@example.com', emailVerified: true, ...scrypt, disabled: true },
    { localId: 'fb-u1', email: 'user1@example.com', emailVerified: true, ...scrypt, displayName: 'User 1' },
    { localId: 'fb-u2', email: 'user2@example.com', emailVerified: true, ...scrypt, displayName: 'User 2' },
  ];
}

describe('core-migrate sync brings a newer export over, and nothing else', () => {
  let core: CoreDouble;
  let dir: string;
  const write = async (name: string, users: FirebaseUser[]): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, `${JSON.stringify({ users })}\n`);
    return path;
  };
  const flags = ['--core', '', '--hash-config', 'hash_config.txt', '--journal', 'journal.ndjson', '--report', 'report.ndjson', '--json'];
  const run = (command: 'push' | 'sync', file: string, ...extra: string[]) =>
    runCli([command, file, ...flags.map((flag) => (flag === '' ? core.url : flag)), ...extra], dir);

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'sync-'));
    await writeVectorHashConfig(join(dir, 'hash_config.txt'));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends nothing about any user when the newer export has not changed', async () => {
    const first = await run('push', await write('monday.json', monday()));
    expect(first.exitCode).toBe(0);
    // Each account brought over whole carries the digest of all its groups, so an unchanged one costs one hash.
    const states = (await readFile(join(dir, 'journal.ndjson'), 'utf8')).split('\n').filter((line) => line.includes('"w":'));
    expect(states.filter((line) => line.includes('"a":'))).toHaveLength(6);
    const before = core.requests().length;
    const again = await run('sync', await write('tuesday.json', [...monday()].reverse()));
    expect(again.stderr).not.toMatch(/warning|error/i);
    expect(again.exitCode).toBe(0);
    expect(jsonOf(again)['sync']).toMatchObject({ new: 0, changed: 0, unchanged: 5, refused: 1, deletedInSource: 0, users: 6 });
    expect(userWrites(core, before)).toEqual([]);
  });

  it('a record broken in the newer export is refused by its old id, never taken for a user gone from the export', async () => {
    expect((await run('push', await write('monday.json', monday()))).exitCode).toBe(0);
    const tuesday = monday().map((user) => (user['localId'] === 'fb-u1' ? { ...user, emailVerified: 'yes' } : user));
    const sync = await run('sync', await write('tuesday.json', tuesday), '--deleted', 'remove');
    expect(jsonOf(sync)['sync']).toMatchObject({ deletedInSource: 0, removed: 0 });
    expect(core.identity.metadataOf('fb-u1')).toMatchObject({ displayName: 'User 1' });
    const lines = (await readFile(join(dir, 'report.ndjson'), 'utf8')).split('\n').filter((line) => line.includes('malformedRecord'));
    expect(lines.map((line) => (JSON.parse(line) as { sourceId?: string }).sourceId)).toEqual(['fb-u1']);
  });

  it('--dry-run shows the delta and sends nothing; a journal without digests is refused in one sentence', async () => {
    expect((await run('push', await write('monday.json', monday()))).exitCode).toBe(0);
    const journal = await readFile(join(dir, 'journal.ndjson'), 'utf8');
    const changed = monday().map((user) => (user['localId'] === 'fb-linus' ? { ...user, email: 'linus@new.example.com' } : user));
    const before = core.requests().length;
    const dryRun = await run('sync', await write('tuesday.json', changed.slice(1)), '--dry-run');
    expect(dryRun.exitCode).toBe(0);
    expect(jsonOf(dryRun)['sync']).toMatchObject({ changed: 1, emailChanged: 1, unchanged: 3, deletedInSource: 1 });
    expect(userWrites(core, before)).toEqual([]);
    expect(await readFile(join(dir, 'journal.ndjson'), 'utf8')).toBe(journal);

    // A version 3 journal (before sync) has no account states: the sync says what it cannot compare, and sends nothing.
    const [header = '', ...rest] = journal.split('\n');
    await writeFile(join(dir, 'journal.ndjson'), [header.replace(/"version":\d+/, '"version":3'), ...rest.filter((line) => !line.includes('"w":'))].join('\n'));
    const old = await run('sync', join(dir, 'tuesday.json'));
    expect(old.exitCode).toBe(2);
    expect(old.stderr).toMatch(/written by an earlier version of core-migrate.*keeps no digest.*compare nothing/s);
    expect(userWrites(core, before)).toEqual([]);
  });

  it('names in the report every change it could not bring over, and never changes a user that was in the core before', async () => {
    const theirs = await bcryptHashOf('theirs');
    const seed = async (email: string) =>
      fetch(`${core.url}/recipe/user/passwordhash/import`, {
        method: 'POST',
        headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ email, passwordHash: theirs }),
      });
    await seed('linus@example.com');
    const first = await run('push', await write('monday.json', monday()));
    expect(jsonOf(first)).toMatchObject({ existingUntouched: 1 });
    await seed('taken@example.com');
    const newHash = await bcryptHashOf('new-password');
    const tuesday = monday().map((user) => {
      if (user['localId'] === 'fb-linus') return { ...user, passwordHash: newHash, salt: undefined, displayName: 'Linus' };
      if (user['localId'] === 'fb-u1') return { ...user, email: 'taken@example.com', displayName: 'Renamed' };
      return user;
    });
    const sync = await run('sync', await write('tuesday.json', tuesday));
    expect(sync.exitCode).toBe(1);
    expect(jsonOf(sync)).toMatchObject({ failed: 1, keptAsIs: 1, updated: 0 });
    const report = (await readFile(join(dir, 'report.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(report).toContainEqual(
      expect.objectContaining({ sourceId: 'fb-u1', code: 'emailTaken', reason: expect.stringContaining('taken@example.com already belongs to another user') }),
    );
    expect(report).toContainEqual(expect.objectContaining({ sourceId: 'fb-linus', code: 'keptAsIs', reason: expect.stringContaining('before the migration') }));
    // Neither was changed: the taken email's owner and Linus keep their own password; fb-u1 keeps its email and name.
    expect(await signIn(core, 'linus@example.com', 'theirs')).toBe('OK');
    expect(await signIn(core, 'taken@example.com', 'theirs')).toBe('OK');
    expect(core.users().find((user) => user.externalId === 'fb-u1')?.email).toBe('user1@example.com');
    expect(core.identity.metadataOf('fb-u1')['displayName']).toBe('User 1');
    // The refused change is tried again by the next sync, not forgotten.
    const again = await run('sync', join(dir, 'tuesday.json'));
    expect(jsonOf(again)).toMatchObject({ failed: 1 });
  });

  it('a core without the email change or the removal: each such user is named in the report, and the sync goes on', async () => {
    expect((await run('push', await write('monday.json', monday()))).exitCode).toBe(0);
    core.identity.setMissing(['emailChange', 'removal']);
    const tuesday = monday().map((user) => {
      if (user['localId'] === 'fb-linus') return { ...user, email: 'linus@new.example.com' };
      if (user['localId'] === 'fb-u1') return { ...user, disabled: true };
      if (user['localId'] === 'fb-u2') return { ...user, displayName: 'Renamed' };
      return user;
    });
    const sync = await run('sync', await write('tuesday.json', tuesday));
    expect(sync.exitCode).toBe(1);
    expect(jsonOf(sync)).toMatchObject({ failed: 2, updated: 1 });
    const report = await readFile(join(dir, 'report.ndjson'), 'utf8');
    expect(report).toContain('"code":"emailChangeMissing"');
    expect(report).toContain('"code":"removalMissing"');
    expect(core.identity.metadataOf('fb-u2')['displayName']).toBe('Renamed');
    expect(core.users().find((user) => user.externalId === 'fb-u1')).toBeDefined();
  });

  it('two syncs on one journal cannot run at once', async () => {
    expect((await run('push', await write('monday.json', monday()))).exitCode).toBe(0);
    const tuesday = await write(
      'tuesday.json',
      monday().map((user) => ({ ...user, displayName: 'Renamed' })),
    );
    core.faults.holdPath('/recipe/user/metadata', 'PUT', 'Renamed');
    const first = run('sync', tuesday);
    await waitFor(() => core.faults.heldCount() >= 1, 'the first metadata write held');
    const second = await run('sync', tuesday);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(/lock|another/i);
    core.faults.releaseHeld();
    core.faults.clearFaults();
    expect((await first).exitCode).toBe(0);
  });

  it('brings role changes over: roles added and taken away, never a role the application gave in the core', async () => {
    const withRoles = (roles: Record<string, string[]>) =>
      monday().map((user) => {
        const wanted = roles[String(user['localId'])];
        return wanted === undefined ? user : { ...user, customAttributes: JSON.stringify({ roles: wanted }) };
      });
    const roleFlags = ['--roles-from', 'customClaims.roles'];
    const pushed = await run('push', await write('monday.json', withRoles({ 'fb-ada': ['admin', 'editor'], 'fb-linus': ['viewer'] })), ...roleFlags);
    expect(pushed.exitCode).toBe(0);
    const call = async (method: string, path: string, body: unknown) =>
      fetch(`${core.url}${path}`, { method, headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
    // The application gives Ada a role of its own in the core.
    await call('PUT', '/recipe/role', { role: 'support', permissions: [] });
    await call('PUT', '/recipe/user/role', { userId: 'fb-ada', role: 'support' });
    const rolesOf = async (userId: string) =>
      ((await (await fetch(`${core.url}/recipe/user/roles?userId=${userId}`, { headers: { 'api-key': API_KEY } })).json()) as { roles: string[] }).roles.sort();

    const sync = await run('sync', await write('tuesday.json', withRoles({ 'fb-ada': ['editor'], 'fb-linus': ['viewer', 'admin'] })), ...roleFlags);
    expect(sync.exitCode).toBe(0);
    expect(jsonOf(sync)['sync']).toMatchObject({ changed: 2, rolesChanged: 2, unchanged: 3 });
    expect(await rolesOf('fb-ada')).toEqual(['editor', 'support']);
    expect(await rolesOf('fb-linus')).toEqual(['admin', 'viewer']);
    const again = await run('sync', join(dir, 'tuesday.json'), ...roleFlags);
    expect(jsonOf(again)['sync']).toMatchObject({ changed: 0, unchanged: 5 });
  });

  it('brings over each kind of change, keyed by the old id, and a second sync of the same export sends nothing', async () => {
    expect((await run('push', await write('monday.json', monday()))).exitCode).toBe(0);
    // Someone signs up directly in the new core with an address a newer old-system user also has.
    await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'direct@example.com', passwordHash: await bcryptHashOf('direct-password') }),
    });
    const newHash = await bcryptHashOf('new-password');
    const users = monday().map((user): FirebaseUser => {
      switch (user['localId']) {
        case 'fb-ada': {
          const { photoUrl: _dropped, providerUserInfo, ...rest } = user;
          // A GitHub account linked since the push: a third-party account added.
          const linked = [...(providerUserInfo as object[]), { providerId: 'github.com', rawId: 'gh-ada', email: 'ada@example.com' }];
          return { ...rest, providerUserInfo: linked, passwordHash: newHash, salt: undefined, displayName: 'Ada King' };
        }
        case 'fb-linus':
          return { ...user, email: 'linus@new.example.com', emailVerified: true };
        case 'fb-grace':
          return {
            ...user,
            email: 'grace@new.example.com',
            providerUserInfo: [{ providerId: 'google.com', rawId: 'g-grace', email: 'grace@new.example.com' }],
          };
        case 'fb-u1':
          return { ...user, disabled: true };
        default:
          return user;
      }
    });
    const tuesday = [
      { localId: 'fb-new', email: 'new@example.com', emailVerified: false, ...scrypt },
      { localId: 'fb-direct', email: 'direct@example.com', emailVerified: false, ...scrypt },
      ...users.filter((user) => user['localId'] !== 'fb-u2'),
    ];
    const sync = await run('sync', await write('tuesday.json', tuesday));
    expect(sync.stderr).not.toMatch(/warning|error/i);
    expect(sync.exitCode).toBe(0);
    const summary = jsonOf(sync);
    expect(summary['sync']).toMatchObject({
      new: 2,
      changed: 3,
      disabled: 1,
      unchanged: 0,
      refused: 1,
      deletedInSource: 1,
      users: 8,
      passwordChanged: 1,
      emailChanged: 2,
      verified: 1,
      profileChanged: 1,
      accountsAdded: 1,
      removed: 0,
    });
    expect(summary).toMatchObject({ imported: 1, thirdPartyCreated: 1, existingUntouched: 1, removed: 1, failed: 0 });
    expect(core.users().find((user) => user.kind === 'thirdParty' && user.thirdPartyId === 'github')).toMatchObject({ email: 'ada@example.com' });

    // Ada: the new password, the new name, the photo gone, the same id.
    expect(await signIn(core, 'ada@example.com', 'new-password')).toBe('OK');
    expect(await signIn(core, 'ada@example.com', 'user1password')).toBe('WRONG_CREDENTIALS_ERROR');
    const ada = core.identity.metadataOf('fb-ada');
    expect(ada['displayName']).toBe('Ada King');
    expect(ada).not.toHaveProperty('photoUrl');
    // Linus: the new email, verified again, the same id and password.
    expect(core.users().find((user) => user.externalId === 'fb-linus')?.email).toBe('linus@new.example.com');
    expect(core.identity.isVerified('fb-linus', 'linus@new.example.com')).toBe(true);
    expect(await signIn(core, 'linus@new.example.com', 'user1password')).toBe('OK');
    // Grace: her Google account's email updated by sign-in-up.
    expect(core.users().find((user) => user.externalId === 'fb-grace')?.email).toBe('grace@new.example.com');
    // New users created as push creates them; the one whose email the core already had left untouched.
    expect(core.users().find((user) => user.externalId === 'fb-new')?.email).toBe('new@example.com');
    expect(await signIn(core, 'direct@example.com', 'direct-password')).toBe('OK');
    // Disabled: it can no longer sign in; gone from the export: reported and kept.
    expect(core.users().some((user) => user.email === 'user1@example.com')).toBe(false);
    expect(core.users().find((user) => user.externalId === 'fb-u2')).toBeDefined();
    const report = await readFile(join(dir, 'report.ndjson'), 'utf8');
    expect(report).toContain('fb-u2');
    expect(report).not.toContain(VENDOR_SCRYPT_VECTOR.hash);
    expect(report).not.toContain(newHash);

    const before = core.requests().length;
    const again = await run('sync', join(dir, 'tuesday.json'));
    expect(again.exitCode).toBe(0);
    expect(jsonOf(again)['sync']).toMatchObject({ new: 0, changed: 0, disabled: 0, deletedInSource: 1 });
    expect(userWrites(core, before)).toEqual([]);

    // Re-enabled: created anew with the same id.
    const wednesday = tuesday.map((user) => (user['localId'] === 'fb-u1' ? { ...user, disabled: false } : user));
    const third = await run('sync', await write('wednesday.json', wednesday), '--deleted', 'remove');
    expect(third.exitCode).toBe(0);
    expect(jsonOf(third)['sync']).toMatchObject({ new: 1, reEnabled: 1, deletedInSource: 1, removed: 1 });
    expect(core.users().find((user) => user.externalId === 'fb-u1')?.email).toBe('user1@example.com');
    expect(core.users().find((user) => user.externalId === 'fb-u2')).toBeUndefined();

    // A rollback after the syncs leaves only the user the migration did not create. Its dry run writes nothing and
    // says so; both tell the users a sync removed apart from those an earlier rollback removed (issue 25).
    const dryRun = await runCli(['rollback', '--journal', 'journal.ndjson', '--core', core.url, '--dry-run'], dir);
    expect(dryRun.stdout).toMatch(/created by the migration +\d+ \(by its push and its syncs\)/);
    expect(dryRun.stdout).toMatch(/removed by a sync +2\n/);
    expect(dryRun.stdout).not.toContain('removed by an earlier rollback');
    expect(dryRun.stdout).not.toContain('Removals are recorded');
    await expect(readFile(join(dir, 'journal.ndjson.rollback'), 'utf8')).rejects.toThrow();
    const rollback = await runCli(['rollback', '--journal', 'journal.ndjson', '--core', core.url, '--json'], dir);
    expect(rollback.exitCode).toBe(0);
    expect(jsonOf(rollback)).toMatchObject({ removedBySync: 2, alreadyRemoved: 0 });
    expect(core.users().map((user) => user.email)).toEqual(['direct@example.com']);
  });
});
