import { describe, expect, it } from 'vitest';
import { describeSyncCounts, emptySyncCounts } from '../../../core-client/src/summary/push-summary.js';
import { deltaRow } from '../../../tui/src/screens/sync-delta.js';

describe("a sync's delta names a phone user's changed number as such", () => {
  it('Review lists it as a phone number change, and the summary counts it apart from email changes', () => {
    expect(deltaRow({ sourceId: 'u24', change: 'changed', groups: ['phoneNumber', 'profile'], removes: false }, 'keep', false)).toEqual({
      action: 'change',
      sourceId: '"u24"',
      detail: 'phone number, profile',
    });
    const [, changes] = describeSyncCounts({ ...emptySyncCounts(), changed: 1, phoneNumberChanged: 1 });
    expect(changes).toContain('0 email, 1 phone number,');
  });
});
