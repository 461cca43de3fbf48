import { expect } from 'vitest';

/** A frame fits an 80x24 terminal: at most 24 lines, none wider than 80 columns (every character drawn is one column). */
export function expectFits80x24(frame: string): void {
  const lines = frame.split('\n');
  expect(lines.length, `${lines.length} lines:\n${frame}`).toBeLessThanOrEqual(24);
  for (const line of lines) expect(Array.from(line).length, `too wide: ${line}`).toBeLessThanOrEqual(80);
}
