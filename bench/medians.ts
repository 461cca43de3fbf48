/** The median of some figures (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** "median (min-max)", or the one figure. */
export function medianAndSpread(values: readonly number[], digits = 0): string {
  const shown = (value: number): string => value.toFixed(digits);
  return values.length === 1 ? shown(values[0] ?? Number.NaN) : `${shown(median(values))} (${shown(Math.min(...values))}-${shown(Math.max(...values))})`;
}

/** The mean of some figures (NaN for none). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}
