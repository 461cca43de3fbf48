/**
 * Reads a `Retry-After` header: either delay-seconds or an HTTP-date (RFC 9110, 10.2.3).
 * Returns milliseconds from `nowMs`, never negative; `undefined` when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names a weekday, so a bare number or junk never parses as a date here.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
