import { useEffect } from 'react';
import { PlanTally } from 'core-client/plan/summary';
import { planSource } from 'core-client/plan/plan-source';
import type { WalkAction } from '../screens/walk-state.js';
import type { PlanRequest } from './plan-request.js';

const progressIntervalMs = 100;
/** Typing in the hash fields changes the request at every key; wait for a pause before re-reading the file. */
const settleMs = 200;

/**
 * Streams the plan of the current request and reports a live count a few times a second, so a million-user
 * file gives feedback at once. A changed request abandons the running pass (its file handles close).
 */
export function usePlan(request: PlanRequest | undefined, dispatch: (action: WalkAction) => void): void {
  const key = request?.key;
  useEffect(() => {
    if (request === undefined) return;
    let abandoned = false;
    const timer = setTimeout(() => {
      void (async () => {
        const tally = new PlanTally();
        let operations = 0;
        let lastReport = 0;
        dispatch({ type: 'planProgress', optionsKey: request.key, records: 0, operations: 0 });
        try {
          for await (const record of planSource(request.path, request.options)) {
            if (abandoned) return;
            tally.addRecord(record);
            operations += record.items.length;
            const now = Date.now();
            if (now - lastReport >= progressIntervalMs) {
              lastReport = now;
              dispatch({ type: 'planProgress', optionsKey: request.key, records: tally.records, operations });
              // Let Ink draw and keys arrive between batches of a long synchronous-looking pass.
              await new Promise((resolve) => setImmediate(resolve));
            }
          }
          if (!abandoned) dispatch({ type: 'planFinished', optionsKey: request.key, summary: tally.summary() });
        } catch (error) {
          if (!abandoned) dispatch({ type: 'planFailed', optionsKey: request.key, message: error instanceof Error ? error.message : String(error) });
        }
      })();
    }, settleMs);
    return () => {
      abandoned = true;
      clearTimeout(timer);
    };
    // The key names the request completely; the object itself is rebuilt at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
