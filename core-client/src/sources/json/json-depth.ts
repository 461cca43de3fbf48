/**
 * No export nests a user this deep (a Firebase user is three levels), and a value nested much deeper would overflow
 * the stack of whatever walks it later (JSON.stringify fails near ten thousand levels): such a record is refused.
 */
export const MAX_RECORD_DEPTH = 64;

/** The sentence of a refused record, the same for every format. */
export const TOO_DEEP_REASON = `the record nests deeper than ${MAX_RECORD_DEPTH} levels, deeper than any export of users`;

/**
 * Whether JSON text nests containers deeper than `limit` levels, in one pass that stops as soon as it does. Text
 * shorter than two characters a level cannot, so most records cost nothing. Meant for text JSON.parse has accepted.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c) at += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
