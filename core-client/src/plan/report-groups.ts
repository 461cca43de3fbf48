import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { optional } from '../optional.js';

/** The line a run writes first: the report's groups start again from it. */
const RunLineSchema = z.looseObject({ stage: z.literal('run'), startedAt: z.string().optional().catch(undefined) });

/** A report line as the report view reads it back (see ReportLine). */
const ReportEntrySchema = z.object({
  stage: z.enum(['plan', 'core']),
  location: z.string(),
  email: z.string().optional(),
  sourceId: z.string().optional(),
  code: z.string(),
  reason: z.string(),
});
export type ReportEntry = z.infer<typeof ReportEntrySchema>;

export interface ReportGroup {
  code: string;
  count: number;
  /** The first entries of the group (at most `perGroup`): enough to browse; the file holds them all. */
  entries: ReportEntry[];
}

export interface ReportGroups {
  groups: ReportGroup[];
  /** Lines of the run read. */
  total: number;
  /** When the run began (its header's `startedAt`), if the report has a run header. */
  startedAt?: string;
}

/**
 * The last run's lines of a report, grouped by code, for browsing: every line counted, the first `perGroup` of each
 * group kept (memory stays small whatever the report's size). Earlier runs' lines are skipped.
 */
export async function readReportGroups(path: string, perGroup = 2_000): Promise<ReportGroups> {
  let groups = new Map<string, ReportGroup>();
  let total = 0;
  let startedAt: string | undefined;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const runLine = RunLineSchema.safeParse(value);
    if (runLine.success) {
      groups = new Map();
      total = 0;
      startedAt = runLine.data.startedAt;
      continue;
    }
    const entry = ReportEntrySchema.safeParse(value);
    if (!entry.success) continue;
    total += 1;
    let group = groups.get(entry.data.code);
    if (group === undefined) {
      group = { code: entry.data.code, count: 0, entries: [] };
      groups.set(entry.data.code, group);
    }
    group.count += 1;
    if (group.entries.length < perGroup) group.entries.push(entry.data);
  }
  return { groups: [...groups.values()].sort((a, b) => b.count - a.count), total, ...optional('startedAt', startedAt) };
}
