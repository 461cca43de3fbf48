import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { emptyCounts } from '../../../core-client/src/push/summary.js';
import { foldPushEvent, formatDuration, initialPushView } from '../../../tui/src/hooks/push-progress.js';
import { PushScreen } from '../../../tui/src/screens/push-screen.js';
import { keys, press } from '../keys.js';
import { expectFits80x24 } from './fits.js';

const progressed = foldPushEvent(foldPushEvent(initialPushView(), { type: 'started', total: 1000, concurrency: 16, dryRun: false, resumedEntries: 0 }), {
  type: 'progress',
  done: 250,
  total: 1000,
  ratePerSecond: 125,
  etaSeconds: 6,
  counts: { ...emptyCounts(), imported: 200, thirdPartyCreated: 40, rejected: 10, total: 250 },
  concurrency: 12,
  inFlight: 12,
});

describe('the Push screen', () => {
  it('shows done/total, rate, ETA, counts by outcome and the current concurrency', () => {
    const app = render(
      <PushScreen
        view={progressed}
        target="http://127.0.0.1:3567 (tenant public)"
        failure={undefined}
        onPauseToggle={() => undefined}
        onStop={() => undefined}
        onQuit={() => undefined}
      />,
    );
    const frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/\[#{11}\.{33}\] +25% +250\/1,000/);
    expect(frame).toContain('rate 125/s   ETA 6s   concurrency 12');
    expect(frame).toMatch(/imported +200/);
    expect(frame).toMatch(/third-party created +40/);
    expect(frame).toMatch(/rejected by the plan +10/);
    expect(frame).toContain('p pause  q stop safely (resumable)');
    expectFits80x24(frame);
    app.unmount();
  });

  it('pauses with p and stops safely with q or Ctrl-C', async () => {
    const calls: string[] = [];
    const app = render(
      <PushScreen
        view={progressed}
        target="core"
        failure={undefined}
        onPauseToggle={() => calls.push('pause')}
        onStop={() => calls.push('stop')}
        onQuit={() => calls.push('quit')}
      />,
    );
    await press(app, 'p', 'q', keys.ctrlC);
    expect(calls).toEqual(['pause', 'stop', 'stop']);
    app.unmount();
  });

  it('says what stopped the push and lets the operator leave after a failure', async () => {
    const stopping = foldPushEvent(progressed, {
      type: 'signerKeyMissing',
      message: 'The core has no signer key: set VENDOR_PASSWORD_HASHING_SIGNER_KEY and restart it.',
    });
    const calls: string[] = [];
    const app = render(
      <PushScreen
        view={stopping}
        target="core"
        failure="the journal was written for another file"
        onPauseToggle={() => undefined}
        onStop={() => calls.push('stop')}
        onQuit={() => calls.push('quit')}
      />,
    );
    expect(app.lastFrame()).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(app.lastFrame()).toContain('✗ the journal was written for another file');
    expectFits80x24(app.lastFrame() ?? '');
    await press(app, 'q');
    expect(calls).toEqual(['quit']);
    app.unmount();
  });

  it('formats durations for the ETA', () => {
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(3 * 3600 + 120)).toBe('3h 02m');
  });
});

describe('the push events folded for the screen', () => {
  it('shows the signer-key probe until progress goes past it, without full paths', () => {
    const probing = foldPushEvent(initialPushView(), {
      type: 'probe',
      message: 'Sending the first vendor_scrypt user (/tmp/demo/users.json, record #0) alone.',
    });
    expect(probing.note).toBe('Sending the first vendor_scrypt user (users.json, record #0) alone.');
    expect(
      foldPushEvent(probing, {
        type: 'progress',
        done: 0,
        total: 3,
        ratePerSecond: 0,
        etaSeconds: undefined,
        counts: emptyCounts(),
        concurrency: 1,
        inFlight: 1,
      }).note,
    ).toBeDefined();
    expect(
      foldPushEvent(probing, { type: 'progress', done: 1, total: 3, ratePerSecond: 1, etaSeconds: 2, counts: emptyCounts(), concurrency: 4, inFlight: 2 }).note,
    ).toBeUndefined();
  });

  it('keeps a push-back note and the new concurrency', () => {
    const view = foldPushEvent(progressed, { type: 'pushBack', status: 429, retryAfterMs: 1000, concurrency: 6 });
    expect(view.concurrency).toBe(6);
    expect(view.note).toBe('the core pushed back (HTTP 429): concurrency now 6');
  });
});
