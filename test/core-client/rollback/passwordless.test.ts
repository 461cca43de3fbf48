import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import { runRollback } from '../../../core-client/src/rollback/rollback.js';
import { type PushBench, startPushBench } from '../push/engine-support.js';
import { emailLinkOperation, phoneOperation } from '../push/plan-fixtures.js';

describe('rollback of passwordless users', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
    await bench.client.putRole({ role: 'member', permissions: [] });
  });
  afterEach(async () => {
    await bench.close();
  });

  it('removes the passwordless users the push created, by their old id, and leaves one that was there before', async () => {
    const before = await bench.client.consumePasswordlessCode(await bench.client.createPasswordlessCode({ phoneNumber: '+14155550003' }));
    const { summary } = await bench.push([phoneOperation(1), emailLinkOperation(2), phoneOperation(3)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ passwordlessCreated: 2, passwordlessExisting: 1 });

    const rollback = await runRollback({ journalPath: bench.journalPath, client: bench.client });
    expect(rollback).toMatchObject({ created: 2, removed: 2, failed: 0 });
    expect(bench.core.passwordlessUsers().map((user) => user.id)).toEqual([before.outcome === 'codeGone' ? '' : before.userId]);
    const removed = bench.core.requests().filter((request) => request.path === '/user/remove');
    expect(removed.map((request) => (request.body as { userId: string }).userId).sort()).toEqual(['old-1', 'old-2']);
    expect(await bench.client.usersByAccountInfo({ phoneNumber: '+14155550001' })).toEqual([]);
  });
});
