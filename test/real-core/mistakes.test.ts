import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coreMigrate, described, jsonOf } from './support/binary.js';
import { signIn, userCount } from './support/core-calls.js';
import { isPasswordUser, oldUsers, SUITE_SCRYPT, writeFirebaseExport, writeHashConfig, type OldUser, type PasswordUser } from './support/exports.js';
import { OLD_SYSTEMS } from './support/old-systems.js';
import { describeLive, useRealCore, type RealCore } from './support/real-core.js';

/**
 * An operator's ordinary mistakes (issue 25, items 1–3) on a real core: each costs no user and ends in a sentence.
 * In-memory storage: what these checks meet does not depend on the storage.
 */
/** Another system's users: other ids, emails and passwords than `oldUsers` gives, so nothing of them is mistaken for the first. */
const unrelatedUsers = (): OldUser[] =>
  oldUsers('b', 4).map((user) => ({
    ...user,
    email: user.email.replace('@example.com', '@unrelated.example'),
    ...(isPasswordUser(user) ? { password: `${user.password}-b` } : { googleId: `${user.googleId}-b` }),
  }));

for (const system of OLD_SYSTEMS) {
  describeLive(`${system.name} on a real core: a sync given the wrong journal or export`, { core: 'memory', signerKey: system.signerKey !== undefined }, () => {
    let core: RealCore;
    let dir: string;

    beforeAll(async () => {
      [core, dir] = await Promise.all([
        useRealCore({ core: 'memory', signerKey: system.signerKey !== undefined }, { logRequests: true }),
        mkdtemp(join(tmpdir(), 'real-core-mistakes-')),
      ]);
    });
    afterAll(async () => {
      await core?.stop();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it("refuses an unrelated export and a mistyped journal before sending anything; the first migration's users stay", async () => {
      const first = oldUsers('a', 6);
      const push = await coreMigrate(['push', ...(await system.writeExport(dir, 'a-users', first)), '--journal', 'a.journal', '--core', core.url], dir);
      expect(push.code, described(push)).toBe(0);
      const usersAfterPush = await userCount(core.url);

      const unrelated = await system.writeExport(dir, 'b-users', unrelatedUsers());
      const sync = await coreMigrate(['sync', ...unrelated, '--journal', 'a.journal', '--deleted', 'remove', '--core', core.url], dir);
      expect(sync.code, described(sync)).toBe(2);
      expect(sync.stderr).toMatch(/0 of the journal's \d+ users appear in this export/);
      expect(sync.stderr).not.toMatch(/\n\s+at /);

      const mistyped = await coreMigrate(['sync', ...unrelated, '--journal', 'a.jornal', '--core', core.url], dir);
      expect(mistyped.code, described(mistyped)).toBe(2);
      expect(mistyped.stderr).toContain('a.jornal');

      const sent = await core.requestsReceived();
      expect(sent.filter((line) => line.includes('unrelated.example') || (line.includes('/user/remove') && !line.endsWith(' {}')))).toEqual([]);
      expect(await userCount(core.url)).toBe(usersAfterPush);
      for (const user of first.filter(isPasswordUser).filter((user) => user.disabled !== true)) {
        expect(await signIn(core.url, user.email, user.password), user.email).toBeDefined();
      }
    });
  });
}

describeLive('a Firebase push with a wrong hash config, on a real core: a rerun fixes it', { core: 'memory', signerKey: true }, () => {
  let core: RealCore;
  let dir: string;
  const users = oldUsers('fb', 3);
  const passwordUsers = users.filter(isPasswordUser).filter((user) => user.disabled !== true);
  const signedIn = async (list: PasswordUser[]): Promise<number> =>
    (await Promise.all(list.map((user) => signIn(core.url, user.email, user.password)))).filter((id) => id !== undefined).length;

  beforeAll(async () => {
    [core, dir] = await Promise.all([
      useRealCore({ core: 'memory', signerKey: true }, { logRequests: true }),
      mkdtemp(join(tmpdir(), 'real-core-hash-config-')),
    ]);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('warns before a push without proof, names the sync on a second push, and the sync re-sends exactly the hashes', async () => {
    const [file] = await writeFirebaseExport(dir, 'users.json', users);
    await writeHashConfig(dir, 'wrong_hash_config.txt', { memCost: SUITE_SCRYPT.memCost + 1 });
    const wrong = await coreMigrate(['push', file, '--hash-config', 'wrong_hash_config.txt', '--journal', 'j', '--core', core.url], dir);
    expect(wrong.code, described(wrong)).toBe(0);
    expect(wrong.stderr).toContain('--verify-credentials');
    expect(await signedIn(passwordUsers)).toBe(0);

    const importsBefore = (await core.requestsReceived()).filter((line) => line.includes('"passwordHash":"$f_scrypt$')).length;
    const again = await coreMigrate(['push', file, '--hash-config', 'hash_config.txt', '--journal', 'j', '--core', core.url], dir);
    expect(again.code, described(again)).toBe(1);
    expect(again.stderr + again.stdout).toMatch(/core-migrate sync /);
    expect((await core.requestsReceived()).filter((line) => line.includes('"passwordHash":"$f_scrypt$'))).toHaveLength(importsBefore);
    expect(await signedIn(passwordUsers)).toBe(0);

    const sync = await coreMigrate(['sync', file, '--hash-config', 'hash_config.txt', '--journal', 'j', '--core', core.url, '--json'], dir);
    expect(sync.code, described(sync)).toBe(0);
    expect(jsonOf(sync)).toMatchObject({ sync: { passwordResent: passwordUsers.length } });
    expect(await signedIn(passwordUsers)).toBe(passwordUsers.length);
  });
});

describeLive('https:// against a core that speaks plain HTTP', { core: 'memory' }, () => {
  let core: RealCore;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'memory' }), mkdtemp(join(tmpdir(), 'real-core-tls-'))]);
  });
  afterAll(async () => {
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('check and push end in one sentence naming http://, exit 3, no stack trace, no user', async () => {
    const tlsUrl = core.url.replace('http://', 'https://');
    const check = await coreMigrate(['check', '--core', tlsUrl], dir);
    const [file, ...flags] = await writeFirebaseExport(dir, 'users.json', oldUsers('t', 2));
    const push = await coreMigrate(['push', file, ...flags, '--core', tlsUrl], dir);
    for (const run of [check, push]) {
      expect(run.code, described(run)).toBe(3);
      expect(run.stderr).toContain('http://');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await userCount(core.url)).toBe(0);
  });
});
