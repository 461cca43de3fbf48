import { z } from 'zod';
import { optional } from '../../optional.js';
import type { StoreCounts, WaitingListEntry } from './waiting-user.js';

/** A driver's count: PostgreSQL answers `COUNT(*)` as text, SQLite as a number. */
const count = z.union([z.number(), z.string(), z.bigint()]).transform(Number);
const StateRowSchema = z.object({ state: z.string(), users: count });
const DayRowSchema = z.object({ day: z.string(), users: count });
const EntryRowSchema = z.object({ email: z.string(), source_id: z.string().nullable() });

/** The counts from `SELECT state, COUNT(*) AS users … GROUP BY state` and `SELECT <day> AS day, COUNT(*) AS users …`. */
export function countsOfRows(stateRows: readonly unknown[], dayRows: readonly unknown[]): StoreCounts {
  const byState = new Map(stateRows.map((row) => StateRowSchema.parse(row)).map((row) => [row.state, row.users]));
  return {
    waiting: byState.get('waiting') ?? 0,
    migrating: byState.get('migrating') ?? 0,
    migrated: byState.get('migrated') ?? 0,
    arrivalsPerDay: dayRows.map((row) => DayRowSchema.parse(row)).map((row) => ({ day: row.day, migrated: row.users })),
  };
}

const ArrivalRowSchema = z.object({ email: z.string(), core_user_id: z.string() });

export function arrivalOfRow(row: unknown): { email: string; coreUserId: string } {
  const parsed = ArrivalRowSchema.parse(row);
  return { email: parsed.email, coreUserId: parsed.core_user_id };
}

export function entryOfRow(row: unknown): WaitingListEntry {
  const parsed = EntryRowSchema.parse(row);
  return { email: parsed.email, ...optional('sourceId', parsed.source_id ?? undefined) };
}
