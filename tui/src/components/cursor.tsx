import { Text } from 'ink';
import { useColour } from './theme.js';

/** Marks the cursor where inverse text may not show (NO_COLOR, logs, a copied screen): a bar before the character. */
export const cursorMark = '▏';

/** The text cursor over `under` (a space at the end of the text): inverse, or the bar under NO_COLOR. */
export function Cursor({ under }: { under: string | undefined }) {
  const colour = useColour();
  if (!colour) return <Text>{`${cursorMark}${under ?? ''}`}</Text>;
  return <Text inverse>{under ?? ' '}</Text>;
}

export interface VisiblePart {
  before: string;
  /** The character under the cursor; undefined when the cursor is after the last one. */
  under: string | undefined;
  after: string;
}

/**
 * The part of a long value that fits in `room` columns (one of them kept for the cursor), always with the cursor
 * in it; cut ends show `…`. At the end, where typing usually is, the value shows its tail (a path's file name).
 */
export function visiblePart(characters: readonly string[], at: number, room: number): VisiblePart {
  const text = Math.max(room - 1, 4);
  const count = characters.length;
  let start = 0;
  let end = count;
  if (count > text) {
    if (at >= count - (text - 1)) {
      start = count - (text - 1);
    } else {
      start = Math.max(0, at - Math.floor(text / 2));
      end = start + text - (start > 0 ? 1 : 0) - 1;
    }
  }
  return {
    before: (start > 0 ? '…' : '') + characters.slice(start, at).join(''),
    under: at < count ? characters[at] : undefined,
    after: characters.slice(at + 1, end).join('') + (end < count ? '…' : ''),
  };
}
