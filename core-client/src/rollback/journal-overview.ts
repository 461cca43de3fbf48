import { createReadStream } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { rollbackRecordPath } from '../journal/journal-file.js';
import type { JournalHeader } from '../journal/journal-header.js';
import { JournalError, parseJournalHeader } from '../journal/journal.js';
import { parseRun, RunEndSchema } from '../journal/journal-lines.js';
import { LockFileSchema, lockHolder } from '../journal/journal-lock.js';
import { PushCountsSchema, SyncCountsSchema, SyncForecastSchema } from '../summary/push-summary.js';
import { createdUsers, JournalReadError } from './journal-users.js';
import { parseRollbackLine, RollbackCountsSchema } from './rollback-record.js';
import { optional } from '../optional.js';

/**
 * What a journal is (issue 25, `core-migrate journal show`): the export and core it was written for, its runs with
 * their counts, the users it created and still holds, whether it was rolled back. Read-only and streamed: the journal
 * and the rollback record are read line by line (memory holds the runs, and the few operations a stop left open),
 * and the lock is only looked at, never taken, so a running push goes on undisturbed.
 */

const count = z.number().int().nonnegative();

export const PushRunOverviewSchema = z.object({
  command: z.enum(['push', 'sync']),
  startedAt: z.string(),
  /** The export the run read, as it was named on its command line. */
  source: z.string(),
  /** Absent: no end recorded (killed, or still under way: see `underWay`). */
  ended: z
    .object({
      at: z.string(),
      how: RunEndSchema,
      counts: PushCountsSchema.partial(),
      sync: SyncCountsSchema.partial().optional(),
      /** A sync's guard as it ended: `removalsWithheld` (none removed, over its limit: the sync exited 1) and the figures. */
      syncGuard: SyncForecastSchema.partial().optional(),
    })
    .optional(),
  /** The process holding the journal's lock now began it: its end is not written yet. */
  underWay: z.boolean(),
});

export const RollbackRunOverviewSchema = z.object({
  command: z.literal('rollback'),
  startedAt: z.string(),
  ended: z.object({ at: z.string(), how: RunEndSchema, counts: RollbackCountsSchema.partial() }).optional(),
  underWay: z.boolean(),
});

export const RunOverviewSchema = z.union([PushRunOverviewSchema, RollbackRunOverviewSchema]);
export type RunOverview = z.infer<typeof RunOverviewSchema>;

export const JournalOverviewSchema = z.object({
  path: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  /** The export it was started for: the header's fingerprint (its size, first and last MiB), and the first run's name of it. */
  source: z.object({ fingerprint: z.string(), name: z.string().optional() }),
  /** The core (or cores), tenant and app, as the header names them; never a key. */
  target: z.string(),
  /** False for a journal of version 3 or 4, whose runs were not recorded (a rollback's are, in its record). */
  runsRecorded: z.boolean(),
  /** Oldest first: push and sync runs from the journal, rollbacks from its record. */
  runs: z.array(RunOverviewSchema),
  users: z.object({
    /** Users this migration created, as a rollback counts them (password and third-party). */
    created: count,
    removedBySync: count,
    removedByRollback: count,
    /** Created and not removed since: what this migration has on the core. */
    held: count,
    /** Creations sent with no answer journalled (a run killed mid-request, or stopped on the answer): no id is known (a resume records them). */
    uncertain: count,
  }),
  rollback: z.object({
    /** `begun`: the record exists (a push refuses the journal) but no rollback ran to its end. */
    state: z.enum(['none', 'begun', 'complete']),
    recordPath: z.string(),
  }),
  /** Who holds the journal's lock now, when anyone does (`running` false: a process that is gone left it). */
  lock: LockFileSchema.extend({ running: z.boolean() }).optional(),
  /** Lines, the header included. */
  lines: count,
  /** The last line is not whole: a run was killed mid-write, or is writing it now. */
  tornLastLine: z.boolean(),
});
export type JournalOverview = z.infer<typeof JournalOverviewSchema>;

/** Reads what a journal is; a sentence (`JournalReadError`) for a path that is missing, unreadable or not a journal. */
export async function describeJournal(path: string): Promise<JournalOverview | JournalReadError> {
  try {
    return await readOverview(path);
  } catch (error) {
    if (error instanceof JournalReadError) return error;
    if (error instanceof JournalError) return new JournalReadError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return new JournalReadError(`The journal ${path} cannot be read (${code === 'EACCES' ? 'permission denied' : code}).`);
  }
}

