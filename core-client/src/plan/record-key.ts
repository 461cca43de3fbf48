import { basename } from 'node:path';
import type { RecordLocation } from '../location.js';

/** A short, stable name of a record's place in its source: `users.json:I42`, `export.csv:L7`. */
export function recordKey(location: RecordLocation): string {
  const where = location.line !== undefined ? `L${location.line}` : `I${location.index ?? 0}`;
  return `${basename(location.file)}:${where}`;
}

export function recordPosition(location: RecordLocation): number {
  return location.line ?? location.index ?? 0;
}
