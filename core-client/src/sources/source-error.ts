import { z } from 'zod';
import { RecordLocationSchema, formatLocation } from '../location.js';

/** What went wrong with a whole file, so callers can choose an exit code or a hint without parsing messages. */
export const sourceErrorKinds = [
  'unreadable',
  'empty',
  'not-utf8',
  'bad-gzip',
  'truncated',
  'not-json',
  'wrong-format',
  'unknown-format',
  'bad-mapping',
  'line-too-long',
  'record-too-long',
  'too-deep',
] as const;
export type SourceErrorKind = (typeof sourceErrorKinds)[number];

/** A record location plus the byte offset (in the decompressed text) where a file-level problem was found. */
export const SourceErrorLocationSchema = RecordLocationSchema.extend({
  byteOffset: z.number().int().nonnegative().optional(),
});
export type SourceErrorLocation = z.infer<typeof SourceErrorLocationSchema>;

export function formatSourceErrorLocation(location: SourceErrorLocation): string {
  const where = formatLocation(location);
  return location.byteOffset === undefined ? where : `${where}, byte ${location.byteOffset}`;
}

/**
 * A file that cannot be read as a whole (truncated, wrong format, not UTF-8, empty...). It ends the stream of
 * records; a single broken record never does (it becomes a MalformedRecord instead).
 */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  readonly kind: SourceErrorKind;
  readonly location: SourceErrorLocation;
  /** The problem without the place, for callers that show the place separately. */
  readonly detail: string;

  constructor(kind: SourceErrorKind, location: SourceErrorLocation, detail: string, options?: { cause?: unknown }) {
    super(`${formatSourceErrorLocation(location)}: ${detail}`, options);
    this.kind = kind;
    this.location = location;
    this.detail = detail;
  }
}

export function isSourceError(value: unknown): value is SourceError {
  return value instanceof SourceError;
}
