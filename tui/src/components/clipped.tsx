import type { ReactNode } from 'react';
import { Box } from 'ink';

/** How many lines `text` takes wrapped at spaces to `width` columns (long words broken), as Ink wraps text. */
export function wrappedLineCount(text: string, width: number): number {
  let lines = 1;
  let used = 0;
  for (const word of text.split(' ')) {
    const length = Array.from(word).length;
    if (used > 0 && used + 1 + length <= width) {
      used += 1 + length;
      continue;
    }
    if (used > 0) lines += 1;
    const rows = Math.max(1, Math.ceil(length / width));
    lines += rows - 1;
    used = length - (rows - 1) * width;
  }
  return lines;
}

/** `text`, shortened at a word with `…` until it wraps to at most `maxLines` lines of `width` columns. */
export function clipToLines(text: string, width: number, maxLines: number): string {
  if (wrappedLineCount(text, width) <= maxLines) return text;
  const words = text.split(' ');
  while (words.length > 1) {
    words.pop();
    const shortened = `${words.join(' ')} …`;
    if (wrappedLineCount(shortened, width) <= maxLines) return shortened;
  }
  return `${Array.from(text)
    .slice(0, width * maxLines - 2)
    .join('')} …`;
}

/** A block of exactly `lines` lines whatever its text wraps to, so a screen can budget its 24 rows. */
export function Clipped({ lines, marginLeft = 0, children }: { lines: number; marginLeft?: number; children: ReactNode }) {
  return (
    <Box height={lines} overflowY="hidden" marginLeft={marginLeft} flexShrink={0}>
      {children}
    </Box>
  );
}