async function readOverview(path: string): Promise<JournalOverview> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new JournalReadError(`The journal ${path} does not exist: pass the --journal file of a push or sync.`);
    throw error;
  });
  if (!info.isFile()) {
    throw new JournalReadError(`The journal ${path} is not a regular file (${info.isSymbolicLink() ? 'a symbolic link' : 'a device, FIFO or folder'}).`);
  }
  // The lock first: a run that ends while the journal is read is then seen as under way, never as killed.
  const held = lockHolder(path);
  const lock = held === undefined ? undefined : { ...held.holder, running: held.running };
  const journal = await readJournalLines(path);
  const users = await createdUserCounts(path);
  const recordPath = rollbackRecordPath(path);
  const record = await readRollbackRecord(recordPath);
  const runs: RunOverview[] = [...journal.runs, ...(record?.runs ?? [])].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  markUnderWay(runs, lock);
  const removedByRollback = record?.removed ?? 0;
  const lastRollback = runs.filter((run) => run.command === 'rollback').at(-1);
  const rollbackDone =
    record !== undefined &&
    (lastRollback === undefined ? users.created - users.removedBySync - removedByRollback <= 0 : lastRollback.ended?.how === 'complete');
  return {
    path,
    version: journal.header.version,
    createdAt: journal.header.createdAt,
    source: { fingerprint: journal.header.source, ...optional('name', journal.firstSource) },
    target: journal.header.target,
    runsRecorded: journal.header.version >= 5,
    runs,
    users: { ...users, removedByRollback, held: Math.max(0, users.created - users.removedBySync - removedByRollback) },
    rollback: { state: record === undefined ? 'none' : rollbackDone ? 'complete' : 'begun', recordPath },
    ...optional('lock', lock),
    lines: journal.lines,
    tornLastLine: await endsTorn(path),
  };
}

interface JournalLines {
  header: JournalHeader;
  runs: RunOverview[];
  firstSource: string | undefined;
  lines: number;
}

/** The header, then the run lines (told apart from the others without parsing them), in one stream. */
async function readJournalLines(path: string): Promise<JournalLines> {
  let header: JournalHeader | undefined;
  const runs: Extract<RunOverview, { command: 'push' | 'sync' }>[] = [];
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    lines += 1;
    if (header === undefined) {
      header = parseJournalHeader(path, line);
      continue;
    }
    const run = parseRun(line);
    if (run === undefined) continue;
    const ended =
      'ended' in run ? { at: run.ended, how: run.end, counts: run.counts, ...optional('sync', run.sync), ...optional('syncGuard', run.syncGuard) } : undefined;
    const begun = runs.find((known) => known.startedAt === run.started && known.command === run.run);
    if (begun !== undefined) {
      if (ended !== undefined) begun.ended = ended;
      continue;
    }
    runs.push({ command: run.run, startedAt: run.started, source: run.source, ...optional('ended', ended), underWay: false });
  }
  if (header === undefined) throw new JournalReadError(`The journal ${path} is empty: no push wrote to it.`);
  return { header, runs, firstSource: runs[0]?.source, lines };
}

/** The users a rollback would count: the same reading of the journal (`createdUsers`), so the two never disagree. */
async function createdUserCounts(path: string): Promise<{ created: number; removedBySync: number; uncertain: number }> {
  const stats = { uncertain: 0 };
  let created = 0;
  let removedBySync = 0;
  for await (const user of createdUsers(path, stats)) {
    created += 1;
    if (user.removedBySync === true) removedBySync += 1;
  }
  return { created, removedBySync, uncertain: stats.uncertain };
}

/** The rollback record's removals (each recorded once: a rollback skips what it recorded) and its runs. */
async function readRollbackRecord(path: string): Promise<{ removed: number; runs: RunOverview[] } | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isFile()) return { removed: 0, runs: [] };
  let removed = 0;
  const runs: Extract<RunOverview, { command: 'rollback' }>[] = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    const parsed = parseRollbackLine(line);
    if (parsed === undefined) continue;
    if ('removed' in parsed) {
      removed += 1;
      continue;
    }
    const ended = 'ended' in parsed ? { at: parsed.ended, how: parsed.end, counts: parsed.counts } : undefined;
    const begun = runs.find((known) => known.startedAt === parsed.started);
    if (begun !== undefined) {
      if (ended !== undefined) begun.ended = ended;
      continue;
    }
    runs.push({ command: 'rollback', startedAt: parsed.started, ...optional('ended', ended), underWay: false });
  }
  return { removed, runs };
}

/** The run without an end that began under the lock a live process holds now is that process's run, not a killed one. */
function markUnderWay(runs: RunOverview[], lock: JournalOverview['lock']): void {
  if (lock?.running !== true) return;
  const command = lock.command ?? 'push';
  const last = runs.filter((run) => (command === 'rollback' ? run.command === 'rollback' : run.command !== 'rollback')).at(-1);
  if (last !== undefined && last.ended === undefined && last.startedAt >= lock.startedAt) last.underWay = true;
}

async function endsTorn(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await file.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await file.close();
  }
}
