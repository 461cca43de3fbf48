import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { coreIdMappedTo, isEmailVerified, metadataOf, passwordUserIdOf, signIn, userCount } from './support/core-calls.js';
import { oldUsers, SUITE_SCRYPT, writeFirebaseExport, type OldUser } from './support/exports.js';
import { startRealCore, storagesToRun, type RealCore } from './support/real-core.js';

/**
 * The README's first migration, as an operator runs it, on a real core: a Firebase export with scrypt-variant hashes
 * (check, plan, push), a sync with a newer export, and a rollback. Enough users that the in-memory store's lock
 * conflicts (500 under concurrency) come up, and the push has to absorb them.
 */
describe.each(storagesToRun())('Firebase on a real core (%s storage): push, sync, rollback', (storage) => {
  let core: RealCore;
  let dir: string;
  const users = oldUsers('fb', 40);
  const enabled = users.filter((user) => user.disabled !== true);
  const withCore = (...args: string[]) => [...args, '--core', core.url];

  beforeAll(async () => {
    [core, dir] = await Promise.all([startRealCore({ storage, signerKey: SUITE_SCRYPT.signerKey }), mkdtemp(join(tmpdir(), 'real-core-firebase-'))]);
    await writeFirebaseExport(dir, 'users.json', users);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('check, plan and push: every user signs in with its old password, keeps its id, verified email and name', async () => {
    const check = await coreMigrate(withCore('check'), dir);
    expect(check.code, described(check)).toBe(0);

    // plan exits 1 whenever it refuses a record, the disabled account included; its JSON says what it would do.
    const plan = await coreMigrate(['plan', 'users.json', '--hash-config', 'hash_config.txt', '--json'], dir);
    expect(jsonOf(plan), described(plan)).toMatchObject({ passwordImports: enabled.length, rejected: 1, rejectionsByCode: [{ code: 'disabledAccount' }] });

    const push = await coreMigrate(withCore('push', 'users.json', '--hash-config', 'hash_config.txt', '--json'), dir);
    expect(push.code, described(push)).toBe(0);
    expect(jsonOf(push)).toMatchObject({ imported: enabled.length, disabledSkipped: 1, failed: 0, total: users.length });

    expect(await userCount(core.url)).toBe(enabled.length);
    for (const user of enabled) {
      expect(await signIn(core.url, user.email, user.password), user.email).toBe(user.oldId);
      expect(await coreIdMappedTo(core.url, user.oldId), user.oldId).toBeDefined();
      expect(await isEmailVerified(core.url, user.oldId, user.email), user.email).toBe(user.verified);
      expect(await metadataOf(core.url, user.oldId)).toMatchObject({ displayName: user.name, migratedFrom: { sourceId: user.oldId } });
    }
    const disabled = users.find((user) => user.disabled === true);
    expect(await passwordUserIdOf(core.url, disabled?.email ?? '')).toBeUndefined();
  });

  it('sync with a newer export: a changed password and a changed email sign in, the old ones no longer do', async () => {
    const [first, second] = enabled;
    if (first === undefined || second === undefined) throw new Error('the export has too few users');
    const newPassword: OldUser = { ...first, password: 'pw-1-new' };
    const newEmail: OldUser = { ...second, email: 'renamed2@example.com' };
    const newer = users.map((user) => (user.oldId === first.oldId ? newPassword : user.oldId === second.oldId ? newEmail : user));
    await writeFirebaseExport(dir, 'users-friday.json', newer);

    const sync = await coreMigrate(
      withCore('sync', 'users-friday.json', '--journal', 'users.json.push-journal.ndjson', '--hash-config', 'hash_config.txt', '--json'),
      dir,
    );
    expect(sync.code, described(sync)).toBe(0);
    expect(jsonOf(sync)).toMatchObject({ updated: 2, failed: 0 });

    expect(await signIn(core.url, first.email, newPassword.password)).toBe(first.oldId);
    expect(await signIn(core.url, first.email, first.password)).toBeUndefined();
    expect(await signIn(core.url, newEmail.email, second.password)).toBe(second.oldId);
    expect(await signIn(core.url, second.email, second.password)).toBeUndefined();
    expect(await userCount(core.url)).toBe(enabled.length);
  });

  it('rollback: the users the migration created are gone', async () => {
    const rollback = await coreMigrate(withCore('rollback', '--journal', 'users.json.push-journal.ndjson', '--json'), dir);
    expect(rollback.code, described(rollback)).toBe(0);
    expect(await userCount(core.url)).toBe(0);
    expect(await passwordUserIdOf(core.url, enabled[2]?.email ?? '')).toBeUndefined();
  });
});
