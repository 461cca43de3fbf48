import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { KeyHints } from '../../../tui/src/components/key-hints.js';
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

  it('aligns labels and numbers and keeps rows within 80 columns', () => {
    const app = render(
      <Table
        rows={[
          { label: 'imported', value: 12 },
          { label: 'rejected', value: 3, note: 'a very long note that goes on and on '.repeat(4) },
        ]}
      />,
    );
    const lines = (app.lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/^ {2}imported +12$/);
    expect(lines[1]).toMatch(/^ {2}rejected +3 a very long note/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});
