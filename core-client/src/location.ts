import { z } from 'zod';

/** Where a record came from, so every message can name it: file and line (text formats) or index (JSON arrays). */
export const RecordLocationSchema = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  index: z.number().int().nonnegative().optional(),
  /**
   * Which file of an export read as several (a Keycloak export's `<realm>-users-<n>.json`), counted from 0 in the order
   * read: positions restart in each file, so a record's key needs it. `file` names the file itself in messages.
   */
  part: z.number().int().nonnegative().optional(),
  /**
   * A database row's own key (its primary key): it names the record beside its place in the read, and keys it in the
   * journal, since a row's place moves between two reads of a database that changes.
   */
  id: z.string().optional(),
  field: z.string().optional(),
});
export type RecordLocation = z.infer<typeof RecordLocationSchema>;

export function formatLocation(location: RecordLocation): string {
  const parts = [location.file];
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  if (location.index !== undefined) parts.push(`record #${location.index}`);
  if (location.id !== undefined) parts.push(`id ${JSON.stringify(location.id)}`);
  const where = parts.join(', ');
  return location.field === undefined ? where : `${where}, field "${location.field}"`;
}
