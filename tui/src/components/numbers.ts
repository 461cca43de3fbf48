/** Every count the app shows, grouped the same way (1,234,567). */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A count that may not be known yet. */
export function formatMaybeCount(value: number | undefined): string {
  return value === undefined ? '?' : formatCount(value);
}
