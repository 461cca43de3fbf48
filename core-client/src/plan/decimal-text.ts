// V8 keeps the text of recently converted numbers (String(n), `${n}`) in a cache that young-generation GCs treat as
// live. A new text per record there was copied, then promoted, at every such GC, and V8 answered that survival by
// growing its young generation to the largest size: 128 MiB of the plan's RSS at a million users. Text built from
// a table of digits never enters that cache.
const SMALL = Array.from({ length: 1000 }, (_, value) => String(value));
const PADDED = SMALL.map((text) => text.padStart(3, '0'));

/** `String(value)` for a whole number from 0 to 2^53 - 1, without V8's number-to-text cache. */
export function decimalText(value: number): string {
  if (value < 1000) return SMALL[value] ?? String(value);
  let rest = Math.floor(value / 1000);
  let text = PADDED[value % 1000] ?? '';
  while (rest >= 1000) {
    text = (PADDED[rest % 1000] ?? '') + text;
    rest = Math.floor(rest / 1000);
  }
  return (SMALL[rest] ?? '') + text;
}
