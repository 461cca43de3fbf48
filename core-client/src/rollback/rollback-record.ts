import { z } from 'zod';
import { RunEndSchema, safeJson } from '../journal/journal-lines.js';

/**
 * The lines of a rollback's record (`<journal>.rollback`) besides its removals (`{"k","u"}`): one as a rollback
 * begins and one as it ends, with its counts, like a push's run lines in its journal (issue 25). A reader of the
 * removals skips them (they have no `k`), so a record with run lines stays readable by an older rollback.
 */
const count = z.number().int().nonnegative();

export const RollbackCountsSchema = z.object({
  /** Users the journal says this migration created: by its push and by every sync since (a sync creates new users too). */
  created: count,
  removed: count,
  /** Removed by an earlier run of this rollback. */
  alreadyRemoved: count,
  /** Removed by a sync already (disabled in the old system, or gone from it with --deleted remove): nothing left to remove. */
  removedBySync: count,
  /** The old id now names another core user: left alone. */
  leftAlone: count,
  failed: count,
  /** A dry run, or a stop: not removed (a re-run removes them). */
  notAttempted: count,
  /**
   * Creations the push sent but was killed before journalling their answer: the journal has no id for them. Resuming
   * the push first finds and records them; a rollback after that removes them too.
   */
  uncertain: count,
});
export type RollbackCounts = z.infer<typeof RollbackCountsSchema>;

export const RollbackRunStartSchema = z.object({ run: z.literal('rollback'), started: z.string() });
export type RollbackRunStart = z.infer<typeof RollbackRunStartSchema>;

export const RollbackRunEndSchema = RollbackRunStartSchema.extend({
  ended: z.string(),
  end: RunEndSchema,
  /** Partial when read: a line written by a version with other counts still reads. */
  counts: RollbackCountsSchema.partial(),
});
export type RollbackRunEnd = z.infer<typeof RollbackRunEndSchema>;

export function rollbackRunStart(): RollbackRunStart {
  return { run: 'rollback', started: new Date().toISOString() };
}

export function rollbackRunEnd(start: RollbackRunStart, end: RollbackRunEnd['end'], counts: RollbackCounts): RollbackRunEnd {
  // The counts alone, not the summary's paths and sentences.
  return { ...start, ended: new Date().toISOString(), end, counts: RollbackCountsSchema.parse(counts) };
}

/** A line of the record: a removal (its operation key), a run line, or undefined for a torn last line. */
export function parseRollbackLine(line: string): { removed: string } | RollbackRunStart | RollbackRunEnd | undefined {
  const json = safeJson(line);
  if (typeof json === 'object' && json !== null && 'k' in json && typeof json.k === 'string') return { removed: json.k };
  const end = RollbackRunEndSchema.safeParse(json);
  if (end.success) return end.data;
  const start = RollbackRunStartSchema.safeParse(json);
  return start.success ? start.data : undefined;
}
