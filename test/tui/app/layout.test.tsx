import { appTestBed } from '../support/app-bed.js';
import { describe, expect, it } from 'vitest';
import { keys } from '../keys.js';
import { onScreen, overflow, press, settle, waitFor, type Terminal, walkToReview } from '../support/terminal.js';

const bed = appTestBed('layout');

function open(columns: number, rows: number, extra: Record<string, unknown> = {}): Terminal {
  return bed.open({ file: 'users.json', hashConfig: 'hash_config.txt', verifyCredentials: 'credentials.txt', ...extra }, { size: { columns, rows } });
}

/** A line cut with … only because it is as wide as the screen: nothing that fits is cut. */
function cutThoughItFits(frame: string, columns: number): string[] {
  return frame.split('\n').filter((line) => line.endsWith('…') && Array.from(line).length < columns - 1);
}

describe('the app uses the terminal it is given', () => {
  for (const [columns, rows] of [
    [60, 20],
    [80, 24],
    [120, 40],
  ] as const) {
    it(`fits every screen of the walk in ${columns}x${rows}, and cuts nothing that fits`, async () => {
      const app = open(columns, rows);
      const screens: string[] = [];
      const check = (name: string) => {
        const frame = app.lastFrame();
        screens.push(name);
        expect(overflow(frame, columns, rows), `${name}:\n${frame}`).toEqual([]);
        expect(cutThoughItFits(frame, columns), `${name}:\n${frame}`).toEqual([]);
      };
      await waitFor(app, 'Where is the core?');
      await press(app, keys.enter);
      await waitFor(app, onScreen('Source'));
      await waitFor(app, 'detected: firebase-json');
      check('Source');
      await press(app, keys.enter);
      await waitFor(app, 'Hash families in the file');
      check('Hashes');
      // The focus is on a path with text in it, where ? is typed: Ctrl+G opens the help everywhere.
      await press(app, '\u0007');
      await waitFor(app, 'Help: Hashes');
      check('Help');
      await press(app, 'x', keys.enter);
      await waitFor(app, 'What a migrated user keeps');
      check('Identity');
      await press(app, keys.enter);
      await waitFor(app, 'Nothing is sent until you confirm.');
      check('Review');
      await press(app, keys.up, keys.enter);
      await waitFor(app, 'records not imported, by reason');
      check('Report');
      await press(app, keys.escape, keys.down, keys.enter, 'y');
      await waitFor(app, 'Push finished.', 20_000);
      check('Summary');
      expect(screens).toHaveLength(7);
    }, 40_000);
  }

  it('at 120 columns the plan table shows the reasons that fit, whole', async () => {
    const app = open(120, 40);
    await walkToReview(app);
    expect(app.lastFrame()).toContain('record #9: malformed BCrypt hash: it has 30 characters instead of 60');
  }, 30_000);

  it('redraws whole at every resize during a push: each frame fits the size it is drawn for, with one header', async () => {
    bed.core().faults.setLatencyMs(120);
    const app = open(80, 24, { concurrency: 1 });
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    await waitFor(app, 'concurrency 1', 20_000);
    for (const [columns, rows] of [
      [60, 20],
      [120, 40],
      [70, 22],
    ] as const) {
      app.resize(columns, rows);
      await settle(150);
      const frame = app.lastFrame();
      expect(overflow(frame, columns, rows), frame).toEqual([]);
      expect(frame.split('\n').filter((line) => line.startsWith('core-migrate '))).toHaveLength(1);
    }
    await press(app, 'q');
    await waitFor(app, (frame) => frame.includes('Push stopped early.') || frame.includes('Push finished.'), 20_000);
  }, 40_000);
});
