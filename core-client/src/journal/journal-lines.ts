import { z } from 'zod';
import { fieldGroups } from '../plan/field-groups.js';
import { PushCountsSchema, stopReasons, SyncCountsSchema, SyncForecastSchema } from '../summary/push-summary.js';
import { StateFlag } from './user-states.js';
import { optional, optionalFrom } from '../optional.js';

/**
 * The lines of a journal after its header, and how each is read back: an operation's final line, a step line, an
 * account's state line (see journal.ts for what each is for). Lines are checked by hand where a journal holds many.
 */

/** `parked`: written to the login-time migration's waiting store (no core request); a resume does not write it again. */
export const journalledOutcomes = ['imported', 'alreadyExisted', 'created', 'existing', 'rejectedByCore', 'untouched', 'parked'] as const;
export const JournalledOutcomeSchema = z.enum(journalledOutcomes);
export type JournalledOutcome = z.infer<typeof JournalledOutcomeSchema>;

export const JournalEntrySchema = z.object({
  k: z.string(),
  d: z.string(),
  o: JournalledOutcomeSchema,
  r: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/**
 * The steps of one user, journalled as each completes (issue 13). `intent` is the one write-ahead line: it is in the
 * file before a creation request leaves (never for a user the lookup found already there), so a user the core
 * "already had" after it was created by this migration (an answer lost, then a retry or a resume) and is counted and
 * journalled as created. `created` keeps the core's id (`u`) of a user this migration created (what a rollback
 * removes), `found` the id of one that existed; `mapped` keeps the old id it now carries (`x`). An operation's final
 * line (`o`) comes after its last step.
 */
export const journalSteps = ['intent', 'created', 'found', 'mapped', 'verified', 'metadata', 'roles'] as const;
export type JournalStep = (typeof journalSteps)[number];

export const JournalStepEntrySchema = z.object({
  k: z.string(),
  d: z.string(),
  s: z.enum(journalSteps),
  /** The core's id of the user (created, found). An id, never an email or a secret. */
  u: z.string().optional(),
  /** The old id the user was mapped to (mapped). */
  x: z.string().optional(),
});
export type JournalStepEntry = z.infer<typeof JournalStepEntrySchema>;

/**
 * The state of one account of an old user after the migration last touched it (issue 19): the old id (`x`), which
 * account (`w`: `pw`, or `tp:<provider>:<user id>`), the core's id (`c`), the id later calls take when it is not
 * the core's own (`i`, the old id once mapped), flags (`f`: `m` created here, `t` left untouched, `r` removed again)
 * and a keyed 32-bit digest per field group (`g`, 8 hex digits each, in `fieldGroups` order). Nothing of a hash,
 * salt or email can be read back from it. The latest line of an account wins.
 */
export const JournalStateEntrySchema = z.object({
  x: z.string(),
  w: z.string(),
  c: z.string(),
  i: z.string().optional(),
  f: z.string(),
  g: z.string().regex(new RegExp(`^[0-9a-f]{${8 * fieldGroups.length}}$`)),
  /** One keyed digest of every group together, when each is what the export says: an unchanged user costs one hash. */
  a: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
  /**
   * A password account's credential as the export held it (before hash parameters and wrappers), keyed like `g`, when
   * its hash was brought over: a newer `g` credentials digest with the same `e` is the same password re-sent.
   * Journals written before it lack it (read as unknown).
   */
  e: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
});
export type JournalStateEntry = z.infer<typeof JournalStateEntrySchema>;

/** How a run ended: ran to its end, or the reason it stopped (`interrupted`, `coreUnreachable`: it gave up, ...). */
export const runEnds = ['complete', ...stopReasons] as const;
export const RunEndSchema = z.enum(runEnds);
export type RunEnd = z.infer<typeof RunEndSchema>;

/**
 * A run's own lines (journal version 5, issue 25): one as a push or sync begins (`started`, and the export it reads
 * as it was named), one as it ends (`ended`, how, and its summary's counts). A run killed before its end has only the
 * first. A rollback writes the same lines to its record (`<journal>.rollback`), with its own counts.
 */
export const JournalRunStartSchema = z.object({
  run: z.enum(['push', 'sync']),
  started: z.string(),
  source: z.string(),
});
export type JournalRunStart = z.infer<typeof JournalRunStartSchema>;

export const JournalRunEndSchema = JournalRunStartSchema.extend({
  ended: z.string(),
  end: RunEndSchema,
  /** Partial when read: a line written by a version with fewer outcomes still reads. */
  counts: PushCountsSchema.partial(),
  sync: SyncCountsSchema.partial().optional(),
  /** A sync's guard: whether it withheld its removals (over `--max-removals`: none removed, exit 1), with the figures. */
  syncGuard: SyncForecastSchema.partial().optional(),
});
export type JournalRunEnd = z.infer<typeof JournalRunEndSchema>;

/** A run line (start or end), or undefined; most lines are not, and are told apart without parsing. */
export function parseRun(line: string): JournalRunStart | JournalRunEnd | undefined {
  if (!line.includes('"run":')) return undefined;
  const json = safeJson(line);
  const end = JournalRunEndSchema.safeParse(json);
  if (end.success) return end.data;
  const start = JournalRunStartSchema.safeParse(json);
  return start.success ? start.data : undefined;
}

export function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const stepNames: ReadonlySet<string> = new Set(journalSteps);

/**
 * A step line, or undefined. Checked by hand rather than with the schema: a journal holds up to five step lines per
 * user, and this keeps a resume's load about as fast as before them (JournalStepEntrySchema says the same).
 */
export function parseStep(line: string): JournalStepEntry | undefined {
  if (!line.includes('"s":')) return undefined;
  const value = safeJson(line);
  if (typeof value !== 'object' || value === null) return undefined;
  const { k, d, s, u, x } = value as Record<string, unknown>;
  if (typeof k !== 'string' || typeof d !== 'string' || typeof s !== 'string' || !stepNames.has(s)) return undefined;
  if ((u !== undefined && typeof u !== 'string') || (x !== undefined && typeof x !== 'string')) return undefined;
  return { k, d, s: s as JournalStep, ...optional('u', u), ...optional('x', x) };
}

const STATE_DIGESTS = new RegExp(`^[0-9a-f]{${8 * fieldGroups.length}}$`);
const WHOLE_DIGEST = /^[0-9a-f]{8}$/;

/**
 * A state line, or undefined; a state line alone has `w` and no `s` or `o`. Checked by hand, as step lines are: a
 * journal holds one or two per account, and the schema (JournalStateEntrySchema) would double a sync's load.
 */
export function parseState(line: string): JournalStateEntry | undefined {
  if (!line.includes('"w":')) return undefined;
  const value = safeJson(line);
  if (typeof value !== 'object' || value === null) return undefined;
  const { x, w, c, i, f, g, a, e } = value as Record<string, unknown>;
  if (typeof x !== 'string' || typeof w !== 'string' || typeof c !== 'string' || typeof f !== 'string' || typeof g !== 'string') return undefined;
  if ((i !== undefined && typeof i !== 'string') || !isDigestOrAbsent(a) || !isDigestOrAbsent(e) || !STATE_DIGESTS.test(g)) return undefined;
  return { x, w, c, f, g, ...optional('i', i), ...optional('a', a), ...optional('e', e) };
}

function isDigestOrAbsent(value: unknown): value is string | undefined {
  return value === undefined || (typeof value === 'string' && WHOLE_DIGEST.test(value));
}

export function hexOf(digest: number): string {
  return (digest >>> 0).toString(16).padStart(8, '0');
}

export function flagsOf(text: string): number {
  return (text.includes('m') ? StateFlag.createdHere : 0) | (text.includes('t') ? StateFlag.untouched : 0) | (text.includes('r') ? StateFlag.removed : 0);
}

export function digestsOf(text: string): number[] {
  return fieldGroups.map((_, group) => Number.parseInt(text.slice(group * 8, group * 8 + 8), 16));
}

export function parseEntry(line: string): JournalEntry | undefined {
  const parsed = JournalEntrySchema.safeParse(safeJson(line));
  return parsed.success ? parsed.data : undefined;
}

/** What a run knows of an account it changes or removes, read back from its state line. */
export interface AccountState {
  sourceId: string;
  role: string;
  coreId: string;
  /** The id every call takes: the old id once mapped, else the core's own. */
  callId: string;
  createdHere: boolean;
  untouched: boolean;
  removed: boolean;
  digests: number[];
  /** `Journal.wholeDigest` of the account as the export had it, when every group was brought over. */
  whole?: number;
  /** `Journal.exportedDigest` of the password account's credential when its hash was brought over; absent when unknown. */
  exported?: number;
}

/** An account's state as its state line has it (see `JournalStateEntrySchema`). */
export function stateEntryOf(state: Omit<AccountState, 'digests'> & { digests: readonly number[] }): JournalStateEntry {
  return {
    x: state.sourceId,
    w: state.role,
    c: state.coreId,
    ...(state.callId === state.coreId ? {} : { i: state.callId }),
    f: `${state.createdHere ? 'm' : ''}${state.untouched ? 't' : ''}${state.removed ? 'r' : ''}`,
    g: state.digests.map(hexOf).join(''),
    ...optionalFrom('a', state.whole, hexOf),
    ...optionalFrom('e', state.exported, hexOf),
  };
}

/** The account's state read back from its state line. */
export function accountStateOf(entry: JournalStateEntry): AccountState {
  const flags = flagsOf(entry.f);
  return {
    sourceId: entry.x,
    role: entry.w,
    coreId: entry.c,
    callId: entry.i ?? entry.c,
    createdHere: (flags & StateFlag.createdHere) !== 0,
    untouched: (flags & StateFlag.untouched) !== 0,
    removed: (flags & StateFlag.removed) !== 0,
    digests: digestsOf(entry.g),
    ...optionalFrom('whole', entry.a, (hex) => Number.parseInt(hex, 16)),
    ...optionalFrom('exported', entry.e, (hex) => Number.parseInt(hex, 16)),
  };
}
