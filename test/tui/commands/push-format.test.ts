import { describe, expect, it } from 'vitest';
import { emptyCounts, type PushSummary } from '../../../core-client/src/summary/push-summary.js';
import { formatProgress, formatSummary } from '../../../tui/src/commands/push-format.js';

function summaryOf(counts: Partial<PushSummary>): PushSummary {
  return { ...emptyCounts(), dryRun: false, retries: 0, elapsedMs: 5, ...counts };
}

describe('the push summary in words: passwordless users (issue 27)', () => {
  it('names passwordless users created and existing, and the sum still says every operation', () => {
    const text = formatSummary(summaryOf({ imported: 2, passwordlessCreated: 3, passwordlessExisting: 1, total: 6 }));
    expect(text).toMatch(/passwordless created +3/);
    expect(text).toMatch(/passwordless existing +1/);
    expect(text).toContain('2 imported + 3 passwordless created + 1 passwordless existing = 6 operations');
  });

  it('counts them as new and existed in the progress line', () => {
    const counts = { ...emptyCounts(), imported: 1, passwordlessCreated: 2, passwordlessExisting: 1, total: 4 };
    const line = formatProgress({ type: 'progress', done: 4, total: 4, counts, ratePerSecond: 4, etaSeconds: undefined, concurrency: 1, inFlight: 0 });
    expect(line).toContain('new 3 existed 1');
  });
});
