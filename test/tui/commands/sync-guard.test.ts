import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf } from '../../core-double/known-hashes.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, jsonOf, runCli, userWrites, writeVectorHashConfig } from './push-support.js';

type FirebaseUser = Record<string, unknown>;
const scrypt = { passwordHash: VENDOR_SCRYPT_VECTOR.hash, salt: VENDOR_SCRYPT_VECTOR.salt };

/** `count` users of one old system: ids `<prefix>-1`…, emails `<prefix>1@example.com`…. */
function users(prefix: string, from: number, count: number): FirebaseUser[] {
  return Array.from({ length: count }, (_, index) => ({
    localId: `${prefix}-${from + index}`,
    email: `${prefix}${from + index}@example.com`,
    emailVerified: true,
    ...scrypt,
  }));
}

/** Requests that write about users (not the pre-flight's probes, not look-ups). */

describe('a sync is bound to its journal: an unlike export is refused, removals are bounded', () => {
  let core: CoreDouble;
  let dir: string;
  const write = async (name: string, list: FirebaseUser[]): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, `${JSON.stringify({ users: list })}\n`);
    return path;
  };
  const run = (command: 'push' | 'sync', file: string, journal: string, ...extra: string[]) =>
    runCli([command, file, '--core', core.url, '--hash-config', 'hash_config.txt', '--journal', journal, '--report', 'report.ndjson', ...extra], dir);
  const emails = (): string[] =>
    core
      .users()
      .flatMap((user) => (user.email === undefined ? [] : [user.email]))
      .sort();

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'sync-guard-'));
    await writeVectorHashConfig(join(dir, 'hash_config.txt'));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses an unrelated export before sending anything, with the counts; it no longer removes another migration's users", async () => {
    expect((await run('push', await write('a.json', users('a', 1, 6)), 'a.journal')).exitCode).toBe(0);
    const journal = await readFile(join(dir, 'a.journal'), 'utf8');
    const before = core.requests().length;
    const sync = await run('sync', await write('b.json', users('b', 1, 4)), 'a.journal', '--deleted', 'remove');
    expect(sync.exitCode).toBe(2);
    expect(sync.stderr).toContain("0 of the journal's 6 users appear in this export (at least 50 % must)");
    expect(sync.stderr).toContain('--ignore-overlap');
    expect(userWrites(core, before)).toEqual([]);
    expect(emails()).toEqual(
      users('a', 1, 6)
        .map((user) => user['email'])
        .sort(),
    );
    expect(await readFile(join(dir, 'a.journal'), 'utf8')).toBe(journal);
  });

  it('the same old ids for other people (other emails, other hashes) are not the same users: refused too', async () => {
    expect((await run('push', await write('a.json', users('a', 1, 6)), 'a.journal')).exitCode).toBe(0);
    const theirs = await bcryptHashOf('another-system');
    const other = users('a', 1, 6).map((user, index) => ({ ...user, email: `someone${index}@elsewhere.example`, passwordHash: theirs, salt: undefined }));
    const sync = await run('sync', await write('b.json', other), 'a.journal', '--json');
    expect(sync.exitCode).toBe(2);
    expect(sync.stderr).toContain("0 of the journal's 6 users appear in this export");
    // Every email changed (a domain renamed), the hashes kept: the same users, so the sync goes on.
    const renamed = users('a', 1, 6).map((user, index) => ({ ...user, email: `user${index}@renamed.example` }));
    const domain = await run('sync', await write('c.json', renamed), 'a.journal', '--json');
    expect(domain.exitCode).toBe(0);
    expect(jsonOf(domain)).toMatchObject({ sync: { changed: 6, emailChanged: 6 }, syncGuard: { recognised: 6 } });
  });

  it('a mistyped or empty journal is refused in one sentence before connecting; nothing is sent', async () => {
    expect((await run('push', await write('a.json', users('a', 1, 6)), 'a.journal')).exitCode).toBe(0);
    const before = core.requests().length;
    const missing = await run('sync', join(dir, 'a.json'), 'a.jornal');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/The journal .*a\.jornal does not exist: a sync compares/);
    expect(core.requests().length).toBe(before);
    await writeFile(join(dir, 'empty.journal'), '');
    const empty = await run('sync', join(dir, 'a.json'), 'empty.journal');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('is empty');
    // A journal whose push brought nobody over (every record refused by the plan) has no state to compare with.
    const refused = users('c', 1, 2).map((user) => ({ ...user, email: 'not-an-email' }));
    await run('push', await write('c.json', refused), 'c.journal');
    const stateless = await run('sync', join(dir, 'c.json'), 'c.journal');
    expect(stateless.exitCode).toBe(2);
    expect(stateless.stderr).toContain('holds no user the migration brought over');
    expect(userWrites(core, before)).toEqual([]);
  });

  it('a real newer export with 30 % churn goes on; --ignore-overlap lets an unlike one through', async () => {
    expect((await run('push', await write('monday.json', users('a', 1, 10)), 'a.journal')).exitCode).toBe(0);
    const churned = await run('sync', await write('tuesday.json', [...users('a', 4, 7), ...users('a', 11, 3)]), 'a.journal', '--json');
    expect(churned.exitCode).toBe(0);
    expect(jsonOf(churned)).toMatchObject({ sync: { new: 3, deletedInSource: 3 }, syncGuard: { journalUsers: 10, recognised: 7 } });
    const forced = await run('sync', await write('b.json', users('b', 1, 2)), 'a.journal', '--ignore-overlap', '--json');
    expect(forced.exitCode).toBe(0);
    expect(jsonOf(forced)).toMatchObject({ sync: { new: 2 }, syncGuard: { recognised: 0 } });
  });

  it('removes at most the limit (disabled users count): over it nobody is removed, and it says how to raise it; a dry run lists them', async () => {
    expect((await run('push', await write('monday.json', users('a', 1, 20)), 'a.journal')).exitCode).toBe(0);
    // Two gone, one disabled: three removals, over the default 5 % of 20 (one).
    const tuesday = users('a', 1, 18).map((user) => (user['localId'] === 'a-5' ? { ...user, disabled: true } : user));
    await write('tuesday.json', tuesday);
    const before = core.requests().length;
    const dryRun = await run('sync', join(dir, 'tuesday.json'), 'a.journal', '--deleted', 'remove', '--dry-run');
    expect(dryRun.exitCode, dryRun.stderr).toBe(1);
    // The disabled user where the export has it, the vanished ones in the journal's order: Monday's push (4 in flight)
    // journalled them as their answers came, so that order may change from run to run.
    const listed = /Users the sync would remove \(3, by old id\):\n((?: {2}".+"\n){3})/.exec(dryRun.stdout)?.[1];
    expect(listed, dryRun.stdout).toBeDefined();
    expect((listed ?? '').trim().split(/\n\s*/).sort()).toEqual(['"a-19"', '"a-20"', '"a-5"']);
    expect(dryRun.stdout).toContain('this sync would remove 3 users (disabled, or gone from the export), more than its limit of 1 (--max-removals)');
    expect(userWrites(core, before)).toEqual([]);

    const sync = await run('sync', join(dir, 'tuesday.json'), 'a.journal', '--deleted', 'remove', '--json');
    expect(sync.exitCode).toBe(1);
    expect(jsonOf(sync)).toMatchObject({ removed: 0, syncGuard: { removals: 3, removalLimit: 1, removalsWithheld: true } });
    expect(sync.stderr).toContain('nobody was removed. If they should go, run again with --max-removals 3.');
    expect(core.users()).toHaveLength(20);
    const report = await readFile(join(dir, 'report.ndjson'), 'utf8');
    expect(report).toContain('more than its limit of 1 (--max-removals)');

    const raised = await run('sync', join(dir, 'tuesday.json'), 'a.journal', '--deleted', 'remove', '--max-removals', '3', '--json');
    expect(raised.exitCode).toBe(0);
    expect(jsonOf(raised)).toMatchObject({ removed: 3, syncGuard: { removals: 3, removalLimit: 3, removalsWithheld: false } });
    expect(core.users()).toHaveLength(17);
  });
});
