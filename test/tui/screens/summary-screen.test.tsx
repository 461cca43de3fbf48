import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { SummaryScreen } from '../../../tui/src/screens/summary-screen.js';
import { keys, press } from '../keys.js';
import { pushSummary } from './fixtures.js';
import { expectFits80x24 } from './fits.js';

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
    expectFits80x24(frame);
    app.unmount();
  });

  it('fits 80x24 when it says everything: stopped early, credentials, long paths and a long resume command', () => {
    const folder = '/home/operator/migrations/2024-06-acme-production-export/run-3';
    const summary = pushSummary({
      notAttempted: 3,
      total: 21,
      alreadyExisted: 2,
      stoppedEarly: { reason: 'interrupted', message: 'Interrupted: the journal holds every answered operation; a resume sends the rest.' },
      credentials: { checked: 7, matchedLocally: 7, notPlanned: 0, loggedIn: 6 },
      journalPath: `${folder}/core-migrate.journal.ndjson`,
      reportPath: `${folder}/core-migrate.report.ndjson`,
    });
    const resume = `core-migrate push ${folder}/users.json --journal ${folder}/core-migrate.journal.ndjson --report ${folder}/core-migrate.report.ndjson --concurrency 16 --hash-config ${folder}/hash-config.txt`;
    const app = render(<SummaryScreen summary={summary} resumeCommand={resume} onQuit={() => undefined} />);
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('Push stopped early.');
    expect(frame).toContain('6 logged in at the core');
    expect(frame).toContain('0 each: third-party existing, failed at the core, skipped (journal)');
    // The command shows whole (it wraps, within words where a path is longer than the line).
    const resumeLines = frame
      .slice(frame.indexOf('resume   '))
      .split('\n')
      .filter((line) => line.startsWith('resume   ') || line.startsWith(' '.repeat(9)));
    expect(
      resumeLines
        .map((line) => line.slice(9))
        .join('')
        .replace(/\s/g, ''),
    ).toBe(resume.replace(/\s/g, ''));
    expectFits80x24(frame);
    app.unmount();
  });

  it('says when a push stopped early, and flags counts that do not add up', async () => {
    const summary = pushSummary({
      imported: 3,
      notAttempted: 3,
      total: 17,
      stoppedEarly: { reason: 'interrupted', message: 'Interrupted: the journal holds every answered operation.' },
    });
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
