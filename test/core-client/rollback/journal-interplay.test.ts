import { readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import { runRollback } from '../../../core-client/src/rollback/rollback.js';
import type { PasswordImportOperation, ThirdPartyOperation } from '../../../core-client/src/plan/operation.js';
import { rollbackRecordPath } from '../../../core-client/src/journal/journal-file.js';
import { Journal, type JournalError } from '../../../core-client/src/journal/journal.js';
import { JournalLock } from '../../../core-client/src/journal/journal-lock.js';
import { type PushBench, startPushBench, waitFor } from '../push/engine-support.js';
import { bcryptOperation, fastRetry, thirdPartyOperation } from '../push/plan-fixtures.js';

/** The client's timeout is 2 s: a body held longer is an answer lost after the core did the work. */
const LOST_ANSWER_MS = 3_000;

function passwordUser(line: number): PasswordImportOperation {
  return {
    ...bcryptOperation(line),
    operationKey: `L${line}#pw`,
    identity: { sourceId: `old-${line}`, carriesSourceId: true, emailVerified: false, disabled: false },
  };
}

function socialUser(line: number): ThirdPartyOperation {
  return {
    ...thirdPartyOperation(line),
    operationKey: `L${line}#tp0`,
    identity: { sourceId: `old-${line}`, carriesSourceId: true, emailVerified: false, disabled: false },
  };
}

async function journalLines(path: string): Promise<Record<string, unknown>[]> {
  return (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the identity steps and the journal of issue 11 together', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
  });
  afterEach(async () => {
    await bench.close();
  });

  it('an answer lost in this run, then "already existed": counted imported, journalled created with its id, mapped, and rolled back', async () => {
    // The lookup answers at once; the import is carried out but its answer stalls past the timeout.
    bench.core.faults.slowBodyNext(1, LOST_ANSWER_MS, 'POST');
    const { summary } = await bench.push([passwordUser(1)], { identity: { ...defaultIdentityOptions, verifyEmails: false }, retryPolicy: fastRetry });
    expect(summary).toMatchObject({ imported: 1, alreadyExisted: 0, failed: 0, total: 1, steps: { mapped: 1 } });
    const lines = await journalLines(bench.journalPath);
    expect(lines.filter((line) => line['w'] === undefined && line['run'] === undefined).map((line) => line['s'] ?? line['o'])).toEqual([
      'intent',
      'created',
      'mapped',
      'metadata',
      'imported',
    ]);
    const report = await bench.reportLines();
    expect(report.map((line) => line['code'])).toEqual(['imported']);
    expect(String(report[0]?.['reason'])).toMatch(/earlier request of this migration for it was sent and its answer lost/);

    const rolledBack = await runRollback({ journalPath: bench.journalPath, client: bench.client });
    expect(rolledBack).toMatchObject({ created: 1, removed: 1, uncertain: 0 });
    expect(bench.core.users()).toEqual([]);
  });

  it('a third-party user whose answer an earlier run lost is created on resume: counted, journalled and rolled back as created', async () => {
    bench.core.faults.slowBodyNext(1, LOST_ANSWER_MS, 'POST');
    const identity = { ...defaultIdentityOptions, verifyEmails: false, metadata: false };
    // The core creates the user, its answer stalls, and the run is stopped while it waits: the answer is lost.
    const stop = new AbortController();
    const pushing = bench.push([socialUser(2)], { identity, signal: stop.signal, stopGraceMs: 100 });
    await waitFor(() => bench.core.users().length === 1, 'the user at the core');
    stop.abort();
    const first = await pushing;
    expect(first.summary, JSON.stringify(first.summary)).toMatchObject({ notAttempted: 1 });

    const { summary } = await bench.push([socialUser(2)], { identity });
    expect(summary).toMatchObject({ thirdPartyCreated: 1, thirdPartyExisting: 0, steps: { completedAfterResume: 1, mapped: 1 } });
    const rolledBack = await runRollback({ journalPath: bench.journalPath, client: bench.client });
    expect(rolledBack).toMatchObject({ created: 1, removed: 1 });
    expect(bench.core.users()).toEqual([]);
  });

  it('a user the lookup found is never announced: under --existing replace a lost answer leaves it "hash replaced", and a rollback leaves it', async () => {
    const theirs = await bench.client.importPasswordHash({ email: 'user3@example.com', passwordHash: `$2a$04$${'t'.repeat(53)}` });
    bench.core.faults.slowBodyNext(1, LOST_ANSWER_MS, 'POST');
    const identity = { ...defaultIdentityOptions, existing: 'replace' as const, keepIds: false, verifyEmails: false, metadata: false };
    const { summary } = await bench.push([passwordUser(3)], { identity });
    expect(summary).toMatchObject({ alreadyExisted: 1, imported: 0, failed: 0 });
    const lines = await journalLines(bench.journalPath);
    expect(lines.filter((line) => line['w'] === undefined && line['run'] === undefined).map((line) => line['s'] ?? line['o'])).toEqual([
      'found',
      'alreadyExisted',
    ]);

    const rolledBack = await runRollback({ journalPath: bench.journalPath, client: bench.client });
    expect(rolledBack).toMatchObject({ created: 0, removed: 0 });
    expect(bench.core.users().map((user) => user.id)).toEqual([theirs.userId]);
  });

  it('a rollback takes the journal lock: it waits for no push, and no push runs while it holds it', async () => {
    await bench.push([passwordUser(4)], { identity: { ...defaultIdentityOptions, verifyEmails: false } });
    const held = JournalLock.acquire(bench.journalPath);
    if (!held.ok) throw new Error(held.message);
    await expect(runRollback({ journalPath: bench.journalPath, client: bench.client })).rejects.toThrow(/is in use by another push \(process \d+ on /);
    held.lock.release();
    expect(bench.core.users()).toHaveLength(1);
    expect(existsSync(rollbackRecordPath(bench.journalPath))).toBe(false);

    const byRollback = JournalLock.acquire(bench.journalPath, 'rollback');
    if (!byRollback.ok) throw new Error(byRollback.message);
    const refused = await Journal.open(bench.journalPath, {
      sourceFingerprint: 'sha256:test',
      target: bench.client.describe(),
      digestKey: (salt) => bench.client.digestKey(salt),
    });
    expect((refused as JournalError).message).toMatch(/is in use by another rollback \(process \d+ on /);
    byRollback.lock.release();
  });

  it('the rollback record is an output like any other: a symbolic link is refused before anything is removed', async () => {
    await bench.push([passwordUser(5)], { identity: { ...defaultIdentityOptions, verifyEmails: false } });
    const elsewhere = join(bench.dir, 'elsewhere.txt');
    await writeFile(elsewhere, 'keep me\n');
    await symlink(elsewhere, rollbackRecordPath(bench.journalPath));
    await expect(runRollback({ journalPath: bench.journalPath, client: bench.client })).rejects.toThrow(/rollback record .* is a symbolic link/);
    expect(bench.core.users()).toHaveLength(1);
    expect(await readFile(elsewhere, 'utf8')).toBe('keep me\n');
    // The lock was given back.
    expect(existsSync(`${bench.journalPath}.lock`)).toBe(false);
  });
});
