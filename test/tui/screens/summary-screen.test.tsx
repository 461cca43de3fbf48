import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { SummaryScreen } from '../../../tui/src/screens/summary-screen.js';
import { keys, press } from '../keys.js';
import { pushSummary } from './fixtures.js';

describe('the Summary screen', () => {
  it('shows the counts, that they add up, the paths, the resume command and how many logged in', () => {
    const summary = pushSummary({ credentials: { checked: 7, matchedLocally: 7, notPlanned: 0, loggedIn: 6 } });
    const app = render(<SummaryScreen summary={summary} resumeCommand="core-migrate push users.json --journal j" onQuit={() => undefined} />);
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('Push finished.');
    expect(frame).toMatch(/imported +7/);
    expect(frame).toContain('✓ these add up to 16 of 16 planned operations');
    expect(frame).toContain('Credentials: 7 checked, 7 matched locally, 6 logged in at the core');
    expect(frame).toContain('report   /tmp/walk/report.ndjson');
    expect(frame).toContain('resume   core-migrate push users.json --journal j');
    app.unmount();
  });

  it('says when a push stopped early, and flags counts that do not add up', async () => {
    const summary = pushSummary({ imported: 3, notAttempted: 3, total: 17, stoppedEarly: { reason: 'interrupted', message: 'Interrupted: the journal holds every answered operation.' } });
    let quit = 0;
    const app = render(<SummaryScreen summary={summary} resumeCommand="core-migrate push users.json" onQuit={() => (quit += 1)} />);
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('Push stopped early.');
    expect(frame).toContain('Interrupted: the journal holds');
    expect(frame).toMatch(/not attempted +3 a resume sends them/);
    expect(frame).toContain('✗ these add up to 15 of 17 planned operations');
    await press(app, keys.enter);
    expect(quit).toBe(1);
    app.unmount();
  });
});
