import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { checkConnection } from '../../../tui/src/hooks/preflight.js';
import { ConnectScreen } from '../../../tui/src/screens/connect-screen.js';
import type { WalkState } from '../../../tui/src/screens/walk-state.js';
import { keys, press, waitForFrame } from '../keys.js';
import { ScreenHarness } from './harness.js';
import { expectFits80x24 } from './fits.js';

const apiKey = 'connect-screen-test-key-0123456789';
let core: CoreDouble;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey] });
});
afterAll(async () => {
  await core.close();
});

function connectScreen(observe: (state: WalkState) => void) {
  return render(
    <ScreenHarness
      observe={observe}
      screen={({ state, current, dispatch }) => (
        <ConnectScreen
          state={state}
          current={current}
          stacks={{ state: 'unavailable', reason: 'The Pulumi CLI was not found: install it, or type the core below.' }}
          apiKeyFromEnvironment={false}
          dispatch={dispatch}
          onCheck={() => {
            dispatch({ type: 'preflightStarted' });
            void checkConnection(current().connect, {}).then((result) => dispatch({ type: 'preflightFinished', result }));
          }}
          onQuit={() => undefined}
        />
      )}
    />,
  );
}

describe('the Connect screen', () => {
  it('runs the pre-flight live, shows versions and round trip, then goes on with Enter', async () => {
    let state: WalkState | undefined;
    const app = connectScreen((next) => (state = next));
    expect(app.lastFrame()).toContain('Pulumi CLI was not found');
    expect(app.lastFrame()).toContain('Enter check connection');
    await press(app, keys.down, core.url, keys.down, keys.down, keys.down, apiKey, keys.enter);
    const frame = await waitForFrame(app.lastFrame, (text) => text.includes('round trip'), 'the pre-flight result');
    expect(frame).toMatch(/✓ core reachable +✓ api-key accepted +✓ tenant exists/);
    expect(frame).toContain('versions');
    expect(frame).toContain('Enter continue');
    expectFits80x24(frame);
    await press(app, keys.enter);
    expect(state?.step).toBe('source');
    for (const shown of app.frames) expect(shown).not.toContain(apiKey);
    app.unmount();
  });

  it('says in one sentence what to do when the key is refused, and never shows the key', async () => {
    const app = connectScreen(() => undefined);
    const wrongKey = 'wrong-key-wrong-key-wrong-key';
    await press(app, keys.down, core.url, keys.up, keys.up, wrongKey, keys.enter);
    const frame = await waitForFrame(app.lastFrame, (text) => text.includes('✗'), 'the failed step');
    expect(frame).toMatch(/✗ api-key accepted/);
    expect(frame).toMatch(/key/i);
    expect(frame).toContain('Enter check connection');
    expectFits80x24(frame);
    for (const shown of app.frames) expect(shown).not.toContain(wrongKey);
    app.unmount();
  });

  it('explains a missing key before any request', async () => {
    const app = connectScreen(() => undefined);
    await press(app, keys.down, core.url, keys.enter);
    const frame = await waitForFrame(app.lastFrame, (text) => text.includes('✗'), 'the missing-key sentence');
    expect(frame).toContain('CORE_API_KEY');
    app.unmount();
  });
});
