import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { JournalError, parseJournalHeader } from '../journal/journal.js';
import { parseEntry, parseState, parseStep } from '../journal/journal-lines.js';
import { Problem } from '../problem.js';

/** A user a push created, as its journal recorded it: ids only, never an email or a secret. */
export interface CreatedUser {
  /** The operation (`<operationKey>\n<digest>`), so a rollback can say which ones it already did. */
  key: string;
  /** The core's own id, from the creation's answer. */
  coreId: string;
  /** The old id it was mapped to, when it was; every later call then names the user by it. */
  externalId?: string;
  /** A sync removed it already (disabled or gone in the old system): nothing left to remove. */
  removedBySync?: true;
}

/** A journal that cannot be read back (missing, not a journal, damaged, locked): nothing is removed. */
export class JournalReadError extends Problem<'journal', 'journalUnreadable'> {
  override readonly name = 'JournalReadError';
  constructor(words: string) {
    super('journalUnreadable', 'journal', 'journal', words);
  }
}

/** The core a journal was written for, from its first line. */
export async function journalTarget(path: string): Promise<string> {
  for await (const line of lines(path)) {
    // The push's own reading of the header: another version (one without the ids of created users) is refused alike.
    try {
      return parseJournalHeader(path, line).target;
    } catch (error) {
      if (error instanceof JournalError) throw new JournalReadError(error.message);
      throw error;
    }
  }
  throw new JournalReadError(`The journal ${path} is empty: that push created no user.`);
}

/**
 * Streams the users a push created (`stats.uncertain` counts, once the stream ends, creations that were sent but
 * whose answer was never journalled: resuming the push records them), in the journal's order. Only `created` steps count: a user that existed before
 * (`found`, or a final line without a creation) is never listed. Memory holds only the operations whose final line
 * has not come yet, which are the few in flight when a push stopped.
 */
export async function* createdUsers(path: string, stats: { uncertain: number } = { uncertain: 0 }): AsyncGenerator<CreatedUser> {
  const removed = await removedBySync(path);
  const marked = (user: CreatedUser): CreatedUser => (removed.has(user.coreId) ? { ...user, removedBySync: true } : user);
  const open = new Map<string, CreatedUser>();
  /** Creations announced (written ahead) whose answer no line recorded: the push was killed while they were sent. */
  const announced = new Set<string>();
  let first = true;
  for await (const line of lines(path)) {
    if (first) {
      first = false;
      continue;
    }
    // Told apart as a resume tells them (`parseStep` checks by hand): a journal holds millions of lines.
    const entry = parseStep(line);
    if (entry !== undefined) {
      const key = `${entry.k}\n${entry.d}`;
      if (entry.s === 'intent') announced.add(key);
      else announced.delete(key);
      if (entry.s === 'created' && entry.u !== undefined) open.set(key, { key, coreId: entry.u });
      const user = open.get(key);
      if (entry.s === 'mapped' && entry.x !== undefined && user !== undefined) user.externalId = entry.x;
      continue;
    }
    // Only a final line has `o`; state and run lines, and a torn last line (killed mid-write), are passed over.
    const final = line.includes('"o":') ? parseEntry(line) : undefined;
    if (final === undefined) continue;
    const key = `${final.k}\n${final.d}`;
    announced.delete(key);
    const user = open.get(key);
    if (user !== undefined) {
      open.delete(key);
      yield marked(user);
    }
  }
  // Users whose steps a stop interrupted: created all the same.
  for (const user of open.values()) yield marked(user);
  stats.uncertain += announced.size;
}

/** The core ids of accounts a sync removed again, from their latest state lines (issue 19). */
async function removedBySync(path: string): Promise<Set<string>> {
  const removed = new Set<string>();
  for await (const line of lines(path)) {
    const state = parseState(line);
    if (state === undefined) continue;
    if (state.f.includes('r')) removed.add(state.c);
    else removed.delete(state.c);
  }
  return removed;
}

function lines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path), crlfDelay: Infinity });
}
