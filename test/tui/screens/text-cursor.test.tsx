import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConnectScreen } from '../../../tui/src/screens/connect-screen.js';
import { SourceScreen } from '../../../tui/src/screens/source-screen.js';
import type { WalkState } from '../../../tui/src/screens/walk-state.js';
import { keys, press } from '../keys.js';
import { ScreenHarness } from './harness.js';

/** Presses a key `count` times. */
const times = (key: string, count: number): string[] => Array.from({ length: count }, () => key);
/** Types a text one key at a time, as a person does (a single write would be a paste). */
const typed = (text: string): string[] => Array.from(text);

function sourceScreen(observe: (state: WalkState) => void) {
  return render(
    <ScreenHarness
      prepare={[{ type: 'goTo', step: 'source' }]}
      observe={observe}
      screen={({ state, current, dispatch }) => <SourceScreen state={state} current={current} cwd="/nowhere" planCurrent={false} dispatch={dispatch} />}
    />,
  );
}

function connectScreen(observe: (state: WalkState) => void) {
  return render(
    <ScreenHarness
      observe={observe}
      screen={({ state, current, dispatch }) => (
        <ConnectScreen
          state={state}
          current={current}
          stacks={{ state: 'listed', names: ['dev', 'prod'] }}
          apiKeyFromEnvironment={false}
          dispatch={dispatch}
          onCheck={() => undefined}
          onQuit={() => undefined}
        />
      )}
    />,
  );
}

/** The row of a field in a frame. */
function row(frame: string | undefined, label: string): string {
  return (frame ?? '').split('\n').find((line) => line.includes(label)) ?? '';
}

describe('the cursor in a text field', () => {
  it('inserts typed and pasted text in the middle, and shows where it is', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, ...typed('exports/users.json'));
    expect(row(app.lastFrame(), 'Export file')).toContain('exports/users.json▏');
    await press(app, ...times(keys.left, 5), ...typed('-old'));
    expect(state?.source.path).toBe('exports/users-old.json');
    expect(row(app.lastFrame(), 'Export file')).toContain('exports/users-old▏.json');
    await press(app, keys.left, keys.left, keys.left, keys.left, '2024-');
    expect(state?.source.path).toBe('exports/users2024--old.json');
    expect(row(app.lastFrame(), 'Export file')).toContain('exports/users2024-▏-old.json');
    expect(app.lastFrame()).toContain('←→ Home End cursor');
    app.unmount();
  });

  it('deletes before the cursor with Backspace and after it with Delete', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, ...typed('exports/users-old.json'), ...times(keys.left, 5));
    await press(app, ...times(keys.backspace, 4));
    expect(state?.source.path).toBe('exports/users.json');
    expect(row(app.lastFrame(), 'Export file')).toContain('exports/users▏.json');
    await press(app, keys.delete, ...typed('-'));
    expect(state?.source.path).toBe('exports/users-json');
    await press(app, keys.backspace, ...typed('.nd'));
    expect(state?.source.path).toBe('exports/users.ndjson');
    expect(row(app.lastFrame(), 'Export file')).toContain('exports/users.nd▏json');
    await press(app, keys.end, keys.delete);
    expect(state?.source.path).toBe('exports/users.ndjson');
    app.unmount();
  });

  it('jumps with Home/End and Ctrl+A/Ctrl+E, and Esc keeps the text', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, ...typed('users.json'), keys.home);
    expect(row(app.lastFrame(), 'Export file')).toContain('▏users.json');
    await press(app, ...typed('data/'), keys.end, ...typed('.bak'));
    expect(state?.source.path).toBe('data/users.json.bak');
    await press(app, keys.ctrlA, keys.delete, keys.ctrlE, ...times(keys.backspace, 4));
    expect(state?.source.path).toBe('ata/users.json');
    await press(app, keys.home, keys.escape);
    expect(state?.step).toBe('connect');
    expect(state?.source.path).toBe('ata/users.json');
    app.unmount();
  });

  it('leaves ←/→ to the choice on a choice field', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, ...typed('users.json'), keys.down);
    expect(app.lastFrame()).toContain('←→ format');
    await press(app, keys.right);
    expect(state?.source.format).toBe('firebase-json');
    expect(state?.source.path).toBe('users.json');
    await press(app, keys.up, keys.left, keys.left, 'x');
    expect(state?.source).toMatchObject({ path: 'users.jsxon', format: 'firebase-json' });
    app.unmount();
  });

  it('moves in the Core URL while ←/→ on the stack still choose the stack', async () => {
    let state: WalkState | undefined;
    const app = connectScreen((next) => (state = next));
    await press(app, keys.right);
    expect(state?.connect.stack).toBe('dev');
    await press(app, keys.down, ...typed('http://127.0.0.1:3567'), ...times(keys.left, 5), keys.backspace, ...typed('0'));
    expect(state?.connect.coreUrl).toBe('http://127.0.0.0:3567');
    expect(state?.connect.stack).toBe('dev');
    expect(row(app.lastFrame(), 'Core URL')).toContain('http://127.0.0.0▏:3567');
    app.unmount();
  });
});

describe('a masked field', () => {
  it('keeps its cursor after *** and only appends or deletes at the end, never showing the length', async () => {
    let state: WalkState | undefined;
    const app = connectScreen((next) => (state = next));
    await press(app, ...times(keys.down, 4), ...typed('k3y'));
    const short = row(app.lastFrame(), 'API key');
    expect(short).toContain('***▏');
    await press(app, keys.left, keys.left, keys.home, keys.ctrlA, ...typed('-s3cr3t'), keys.delete);
    expect(state?.connect.apiKey.reveal()).toBe('k3y-s3cr3t');
    expect(row(app.lastFrame(), 'API key')).toBe(short);
    await press(app, keys.home, keys.backspace, keys.backspace);
    expect(state?.connect.apiKey.reveal()).toBe('k3y-s3cr');
    expect(row(app.lastFrame(), 'API key')).toBe(short);
    expect(app.lastFrame()).not.toContain('←→ Home End');
    for (const frame of app.frames) {
      expect(frame).not.toContain('k3y');
      expect(frame).not.toContain('s3cr');
    }
    app.unmount();
  });
});
