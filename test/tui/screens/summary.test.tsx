import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { emptyCounts, type PushSummary } from '../../../core-client/src/summary/push-summary.js';
import { initialAppState } from '../../../tui/src/app/state.js';
import { summaryScreen } from '../../../tui/src/screens/summary.js';

describe('the Summary screen', () => {
  it('shows passwordless users created and existing as their own rows, and that the outcomes add up', () => {
    const summary: PushSummary = {
      ...emptyCounts(),
      imported: 2,
      passwordlessCreated: 3,
      passwordlessExisting: 1,
      total: 6,
      dryRun: false,
      retries: 0,
      elapsedMs: 5,
    };
    const state = {
      ...initialAppState({ settings: MigrationSettingsSchema.parse({}), invocation: 'core-migrate' }),
      run: { state: 'finished' as const, summary, commandLine: [] },
    };
    const { Body } = summaryScreen;
    const frame = render(<Body state={state} fields={[]} columns={100} rows={30} />).lastFrame() ?? '';
    expect(frame).toMatch(/passwordless created\s+3/);
    expect(frame).toMatch(/passwordless existing\s+1/);
    expect(frame).toContain('✓ these add up to 6 of 6 planned operations');
  });
});
