import { describe, expectTypeOf, it } from 'vitest';
import type { RunMode } from '../../../core-client/src/push/run-options.js';
import type { SyncRunOptions } from '../../../core-client/src/sync/open-sync.js';

// The checks are the type checker's (npm run typecheck): each @ts-expect-error fails the check if the line compiles.
describe('RunMode: push and sync as modes of one run', () => {
  it('a push may go without a journal; a sync may not, and only a sync takes sync options', () => {
    expectTypeOf<{ mode: 'push' }>().toExtend<RunMode<SyncRunOptions>>();
    expectTypeOf<{ journalPath: string }>().toExtend<RunMode<SyncRunOptions>>();
    expectTypeOf<{ mode: 'sync'; journalPath: string; sync: SyncRunOptions }>().toExtend<RunMode<SyncRunOptions>>();
    // @ts-expect-error a sync without its journal
    expectTypeOf<{ mode: 'sync'; sync: SyncRunOptions }>().toExtend<RunMode<SyncRunOptions>>();
    // @ts-expect-error sync options without mode: 'sync' (the run would be a push)
    expectTypeOf<{ journalPath: string; sync: SyncRunOptions }>().toExtend<RunMode<SyncRunOptions>>();
  });
});
