import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRequestFrom } from '../../../tui/src/hooks/plan-request.js';
import { usePlan } from '../../../tui/src/hooks/use-plan.js';
import type { Walk } from '../../../tui/src/hooks/use-walk.js';
import { SourceScreen } from '../../../tui/src/screens/source-screen.js';
import type { WalkState } from '../../../tui/src/screens/walk-state.js';
import { keys, press, waitForFrame } from '../keys.js';
import { ScreenHarness } from './harness.js';
import { expectFits80x24 } from './fits.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-source-'));
  await mkdir(join(folder, 'exports'));
  const users = Array.from({ length: 3 }, (_, index) => JSON.stringify({ email: `user${index}@example.com`, passwordHash: '' }));
  await writeFile(join(folder, 'exports', 'users.ndjson'), `${users.join('\n')}\n`);
  await writeFile(join(folder, 'exports', 'users-old.ndjson'), `${users[0]}\n`);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function SourceWithPlan({ walk }: { walk: Walk }) {
  const request = planRequestFrom(walk.state, folder);
  usePlan(request, walk.dispatch);
  const current = request !== undefined && walk.state.plan?.optionsKey === request.key;
  return <SourceScreen state={walk.state} current={walk.current} cwd={folder} planCurrent={current} dispatch={walk.dispatch} />;
}

function sourceScreen(observe: (state: WalkState) => void = () => undefined) {
  return render(<ScreenHarness prepare={[{ type: 'goTo', step: 'source' }]} observe={observe} screen={(walk) => <SourceWithPlan walk={walk} />} />);
}

describe('the Source screen', () => {
  it('completes directories and files with Tab, listing the candidates when there are several', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, 'exp', keys.tab);
    await waitForFrame(app.lastFrame, () => state?.source.path === 'exports/', 'the completed directory');
    await press(app, keys.tab);
    await waitForFrame(app.lastFrame, (text) => text.includes('users-old.ndjson  users.ndjson'), 'both candidates');
    expect(state?.source.path).toBe('exports/users');
    expectFits80x24(app.lastFrame() ?? '');
    await press(app, '.', keys.tab);
    await waitForFrame(app.lastFrame, () => state?.source.path === 'exports/users.ndjson', 'the one file left');
    app.unmount();
  });

  it('counts the plan when asked, then goes on; the format can be changed; Esc goes back', async () => {
    let state: WalkState | undefined;
    const app = sourceScreen((next) => (state = next));
    await press(app, 'exports/users.ndjson', keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('✓ 3 records → 3 operations'), 'the plan count');
    expect(app.lastFrame()).toContain('Enter continue');
    expectFits80x24(app.lastFrame() ?? '');
    await press(app, keys.down, keys.right);
    expect(state?.source.format).toBe('firebase-json');
    await waitForFrame(app.lastFrame, (text) => text.includes('‹ firebase-json ›'), 'the forced format');
    await waitForFrame(app.lastFrame, (text) => text.includes('✗'), 'the plan of the forced (wrong) format failing');
    await press(app, keys.left);
    await waitForFrame(app.lastFrame, (text) => text.includes('✓ 3 records'), 'the plan read again with the detected format');
    await press(app, keys.escape);
    expect(state?.step).toBe('connect');
    expect(state?.source.path).toBe('exports/users.ndjson');
    app.unmount();
  });
});
