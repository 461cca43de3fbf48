import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PasswordImportOperation, PlanItem } from '../../../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import { accountRoleOf } from '../../../core-client/src/plan/field-groups.js';
import { forecastSync, overlapTooLow, RemovalLimitSchema, removalLimitOf } from '../../../core-client/src/sync/sync-guard.js';
import { bcryptOperation } from '../push/plan-fixtures.js';
import { startPushBench, type PushBench } from '../push/engine-support.js';

const digestKey = (salt: string): Buffer => createHash('sha256').update(`sync-guard-key\n${salt}`).digest();

function userOf(sourceId: string, line: number, email = `${sourceId}@example.com`): PasswordImportOperation {
  return { ...bcryptOperation(line, email), identity: { sourceId, carriesSourceId: true, emailVerified: false, disabled: false } };
}

function disabledRecord(sourceId: string, line: number): PlannedRecord {
  const rejection: PlanItem = {
    kind: 'rejection',
    operationKey: `L${line}#pw`,
    location: { file: 'users.ndjson', line },
    sourceId,
    code: 'disabledAccount',
    reason: 'disabled in the old system',
  };
  return { location: { file: 'users.ndjson', line }, items: [rejection] };
}

async function* recordsOf(records: PlannedRecord[]): AsyncGenerator<PlannedRecord> {
  for (const record of records) yield record;
}

const recordOf = (operation: PasswordImportOperation): PlannedRecord => ({ location: operation.location, items: [operation] });

describe('the removal limit', () => {
  it('is a count, or a share of the journal rounded up (a small journal may always lose one user); 5 % unless set', () => {
    expect(removalLimitOf(undefined, 6)).toBe(1);
    expect(removalLimitOf(undefined, 1000)).toBe(50);
    expect(removalLimitOf('5%', 0)).toBe(0);
    expect(removalLimitOf('20', 6)).toBe(20);
    expect(removalLimitOf('0', 1000)).toBe(0);
    expect(removalLimitOf('100%', 7)).toBe(7);
    for (const wrong of ['101%', 'abc', '-1', '5 %', '1.5']) expect(RemovalLimitSchema.safeParse(wrong).success, wrong).toBe(false);
  });
});

