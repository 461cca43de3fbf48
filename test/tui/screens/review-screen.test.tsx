import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ReviewScreen } from '../../../tui/src/screens/review-screen.js';
import type { WalkState } from '../../../tui/src/screens/walk-state.js';
import { keys, press } from '../keys.js';
import { planSummary } from './fixtures.js';
import { ScreenHarness } from './harness.js';
import { expectFits80x24 } from './fits.js';

function reviewScreen(observe: (state: WalkState) => void, onStart: () => void) {
  return render(
    <ScreenHarness
      prepare={[{ type: 'goTo', step: 'review' }, { type: 'requestPlan' }, { type: 'planFinished', optionsKey: 'current', summary: planSummary() }]}
      observe={observe}
      screen={({ state, current, dispatch }) => (
        <ReviewScreen state={state} current={current} planCurrent target="http://127.0.0.1:3567 (tenant public)" dispatch={dispatch} onStart={onStart} />
      )}
    />,
  );
}

describe('the Review screen', () => {
  it('shows the plan as a table: kinds, families, providers, rejections by reason with an example, duplicates', () => {
    const app = reviewScreen(
      () => undefined,
      () => undefined,
    );
    const frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/password imports +7 bcrypt 2 · argon2 2 · vendor_scrypt 3/);
    expect(frame).toMatch(/third-party sign-ins +4 google 2 · github 2/);
    expect(frame).toMatch(/rejected by the plan +5/);
    expect(frame).toMatch(/unusableHash +1 record #9: malformed BCrypt hash/);
    expect(frame).toMatch(/duplicates +1/);
    expect(frame).toMatch(/without credentials +1/);
    expectFits80x24(frame);
    app.unmount();
  });

  it('sends nothing until the operator answers y, and n takes the question back', async () => {
    let state: WalkState | undefined;
    let started = 0;
    const app = reviewScreen(
      (next) => (state = next),
      () => (started += 1),
    );
    await press(app, keys.down, ' ');
    expect(state?.review.dryRun).toBe(true);
    await press(app, ' ', keys.enter);
    expect(app.lastFrame()).toContain('Send 11 operations to http://127.0.0.1:3567 (tenant public)? (y/n)');
    expectFits80x24(app.lastFrame() ?? '');
    await press(app, 'n');
    expect(state?.review.confirming).toBe(false);
    expect(started).toBe(0);
    await press(app, keys.enter, 'y');
    expect(started).toBe(1);
    app.unmount();
  });

  it('refuses to start with a concurrency that is not a number, and Esc goes back', async () => {
    let state: WalkState | undefined;
    const app = reviewScreen(
      (next) => (state = next),
      () => undefined,
    );
    await press(app, keys.ctrlU, 'many', keys.enter);
    expect(app.lastFrame()).toContain('✗ concurrency must be a whole number');
    expect(state?.review.confirming).toBe(false);
    await press(app, keys.escape);
    expect(state?.step).toBe('hashes');
    expect(state?.review.concurrency).toBe('many');
    app.unmount();
  });
});
