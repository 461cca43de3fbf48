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
  note: z.literal(true).optional(),
});
export type ReportEntry = z.infer<typeof ReportEntrySchema>;

export interface ReportGroup {
  code: string;
  /** Its lines are notes on records that were not refused (`ReportLine.note`), not records left out. */
  note: boolean;
  count: number;
  /** The first entries of the group (at most `perGroup`): enough to browse; the file holds them all. */
  entries: ReportEntry[];
}

export interface ReportGroups {
  groups: ReportGroup[];
  /** Lines of the run read. */
  total: number;
  /** Of them, the records not imported (refused by the plan or failed at the core): every line but the notes. */
  notImported: number;
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
  let notImported = 0;
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
      notImported = 0;
      startedAt = runLine.data.startedAt;
      continue;
    }
    const entry = ReportEntrySchema.safeParse(value);
    if (!entry.success) continue;
    total += 1;
    const note = entry.data.note === true;
    if (!note) notImported += 1;
    const key = `${note ? 'note' : 'left out'}:${entry.data.code}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { code: entry.data.code, note, count: 0, entries: [] };
      groups.set(key, group);
    }
    group.count += 1;
    if (group.entries.length < perGroup) group.entries.push(entry.data);
  }
  // The records left out first, then the notes; each by size.
  const sorted = [...groups.values()].sort((a, b) => Number(a.note) - Number(b.note) || b.count - a.count);
  return { groups: sorted, total, notImported, ...optional('startedAt', startedAt) };
}