describe("a sync's first pass", () => {
  let dir: string;
  let journal: Journal;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sync-guard-'));
    const opened = await Journal.open(join(dir, 'journal.ndjson'), { sourceFingerprint: 'sha256:monday', target: 'http://127.0.0.1:3567', digestKey });
    if (opened instanceof JournalError) throw opened;
    journal = opened;
  });
  afterEach(async () => {
    journal.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** u1–u4 and u7 created by the migration, u5 left untouched (in the core before), u6 created and removed since. */
  function journalled(): void {
    const states: [string, { createdHere: boolean; untouched: boolean; removed: boolean }][] = [
      ['u1', { createdHere: true, untouched: false, removed: false }],
      ['u2', { createdHere: true, untouched: false, removed: false }],
      ['u3', { createdHere: true, untouched: false, removed: false }],
      ['u4', { createdHere: true, untouched: false, removed: false }],
      ['u5', { createdHere: false, untouched: true, removed: false }],
      ['u6', { createdHere: true, untouched: false, removed: true }],
      ['u7', { createdHere: true, untouched: false, removed: false }],
    ];
    states.forEach(([sourceId, flags], index) => {
      const operation = userOf(sourceId, index + 1);
      journal.recordState({
        sourceId,
        role: accountRoleOf(operation),
        coreId: `core-${sourceId}`,
        callId: sourceId,
        ...flags,
        digests: journal.groupDigests(operation),
      });
    });
  }

  it('counts the live users the export keeps (same old id, and the same email or hash; disabled by old id), once each, and the removals it would make', async () => {
    journalled();
    const export_ = [
      recordOf(userOf('u1', 1)),
      recordOf(userOf('u2', 2)),
      recordOf(userOf('u3', 3, 'someone-else@example.com')),
      disabledRecord('u4', 4),
      recordOf(userOf('u1', 5)),
      recordOf(userOf('n1', 6)),
    ];
    const keep = await forecastSync(recordsOf(export_), journal, { removesGone: false });
    // Six live users (u6 was removed); u1, u2, u3 (another email, the same hash) and the disabled u4 are recognised.
    expect(keep).toEqual({ journalUsers: 6, recognised: 4, minOverlapPercent: 50, removals: 1, removalLimit: 1, removalsWithheld: false });
    expect(overlapTooLow(keep)).toBe(false);
  });

  it('with --deleted remove, a gone user the migration created is a removal, one that was in the core before is not', async () => {
    journalled();
    const export_ = [recordOf(userOf('u1', 1)), recordOf(userOf('u2', 2)), recordOf(userOf('u3', 3)), disabledRecord('u4', 4)];
    const remove = await forecastSync(recordsOf(export_), journal, { removesGone: true, maxRemovals: '1' });
    // u4 disabled and u7 gone; u5 gone too, but it was in the core before the migration: left.
    expect(remove).toMatchObject({ journalUsers: 6, recognised: 4, removals: 2, removalLimit: 1, removalsWithheld: true });
  });

  it('an unrelated export keeps nobody: refused', async () => {
    journalled();
    const unrelated = await forecastSync(recordsOf([recordOf(userOf('b1', 1)), recordOf(userOf('b2', 2))]), journal, { removesGone: true });
    expect(unrelated).toMatchObject({ journalUsers: 6, recognised: 0 });
    expect(overlapTooLow(unrelated)).toBe(true);
  });

  it('the same ids for other people keep nobody either', async () => {
    journalled();
    // Other emails and other hashes (the fixture's hash follows the line).
    const others = ['u1', 'u2', 'u3', 'u4', 'u5', 'u7'].map((sourceId, index) => recordOf(userOf(sourceId, index + 100, `other${index}@elsewhere.example`)));
    const forecast = await forecastSync(recordsOf(others), journal, { removesGone: false, minOverlapPercent: 1 });
    expect(forecast).toMatchObject({ recognised: 0, minOverlapPercent: 1 });
    expect(overlapTooLow(forecast)).toBe(true);
  });
});

describe('runPush with a sync, as a library calls it', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
  });
  afterEach(async () => {
    await bench.close();
  });
  const monday = ['u1', 'u2', 'u3', 'u4'].map((sourceId, index) => userOf(sourceId, index + 1));

  it('refuses a journal that does not exist, sending nothing', async () => {
    const before = bench.core.requests().length;
    const sync = runPush({
      records: recordsOf(monday.map(recordOf)),
      mode: 'sync',
      sync: { deleted: 'remove', firstPass: () => recordsOf(monday.map(recordOf)) },
      client: bench.client,
      sourceFingerprint: 'sha256:tuesday',
      journalPath: join(bench.dir, 'mistyped.journal'),
    });
    await expect(sync).rejects.toThrow(/mistyped\.journal does not exist/);
    expect(bench.core.requests().length).toBe(before);
  });

  it('a Ctrl-C during the first pass stops the sync before anything is sent, not as a refusal', async () => {
    expect((await bench.push(monday)).summary.imported).toBe(4);
    const before = bench.core.requests().length;
    const stop = new AbortController();
    const tuesday = monday.map((operation, index) => recordOf(userOf(`u${index + 1}`, index + 1, `renamed${index}@example.com`)));
    async function* firstPass(): AsyncGenerator<PlannedRecord> {
      for (const record of tuesday) {
        yield record;
        stop.abort();
      }
    }
    const summary = await runPush({
      records: recordsOf(tuesday),
      mode: 'sync',
      sync: { deleted: 'remove', firstPass },
      client: bench.client,
      sourceFingerprint: 'sha256:tuesday',
      journalPath: bench.journalPath,
      signal: stop.signal,
    });
    expect(summary.stoppedEarly?.reason).toBe('interrupted');
    expect(
      bench.core
        .requests()
        .slice(before)
        .filter((request) => request.method !== 'GET'),
    ).toEqual([]);
  });
});
