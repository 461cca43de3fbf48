import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { TENANT_PROBE_BODY } from '../../core-client/src/http/core-client.js';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { coreIdMappedTo, isEmailVerified, metadataOf, passwordUserIdOf, signIn, userCount } from './support/core-calls.js';
import { isPasswordUser, oldUsers, type ExportArguments, type OldUser } from './support/exports.js';
import { OLD_SYSTEMS } from './support/old-systems.js';
import { STORAGES, describeLive, useRealCore, type RealCore } from './support/real-core.js';

const ImportBody = z.looseObject({ email: z.string() });

const cases = OLD_SYSTEMS.flatMap((system) => STORAGES.map((storage) => ({ system, storage })));

/**
 * The README's first migration, as an operator runs it with the binary, on a real core: check, plan, push, a sync
 * with a newer export, and a rollback. Enough users that the in-memory store's lock conflicts (500 under concurrency)
 * come up, which the push has to absorb.
 */
for (const { system, storage } of cases) {
  describeLive(`${system.name} on a real core (${storage} storage): push, sync, rollback`, { core: storage, signerKey: system.signerKey !== undefined }, () => {
    let core: RealCore;
    let dir: string;
    let exported: ExportArguments;
    const users = oldUsers('old', 40);
    const enabled = users.filter((user) => user.disabled !== true);
    const passwordUsers = enabled.filter(isPasswordUser);
    const withCore = (...args: string[]) => [...args, '--core', core.url];
    const journal = () => `${exported[0]}.push-journal.ndjson`;

    beforeAll(async () => {
      [core, dir] = await Promise.all([
        useRealCore({ core: storage, signerKey: system.signerKey !== undefined }, { logRequests: true }),
        mkdtemp(join(tmpdir(), 'real-core-migration-')),
      ]);
      exported = await system.writeExport(dir, 'users.export', users);
    });
    afterAll(async () => {
      await core?.stop();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it('check, plan and push: every user signs in with its old password, keeps its id, verified email and profile', async () => {
      const check = await coreMigrate(withCore('check'), dir);
      expect(check.code, described(check)).toBe(0);

      // plan exits 1 whenever it refuses a record, the disabled account included; its JSON says what it would do.
      const plan = await coreMigrate(['plan', ...exported, '--json'], dir);
      expect(jsonOf(plan), described(plan)).toMatchObject({
        passwordImports: passwordUsers.length,
        thirdPartySignInUps: enabled.length - passwordUsers.length,
        rejected: 1,
        rejectionsByCode: [{ code: 'disabledAccount' }],
      });

      const push = await coreMigrate(withCore('push', ...exported, '--json'), dir);
      expect(push.code, described(push)).toBe(0);
      expect(jsonOf(push)).toMatchObject({
        imported: passwordUsers.length,
        thirdPartyCreated: enabled.length - passwordUsers.length,
        disabledSkipped: 1,
        failed: 0,
        total: users.length,
      });

      expect(await userCount(core.url)).toBe(enabled.length);
      for (const user of passwordUsers) expect(await signIn(core.url, user.email, user.password), user.email).toBe(system.idInCore(user));
      for (const user of enabled) {
        const id = system.idInCore(user);
        expect(await coreIdMappedTo(core.url, id), id).toBeDefined();
        expect(await isEmailVerified(core.url, id, user.email), user.email).toBe(user.verified);
        expect(await metadataOf(core.url, id)).toMatchObject(system.metadataOf(user));
      }
      const disabled = users.find((user) => user.disabled === true);
      expect(await passwordUserIdOf(core.url, disabled?.email ?? '')).toBeUndefined();
    });

    it('sync with a newer export: a changed password and email sign in, the old ones no longer do; a verification is withdrawn', async () => {
      const [first, second] = passwordUsers;
      const google = enabled.find((user) => !isPasswordUser(user));
      if (first === undefined || second === undefined || google === undefined) throw new Error('the export lacks the users this test changes');
      const changed = new Map<string, OldUser>([
        [first.oldId, { ...first, password: 'pw-1-new' }],
        [second.oldId, { ...second, email: 'renamed2@example.com' }],
        [google.oldId, { ...google, verified: false }],
      ]);
      const newerExport = await system.writeExport(
        dir,
        'users-friday.export',
        users.map((user) => changed.get(user.oldId) ?? user),
      );

      const before = (await core.requestsReceived()).length;
      const sync = await coreMigrate(withCore('sync', ...newerExport, '--journal', journal(), '--json'), dir);
      expect(sync.code, described(sync)).toBe(0);
      expect(jsonOf(sync)).toMatchObject({ updated: changed.size, failed: 0 });
      // Only what changed was sent: one hash import (repeated only if the store locked), for the new password; and the
      // pre-flight's tenant probe, which no core imports.
      const imported = (await core.requestsReceived())
        .slice(before)
        .filter((line) => line.startsWith('POST /recipe/user/passwordhash/import '))
        .map((line) => ImportBody.parse(JSON.parse(line.slice(line.indexOf('{')))).email);
      expect([...new Set(imported)].sort()).toEqual([TENANT_PROBE_BODY.email, first.email].sort());

      expect(await signIn(core.url, first.email, 'pw-1-new')).toBe(system.idInCore(first));
      expect(await signIn(core.url, first.email, first.password)).toBeUndefined();
      expect(await signIn(core.url, 'renamed2@example.com', second.password)).toBe(system.idInCore(second));
      expect(await signIn(core.url, second.email, second.password)).toBeUndefined();
      expect(await isEmailVerified(core.url, system.idInCore(google), google.email)).toBe(false);
      expect(await userCount(core.url)).toBe(enabled.length);
    });

    it('rollback: the users the migration created are gone', async () => {
      const rollback = await coreMigrate(withCore('rollback', '--journal', journal(), '--json'), dir);
      expect(rollback.code, described(rollback)).toBe(0);
      expect(await userCount(core.url)).toBe(0);
      expect(await passwordUserIdOf(core.url, passwordUsers[2]?.email ?? '')).toBeUndefined();
      for (const user of enabled) expect(await coreIdMappedTo(core.url, system.idInCore(user)), user.oldId).toBeUndefined();
    });
  });
}
