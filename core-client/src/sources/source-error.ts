import { z } from 'zod';
import { RecordLocationSchema, formatLocation } from '../location.js';
import { Problem } from '../problem.js';

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
  /** A file that is one JSON object of no shape a reader knows (not a Firebase export, not one user). */
  'unknown-object',
  'bad-mapping',
  /** A database table without a column the reader needs (named in the sentence). */
  'missing-column',
  'line-too-long',
  'record-too-long',
  'too-deep',
] as const;
export type SourceErrorKind = (typeof sourceErrorKinds)[number];

/** The settings a file's problem can concern (keys of the settings table): the export, its format, its mapping, Auth0's hashes. */
export type SourceSetting = 'file' | 'format' | 'mapping' | 'auth0PasswordFile';

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
export class SourceError extends Problem<SourceSetting, `source.${SourceErrorKind}`> {
  override readonly name = 'SourceError';
  /** What went wrong with the file; the problem's `code` is `source.<reason>`. */
  readonly reason: SourceErrorKind;
  readonly location: SourceErrorLocation;
  /** The problem without the place, for callers that show the place separately. */
  readonly detail: string;

  constructor(reason: SourceErrorKind, location: SourceErrorLocation, detail: string, options: { cause?: unknown; setting?: SourceSetting } = {}) {
    super(
      `source.${reason}`,
      'setting',
      options.setting ?? (reason === 'bad-mapping' ? 'mapping' : 'file'),
      `${formatSourceErrorLocation(location)}: ${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = reason;
    this.location = location;
    this.detail = detail;
  }

  /** The same error, as one that `setting` fixes: the reader that knows which file it read, and why, says so. */
  concerning(setting: SourceSetting): SourceError {
    return new SourceError(this.reason, this.location, this.detail, { cause: this.cause, setting });
  }
}

export function isSourceError(value: unknown): value is SourceError {
  return value instanceof SourceError;
}
