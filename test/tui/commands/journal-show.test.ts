import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalOverviewSchema, type JournalOverview, type RunOverview } from '../../../core-client/src/rollback/journal-overview.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { waitFor } from '../../core-client/push/engine-support.js';
import { API_KEY, operationRequests, runCli, type Run } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const PASSWORD_HASH = bcrypt.hashSync('a known password', 4);

/**
 * A generic NDJSON export of users with old ids (`id`), so a sync can match them; each test has its own email domain
 * (the tests share one core).
 */
async function writeUsers(
  path: string,
  ids: readonly number[],
  domain: string,
  emailOf: (id: number) => string = (id) => `user${id}@${domain}`,
): Promise<void> {
  await writeFile(path, ids.map((id) => `${JSON.stringify({ id: `${domain}-${id}`, email: emailOf(id), passwordHash: PASSWORD_HASH })}\n`).join(''));
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** `journal show --json`: exactly one document on standard output, typed by the overview's own schema. */
function overviewOf(run: Run): JournalOverview {
  expect(run.exitCode, run.stderr).toBe(0);
  return JournalOverviewSchema.parse(JSON.parse(run.stdout));
}

function pushRun(run: RunOverview | undefined): Extract<RunOverview, { command: 'push' | 'sync' }> {
  if (run === undefined || run.command === 'rollback') throw new Error(`not a push or sync run: ${JSON.stringify(run)}`);
  return run;
}

describe('core-migrate journal show', () => {
  let core: CoreDouble;
  let dir: string;
  const show = (journal: string, ...extra: string[]) => runCli(['journal', 'show', journal, ...extra], dir);
  const migrate = (command: 'push' | 'sync' | 'rollback', ...args: string[]) =>
    runCli([command, ...args, '--core', core.url, '--json'], dir).then((run) => {
      expect(run.exitCode, run.stderr).toBe(0);
      return run;
    });

  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'journal-show-'));
  });
  afterAll(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('tells after a push, a sync and a rollback which runs there were, their counts, and the users it holds', async () => {
    const journal = join(dir, 'story.journal');
    await writeUsers(join(dir, 'monday.ndjson'), range(1, 10), 'story.example');
    await migrate('push', 'monday.ndjson', '--journal', journal);

    const afterPush = overviewOf(await show(journal, '--json'));
    expect(afterPush).toMatchObject({
      version: 5,
      runsRecorded: true,
      target: expect.stringContaining(core.url.replace(/\/$/, '')),
      source: { name: join(dir, 'monday.ndjson'), fingerprint: expect.stringMatching(/^sha256:/) },
      users: { created: 10, removedBySync: 0, removedByRollback: 0, held: 10, uncertain: 0 },
      rollback: { state: 'none' },
      tornLastLine: false,
    });
    expect(afterPush.lock).toBeUndefined();
    expect(afterPush.runs).toHaveLength(1);
    expect(pushRun(afterPush.runs[0])).toMatchObject({
      command: 'push',
      source: join(dir, 'monday.ndjson'),
      ended: { how: 'complete', counts: { imported: 10, total: 10 } },
    });
    const text = await show(journal);
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain(`Journal ${journal}`);
    expect(text.stdout).toMatch(/version +5\n/);
    expect(text.stdout).toContain('Users this migration created: 10; removed by a sync 0, by a rollback 0; still on the core 10');
    expect(text.stdout).toMatch(/push +\S+ → \S+ +complete \S+\/monday\.ndjson\n +imported 10; 10 operations\n/);
    expect(text.stdout).toContain('Rolled back: no');

    // Tuesday: user 1 is gone (removed), user 2 has a new email, users 11 and 12 are new.
    await writeUsers(join(dir, 'tuesday.ndjson'), range(2, 12), 'story.example', (id) => (id === 2 ? 'user2@new.example' : `user${id}@story.example`));
    await migrate('sync', 'tuesday.ndjson', '--journal', journal, '--deleted', 'remove');
    const afterSync = overviewOf(await show(journal, '--json'));
    expect(afterSync.users).toEqual({ created: 12, removedBySync: 1, removedByRollback: 0, held: 11, uncertain: 0 });
    expect(afterSync.runs.map((run) => run.command)).toEqual(['push', 'sync']);
    expect(pushRun(afterSync.runs[1])).toMatchObject({
      source: join(dir, 'tuesday.ndjson'),
      ended: { how: 'complete', counts: { imported: 2, removed: 1 }, sync: { new: 2, changed: 1, deletedInSource: 1, removed: 1 } },
    });
    expect((await show(journal)).stdout).toMatch(
      /sync +\S+ → \S+ +complete \S+\/tuesday\.ndjson\n.*imported 2.*removed \(sync\) 1.*\n +users: 2 new, 1 changed, .*1 deleted in source \(1 removed\)/,
    );

    await migrate('rollback', '--journal', journal);
    const afterRollback = overviewOf(await show(journal, '--json'));
    expect(afterRollback.users).toEqual({ created: 12, removedBySync: 1, removedByRollback: 11, held: 0, uncertain: 0 });
    expect(afterRollback.rollback).toEqual({ state: 'complete', recordPath: `${journal}.rollback` });
    expect(afterRollback.runs.at(-1)).toMatchObject({
      command: 'rollback',
      ended: { how: 'complete', counts: { created: 12, removed: 11, alreadyRemoved: 0, removedBySync: 1 } },
    });
    const rolledBack = await show(journal);
    expect(rolledBack.stdout).toMatch(/rollback +\S+ → \S+ +complete\n +created by the migration 12, removed 11, removed by a sync 1\n/);
    expect(rolledBack.stdout).toContain(`Rolled back: yes (removals recorded in ${journal}.rollback)`);
  });

  it('shows a sync that withheld its removals (exit 1) as such, never as complete', async () => {
    const journal = join(dir, 'withheld.journal');
    await writeUsers(join(dir, 'withheld-1.ndjson'), range(1, 6), 'withheld.example');
    await migrate('push', 'withheld-1.ndjson', '--journal', journal);
    await writeUsers(join(dir, 'withheld-2.ndjson'), range(1, 4), 'withheld.example');
    const sync = await runCli(
      ['sync', 'withheld-2.ndjson', '--journal', journal, '--deleted', 'remove', '--max-removals', '1', '--core', core.url, '--json'],
      dir,
    );
    expect(sync.exitCode, sync.stderr).toBe(1);
    const overview = overviewOf(await show(journal, '--json'));
    expect(pushRun(overview.runs[1])).toMatchObject({
      command: 'sync',
      ended: { how: 'complete', syncGuard: { removals: 2, removalLimit: 1, removalsWithheld: true }, sync: { deletedInSource: 2, removed: 0 } },
    });
    const text = (await show(journal)).stdout;
    expect(text).toMatch(/sync +\S+ → \S+ +ran to its end, its removals withheld \(exit 1\) \S+\/withheld-2\.ndjson\n/);
    expect(text).toContain('    removals withheld: 2 would have been removed, more than the limit of 1: none was removed\n');
    expect(text).not.toMatch(/sync +\S+ → \S+ +complete/);
  });

  it('shows a push killed with SIGKILL as a run with no end, and the resumed run after it', async () => {
    const journal = join(dir, 'killed.journal');
    await writeUsers(join(dir, 'big.ndjson'), range(1, 300), 'killed.example');
    core.faults.setLatencyMs(2);
    try {
      const seenBefore = operationRequests(core).length;
      const child = spawn(process.execPath, [BIN, 'push', 'big.ndjson', '--core', core.url, '--journal', journal], {
        cwd: dir,
        env: { ...process.env, CORE_API_KEY: API_KEY },
        stdio: 'ignore',
      });
      const exited = once(child, 'exit');
      await waitFor(() => operationRequests(core).length >= seenBefore + 30, 'the push to send some users');
      expect(child.kill('SIGKILL')).toBe(true);
      await exited;
    } finally {
      core.faults.setLatencyMs(0);
    }
    const killed = overviewOf(await show(journal, '--json'));
    expect(killed.runs).toHaveLength(1);
    expect(killed.runs[0]).toMatchObject({ command: 'push', source: join(dir, 'big.ndjson'), underWay: false });
    expect(killed.runs[0]?.ended).toBeUndefined();
    // The killed process's lock stays, and is only described: gone, so the next run takes it over.
    expect(killed.lock).toMatchObject({ command: 'push', running: false });
    expect(killed.users.held).toBe(killed.users.created);
    expect(killed.users.created).toBeGreaterThan(0);
    const text = await show(journal);
    expect(text.stdout).toMatch(/push +\S+ +no end recorded \(killed, or stopped by an error it reported\) \S+\/big\.ndjson\n/);
    expect(text.stdout).toMatch(/A lock left by process \d+ \(since \S+\), which is gone: the next run takes it over\./);

    await migrate('push', 'big.ndjson', '--journal', journal);
    const resumed = overviewOf(await show(journal, '--json'));
    expect(resumed.runs).toHaveLength(2);
    expect(resumed.runs[0]?.ended).toBeUndefined();
    expect(pushRun(resumed.runs[1]).ended).toMatchObject({ how: 'complete', counts: { total: 300, skipped: expect.any(Number) } });
    expect(resumed.users).toMatchObject({ created: 300, held: 300, uncertain: 0 });
    expect(resumed.lock).toBeUndefined();
  });

  it('shows an interrupted (Ctrl-C) push as interrupted, with its counts', async () => {
    const journal = join(dir, 'interrupted.journal');
    await writeUsers(join(dir, 'stopped.ndjson'), range(1, 300), 'stopped.example');
    core.faults.setLatencyMs(5);
    try {
      const seenBefore = operationRequests(core).length;
      const child = spawn(process.execPath, [BIN, 'push', 'stopped.ndjson', '--core', core.url, '--journal', journal], {
        cwd: dir,
        env: { ...process.env, CORE_API_KEY: API_KEY },
        stdio: 'ignore',
      });
      const exited = once(child, 'exit');
      await waitFor(() => operationRequests(core).length >= seenBefore + 20, 'the push to send some users');
      child.kill('SIGINT');
      await exited;
    } finally {
      core.faults.setLatencyMs(0);
    }
    const stopped = overviewOf(await show(journal, '--json'));
    const run = pushRun(stopped.runs[0]);
    expect(run.ended).toMatchObject({ how: 'interrupted', counts: { total: 300, notAttempted: expect.any(Number) } });
    expect(run.ended?.counts.notAttempted).toBeGreaterThan(0);
    expect((await show(journal)).stdout).toMatch(/push +\S+ → \S+ +interrupted \S+\/stopped\.ndjson\n/);
  });

  it('reads a journal a running push holds without taking its lock, and says what it shows', async () => {
    const journal = join(dir, 'held.journal');
    await writeUsers(join(dir, 'held.ndjson'), range(1, 3), 'held.example');
    await migrate('push', 'held.ndjson', '--journal', journal);
    // A run of this very process holds the lock (a live pid), and began before the run lines below: it is under way.
    const lock = `${JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2000-01-01T00:00:00.000Z', command: 'push' })}\n`;
    await writeFile(`${journal}.lock`, lock);
    const started = new Date().toISOString();
    await writeFile(journal, `${JSON.stringify({ run: 'push', started, source: join(dir, 'held.ndjson') })}\n`, { flag: 'a' });
    const before = await readFile(journal, 'utf8');

    const json = await show(journal, '--json');
    const held = overviewOf(json);
    expect(held.lock).toMatchObject({ pid: process.pid, running: true });
    expect(held.runs.at(-1)).toMatchObject({ startedAt: started, underWay: true });
    expect(json.stderr).toMatch(
      /^A push or sync holds this journal \(process \d+ on .*\): what follows is what it had written when read, and its run has no end yet\./,
    );
    const text = await show(journal);
    expect(text.stdout).toMatch(/push +\S+ +under way \(holds the lock\) \S+\/held\.ndjson\n/);
    expect(text.stdout).toContain(`Locked by a push or sync now running (process ${process.pid}`);
    // Read only: the lock is the holder's, and the journal is as it was.
    expect(await readFile(`${journal}.lock`, 'utf8')).toBe(lock);
    expect(await readFile(journal, 'utf8')).toBe(before);
    await rm(`${journal}.lock`);
  });

  it('refuses a missing path and a file that is not a journal with a sentence and exit 2', async () => {
    const missing = join(dir, 'no-such.journal');
    const text = await show(missing);
    expect(text.exitCode).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe(`core-migrate journal show: The journal ${missing} does not exist: pass the --journal file of a push or sync.\n`);
    const json = await show(missing, '--json');
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: { command: 'journal show', message: expect.stringContaining(missing), exitCode: 2 } });

    await writeUsers(join(dir, 'not-a-journal.ndjson'), [1], 'foreign.example');
    const foreign = await show('not-a-journal.ndjson');
    expect(foreign.exitCode).toBe(2);
    expect(foreign.stderr).toMatch(/^core-migrate journal show: The file \S+not-a-journal\.ndjson is not a core-migrate push journal/);
    expect(foreign.stderr).not.toMatch(/\n\s+at /);
    const folder = await show('.');
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toMatch(/is not a regular file \(a device, FIFO or folder\)/);
    await writeFile(join(dir, 'empty.journal'), '');
    const empty = await show('empty.journal');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('is empty: no push wrote to it');
  });

  it('reads a version 3 journal: its users, and that its runs were not recorded', async () => {
    const journal = join(dir, 'old.journal');
    await writeUsers(join(dir, 'old.ndjson'), range(1, 4), 'old.example');
    await migrate('push', 'old.ndjson', '--journal', journal);
    // What a version 3 journal has: the header, the operations' and steps' lines (no account states, no run lines).
    const [header = '', ...rest] = (await readFile(journal, 'utf8')).split('\n');
    await writeFile(
      journal,
      [header.replace(/"version":\d+/, '"version":3'), ...rest.filter((line) => !line.includes('"w":') && !line.includes('"run":'))].join('\n'),
    );
    const old = overviewOf(await show(journal, '--json'));
    expect(old).toMatchObject({ version: 3, runsRecorded: false, runs: [], users: { created: 4, held: 4 } });
    expect(old.source.name).toBeUndefined();
    const text = await show(journal);
    expect(text.stdout).toMatch(/version +3 \(written by an older core-migrate: its push and sync runs were not recorded\)\n/);
    expect(text.stdout).toContain('Runs: none recorded.');
  });
});
