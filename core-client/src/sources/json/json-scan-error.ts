import type { TextPosition } from './chunk-text.js';

export type JsonScanErrorKind = 'not-json' | 'truncated' | 'wrong-format' | 'record-too-long' | 'too-deep';

export class JsonScanError extends Error {
  override readonly name = 'JsonScanError';
  constructor(
    readonly kind: JsonScanErrorKind,
    /** Where the problem is; absent when it is about the file as a whole (no array key at all). */
    readonly position: TextPosition | undefined,
    readonly detail: string,
    /** The element it concerns, when it concerns one. */
    readonly index?: number,
  ) {
    super(detail);
  }
}
