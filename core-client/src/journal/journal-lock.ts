import { closeSync, constants, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { writeFully } from '../files/output-paths.js';
import { hostname } from 'node:os';
import { z } from 'zod';
import { optional } from '../optional.js';

/**
 * Two pushes on one journal send the same users twice and interleave their lines: a lock file beside the journal
 * (`<journal>.lock`, created exclusively, holding the owner's pid and host) lets only one run use it. A lock whose
 * process is gone (killed, crashed) on this host is taken over, and the caller says so.
 */
export const LockFileSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.string(),
  /** What holds it: a push (also when absent) or a rollback; named in the refusal. */
  command: z.enum(['push', 'rollback']).optional(),
});
export type LockFile = z.infer<typeof LockFileSchema>;

export type LockResult = { ok: true; lock: JournalLock; tookOverFrom?: LockFile } | { ok: false; message: string };

export class JournalLock {
  readonly path: string;
  #held = true;

  private constructor(path: string) {
    this.path = path;
  }

  static acquire(journalPath: string, command: 'push' | 'rollback' = 'push'): LockResult {
    const path = `${journalPath}.lock`;
    const mine: LockFile = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
    // Two attempts: the second after removing a stale lock; if another process took it over meanwhile, it wins.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (tryCreate(path, mine)) return { ok: true, lock: new JournalLock(path) };
      const owner = readOwner(path);
      if (owner === undefined && isFresh(path)) {
        // Created an instant ago and not yet filled in: another push is taking the lock right now.
        return { ok: false, message: `The journal ${journalPath} is being locked by another push at this very moment; wait for it, or stop it.` };
      }
      if (owner !== undefined && isAlive(owner)) {
        return {
          ok: false,
          message:
            `The journal ${journalPath} is in use by another ${owner.command ?? 'push'} (process ${owner.pid} on ${owner.host}, since ${owner.startedAt}). ` +
            'Two runs on one journal would send the same users twice, or remove users a push is still completing: wait for it to end, or stop it. ' +
            `If none is running, remove ${path}.`,
        };
      }
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          return {
            ok: false,
            message: `The stale lock ${path} could not be removed (${(error as NodeJS.ErrnoException).code ?? 'error'}): remove it by hand.`,
          };
        }
      }
      if (tryCreate(path, mine)) return { ok: true, lock: new JournalLock(path), ...optional('tookOverFrom', owner) };
    }
    return { ok: false, message: `The journal ${journalPath} is being locked by another push at this very moment; run the command again.` };
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

/**
 * Who holds a journal's lock, read without touching it (`journal show`): undefined when none does; `running` false
 * for a lock left by a process that is gone (the next run takes it over).
 */
export function lockHolder(journalPath: string): { holder: LockFile; running: boolean } | undefined {
  const owner = readOwner(`${journalPath}.lock`);
  return owner === undefined ? undefined : { holder: owner, running: isAlive(owner) };
}

function tryCreate(path: string, content: LockFile): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeFully(fd, `${JSON.stringify(content)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock's owner; undefined when the file is unreadable or half-written (its writer died mid-write). */
function readOwner(path: string): LockFile | undefined {
  try {
    const parsed = LockFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A lock file without an owner is left over (its writer died mid-write) only once it is a few seconds old. */
function isFresh(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < UNFILLED_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

const UNFILLED_LOCK_GRACE_MS = 5_000;

/** A process on another host cannot be checked from here: its lock is honoured. */
function isAlive(owner: LockFile): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
