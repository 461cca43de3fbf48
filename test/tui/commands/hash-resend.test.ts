import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { makeVendorScryptHash } from '../../support/vendor-scrypt-maker.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, isTenantProbe, jsonOf, runCli, signIn } from './push-support.js';

/** Small scrypt parameters: the hashes are real (the double verifies them at sign-in), and quick to make. */
const RIGHT = { memCost: 3, rounds: 2 };
const WRONG_MEM_COST = 4;
const SEPARATOR = 'Bw==';

interface ScryptUser {
  localId: string;
  email: string;
  password: string;
  passwordHash: string;
  salt: string;
}

async function scryptUser(index: number, password = `password-${index}`): Promise<ScryptUser> {
  const salt = Buffer.from(`salt-of-user-${index}`);
  const passwordHash = await makeVendorScryptHash({
    password,
    salt,
    saltSeparator: Buffer.from(SEPARATOR, 'base64'),
    signerKey: Buffer.from(SIGNER_KEY, 'base64'),
    ...RIGHT,
  });
  return { localId: `fb-${index}`, email: `user${index}@example.com`, password, passwordHash, salt: salt.toString('base64') };
}

function hashConfig(memCost: number): string {
  return `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${SIGNER_KEY},\n  base64_salt_separator: ${SEPARATOR},\n  rounds: ${RIGHT.rounds},\n  mem_cost: ${memCost},\n}\n`;
}

const hashImports = (core: CoreDouble): number =>
  core.requests().filter((request) => request.path === '/recipe/user/passwordhash/import' && !isTenantProbe(request)).length;

describe('a wrong hash config is fixed by running again (issue 25, item 2)', () => {
  let core: CoreDouble;
  let dir: string;
  let users: ScryptUser[];
  const exportOf = async (name: string, list: readonly ScryptUser[]): Promise<string> => {
    const path = join(dir, name);
    const records = list.map(({ password: _password, ...user }) => user);
    await writeFile(path, `${JSON.stringify({ users: records })}\n`);
    return path;
  };
  const run = (command: 'push' | 'sync', file: string, config: string, ...extra: string[]) =>
    runCli([command, file, '--core', core.url, '--hash-config', config, '--journal', 'journal.ndjson', '--report', 'report.ndjson', '--json', ...extra], dir);
  const stateLines = async (): Promise<string[]> => (await readFile(join(dir, 'journal.ndjson'), 'utf8')).split('\n').filter((line) => line.includes('"w":'));

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'hash-resend-'));
    await writeFile(join(dir, 'wrong.txt'), hashConfig(WRONG_MEM_COST), { mode: 0o600 });
    await writeFile(join(dir, 'right.txt'), hashConfig(RIGHT.memCost), { mode: 0o600 });
    users = [await scryptUser(1), await scryptUser(2), await scryptUser(3), await scryptUser(4)];
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('push (wrong mem_cost), push (right), sync (right): exactly the users this migration created sign in, counted as re-sent', async () => {
    // user4 was in the core before the migration, with a password of its own: never changed by any run.
    await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'user4@example.com', passwordHash: await bcryptHashOf('their-own') }),
    });
    const file = await exportOf('users.json', users);

    const wrong = await run('push', file, 'wrong.txt');
    expect(jsonOf(wrong)).toMatchObject({ imported: 3, existingUntouched: 1 });
    // Nothing proved the parameters: said loudly before anything was sent, with the one line that would have.
    expect(wrong.stderr).toMatch(/WARNING: 4 scrypt-variant user\(s\) .*every such user is locked out/s);
    expect(wrong.stderr).toContain('add --verify-credentials known.txt, where known.txt holds the line\n  tester@example.com the-password-you-know');
    expect(await signIn(core, 'user1@example.com', 'password-1')).toBe('WRONG_CREDENTIALS_ERROR');

    const states = await stateLines();
    const importsBefore = hashImports(core);
    const again = await run('push', file, 'right.txt');
    expect(jsonOf(again)).toMatchObject({ imported: 0, createdWithOtherHash: 3, existingUntouched: 1 });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/created by an earlier run of the journal .* with another hash/);
    expect(again.stderr).toMatch(/core-migrate sync .*users\.json .*--hash-config right\.txt/);
    // Nothing was sent for them, and the journal still holds what was sent: the hash built with the wrong mem_cost.
    expect(hashImports(core)).toBe(importsBefore);
    expect(await stateLines()).toEqual(states);

    const sync = await run('sync', file, 'right.txt');
    expect(sync.exitCode).toBe(0);
    expect(jsonOf(sync)['sync']).toMatchObject({ changed: 3, passwordResent: 3, passwordChanged: 0, unchanged: 1 });
    expect(jsonOf(sync)).toMatchObject({ updated: 3 });
    for (const user of users.slice(0, 3)) expect(await signIn(core, user.email, user.password)).toBe('OK');
    expect(await signIn(core, 'user4@example.com', 'their-own')).toBe('OK');

    // Pushed again with the right config, every user is done: skipped, none taken for a user of someone else.
    const third = await run('push', file, 'right.txt');
    expect(jsonOf(third)).toMatchObject({ skipped: 4, createdWithOtherHash: 0 });
    expect(third.exitCode).toBe(0);

    // A password changed in the old system is a changed password, not a re-sent one.
    const changed = [await scryptUser(1, 'a-new-password'), ...users.slice(1)];
    const newer = await run('sync', await exportOf('newer.json', changed), 'right.txt');
    expect(jsonOf(newer)['sync']).toMatchObject({ changed: 1, passwordChanged: 1, passwordResent: 0 });
    expect(await signIn(core, 'user1@example.com', 'a-new-password')).toBe('OK');
  });

  it('a journal written before the exported credential was kept (no "e") still syncs: the re-sent hashes count as changed passwords', async () => {
    const file = await exportOf('users.json', users);
    expect((await run('push', file, 'wrong.txt')).exitCode).toBe(0);
    const journal = join(dir, 'journal.ndjson');
    const older = (await readFile(journal, 'utf8')).replace(/,"e":"[0-9a-f]{8}"/g, '');
    expect(older).not.toContain('"e":');
    await writeFile(journal, older);
    const sync = await run('sync', file, 'right.txt');
    expect(sync.exitCode).toBe(0);
    expect(jsonOf(sync)['sync']).toMatchObject({ changed: 4, passwordChanged: 4, passwordResent: 0 });
    for (const user of users) expect(await signIn(core, user.email, user.password)).toBe('OK');
    // From then on the journal knows the exported credential: a second corrected config would count as re-sent.
    expect((await readFile(journal, 'utf8')).match(/"e":/g)).toHaveLength(4);
    const rollback = await runCli(['rollback', '--journal', 'journal.ndjson', '--core', core.url, '--json'], dir);
    expect(rollback.exitCode).toBe(0);
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('with a known account, a wrong mem_cost stops the push before anything is sent, and there is no warning', async () => {
    const file = await exportOf('users.json', users);
    await writeFile(join(dir, 'known.txt'), `user2@example.com password-2\n`, { mode: 0o600 });
    const wrong = await run('push', file, 'wrong.txt', '--verify-credentials', 'known.txt');
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).not.toContain('WARNING');
    expect(hashImports(core)).toBe(0);
    const right = await run('push', file, 'right.txt', '--verify-credentials', 'known.txt');
    expect(right.exitCode).toBe(0);
    expect(right.stderr).not.toContain('WARNING');
    expect(jsonOf(right)).toMatchObject({ imported: 4, credentials: { matchedLocally: 1, loggedIn: 1 } });
  });
});
