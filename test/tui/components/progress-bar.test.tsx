import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ProgressBar, progressCells } from '../../../tui/src/components/progress-bar.js';

describe('ProgressBar', () => {
  it('fills in proportion to done/total, never beyond its width', () => {
    expect(progressCells(0, 10, 20)).toBe(0);
    expect(progressCells(5, 10, 20)).toBe(10);
    expect(progressCells(15, 10, 20)).toBe(20);
    expect(progressCells(0, 0, 20)).toBe(20);
  });

  it('draws with plain characters and a percentage, and an empty bar while the total is unknown', () => {
    const half = render(<ProgressBar done={50} total={100} width={10} />);
    expect(half.lastFrame()).toBe('[#####.....]  50%');
    const unknown = render(<ProgressBar done={3} total={undefined} width={4} />);
    expect(unknown.lastFrame()).toBe('[....]');
  });
});
