import { z } from 'zod';
import { safeJson } from './journal-lines.js';
import { journalFitsTarget } from './journal-target.js';
import type { OpenJournalOptions } from './journal-types.js';

export const JOURNAL_MARK = 'core-migrate push journal';
/**
 * Version 4 (issue 19) added the account state lines a sync compares, version 5 (issue 25) the run lines; version 3
 * journals still resume and roll back, version 4 ones also sync (their runs are not recorded).
 */
export const JOURNAL_VERSION = 5;
const READABLE_VERSIONS: readonly number[] = [3, 4, 5];

/** What every version's header has, to tell an older journal from a foreign file. */
const JournalMarkSchema = z.object({ journal: z.literal(JOURNAL_MARK), version: z.number().int() });

export const JournalHeaderSchema = z.object({
  journal: z.literal(JOURNAL_MARK),
  version: z.union([z.literal(3), z.literal(4), z.literal(JOURNAL_VERSION)]),
  source: z.string(),
  target: z.string(),
  /** The HKDF salt of the digest key (the key itself comes from the api-key and is never written). */
  digestSalt: z.string().min(16),
  /** A digest of a fixed text under the digest key: tells "another api-key" from "every record changed". */
  digestCheck: z.string(),
  createdAt: z.string(),
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

/**
 * The header of a journal of this version, from its first line, or the sentence for a foreign file, another version
 * or a damaged header (`parseJournalHeader` throws it).
 */
export function readJournalHeader(path: string, line: string): JournalHeader | string {
  const json = safeJson(line);
  const mark = JournalMarkSchema.safeParse(json);
  if (!mark.success) {
    return `The file ${path} is not a core-migrate push journal (its first line is not a journal header); choose another --journal file.`;
  }
  if (!READABLE_VERSIONS.includes(mark.data.version)) {
    return (
      `The journal ${path} was written by another version of core-migrate (journal version ${mark.data.version}, this one reads ${JOURNAL_VERSION}). ` +
      'Pass a new --journal file: operations already done are sent again, which is safe (imports are idempotent).'
    );
  }
  const parsed = JournalHeaderSchema.safeParse(json);
  if (!parsed.success) {
    return `The journal ${path} has a damaged header; move it aside and pass a new --journal file (re-sending is safe).`;
  }
  return parsed.data;
}

/** Why a run may not go on with this journal's header: written for another source file (a push), or another core. */
export function headerRefusal(path: string, header: JournalHeader, options: OpenJournalOptions): string | undefined {
  if (header.source !== options.sourceFingerprint && options.anySource !== true) {
    return (
      `The journal ${path} was written for a different source file (the export changed or is another one). ` +
      'Resuming from it could skip records that were never sent: pass a new --journal file (re-sending operations that ' +
      'were already done is safe, imports are idempotent), or push the original file.'
    );
  }
  if (!journalFitsTarget(header.target, options.target)) {
    return (
      `The journal ${path} records a push to ${header.target}, not to ${options.target}. ` +
      'Pass a new --journal file for this core, or connect to the core the journal was written for ' +
      "(with several cores, any set that includes one of the journal's goes on with it)."
    );
  }
  return undefined;
}
