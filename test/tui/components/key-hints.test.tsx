import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { fittingHints, KeyHints } from '../../../tui/src/components/key-hints.js';
import { Table } from '../../../tui/src/components/table.js';

describe('KeyHints and Table', () => {
  it('lists each key with what it does, on one line', () => {
    const app = render(
      <KeyHints
        hints={[
          ['Enter', 'continue'],
          ['Esc', 'back'],
        ]}
      />,
    );
    expect(app.lastFrame()).toBe('Enter continue  Esc back');
  });

  it('shows only the hints that fit the line, most important first', () => {
    const hints = [
      ['Enter', 'continue'],
      ['Esc', 'back'],
      ['?', 'help'],
    ] as const;
    expect(fittingHints(hints, 80)).toHaveLength(3);
    expect(fittingHints(hints, 24)).toEqual([hints[0], hints[1]]);
  });

  it('aligns labels and grouped numbers, keeps rows within the width, and says how many rows did not fit', () => {
    const rows = [
      { label: 'imported', value: 1234567 },
      { label: 'rejected', value: 3, note: 'a very long note that goes on and on '.repeat(4) },
      { label: 'failed', value: 0 },
    ];
    const lines = (render(<Table rows={rows} columns={60} />).lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/^ {2}imported +1,234,567$/);
    expect(lines[1]).toMatch(/^ {2}rejected +3 {2}a very long note/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    const cut = (render(<Table rows={rows} columns={60} maxRows={2} />).lastFrame() ?? '').split('\n');
    expect(cut).toHaveLength(2);
    expect(cut[1]).toMatch(/….*2 more rows/);
  });
});
