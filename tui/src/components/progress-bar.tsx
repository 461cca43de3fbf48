import { Text } from 'ink';

export interface ProgressBarProps {
  done: number;
  /** Unknown while the plan is still being counted: the bar then shows only the count. */
  total: number | undefined;
  width?: number;
}

export function progressCells(done: number, total: number, width: number): number {
  if (total <= 0) return width;
  return Math.max(0, Math.min(width, Math.floor((done / total) * width)));
}

/** A plain-character bar (no colour needed to read it): [#######.......]  47% */
export function ProgressBar({ done, total, width = 40 }: ProgressBarProps) {
  // Until the total is known the bar stays empty; the count beside it says how far the push is.
  if (total === undefined) return <Text>{`[${'.'.repeat(width)}]`}</Text>;
  const filled = progressCells(done, total, width);
  const percent = total <= 0 ? 100 : Math.floor((Math.min(done, total) / total) * 100);
  return (
    <Text>
      [{'#'.repeat(filled)}
      {'.'.repeat(width - filled)}] {String(percent).padStart(3)}%
    </Text>
  );
}
