import { afterEach, describe, expect, it } from 'vitest';
import { endOfSignInUp } from '../../../core-client/src/push/outcome.js';
import { sentIdentities, startPushBench, type PushBench } from './engine-support.js';
import { bcryptOperation, thirdPartyOperation } from './plan-fixtures.js';

describe('a 200 with a status this client does not know', () => {
  it('is a failure to send again, never a final refusal', () => {
    expect(endOfSignInUp({ outcome: 'nonOkStatus', status: 'SOME_NEW_STATUS', reason: 'why' })).toMatchObject({
      kind: 'failed',
      code: 'unknownStatus',
      reason: expect.stringContaining('SOME_NEW_STATUS: why'),
    });
  });

  describe('in a push', () => {
    let bench: PushBench;
    afterEach(async () => {
      await bench.close();
    });

    it('is reported with the core status, not journalled, and sent again by a resume', async () => {
      bench = await startPushBench();
      const items = [bcryptOperation(1), thirdPartyOperation(2)];
      // The third-party sign-in-up is the only second request (the import goes first, alone in the plan's order).
      bench.core.faults.failRequestNumber(2, {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'TOTALLY_NEW_STATUS_ERROR', reason: 'a newer core' }),
      });
      const first = await bench.push(items, { concurrency: { initial: 1, min: 1, max: 1 } });
      expect(first.summary).toMatchObject({ imported: 1, failed: 1, thirdPartyCreated: 0 });
      const lines = await bench.reportLines();
      expect(lines).toEqual([expect.objectContaining({ code: 'unknownStatus', reason: expect.stringContaining('TOTALLY_NEW_STATUS_ERROR: a newer core') })]);

      const resumed = await bench.push(items);
      expect(resumed.summary).toMatchObject({ skipped: 1, thirdPartyCreated: 1, failed: 0 });
      expect(sentIdentities(bench.core).filter((identity) => identity.startsWith('google/'))).toHaveLength(2);
    });
  });
});
