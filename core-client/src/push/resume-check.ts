import type { CoreClient } from '../http/core-client.js';
import { JournalCoreCheck } from '../journal/journal-core-check.js';
import type { Journal } from '../journal/journal.js';
import type { ImportOperation } from '../plan/operation.js';
import type { PushEvent } from './events.js';
import type { RunStop, StopState } from './run-stop.js';
import type { RunTally } from './run-tally.js';

/** What the resume check of a run reaches: its journal and counts, and the run's stop. */
export interface ResumedRun {
  journal: Journal | undefined;
  tally: RunTally;
  stop: RunStop;
  emit(event: PushEvent): void;
  requestStop(stop: StopState): void;
}

/**
 * A resumed run skips what its journal says is done, but only on the core the journal was written against: a core
 * with fewer users than the journal created, or without a sampled user, stops the push (see JournalCoreCheck).
 */
export class ResumeCheck {
  readonly #run: ResumedRun;
  readonly #coreCheck: JournalCoreCheck | undefined;

  constructor(client: Pick<CoreClient, 'userByEmail' | 'userCount'>, run: ResumedRun) {
    this.#run = run;
    const journal = run.journal;
    this.#coreCheck = journal !== undefined && journal.entries > 0 ? new JournalCoreCheck(client, journal.path) : undefined;
  }

  /** Before anything is skipped: a core with fewer users than the journal created here is not its core. */
  async checkCreatedUsersOnCore(): Promise<void> {
    const journal = this.#run.journal;
    const created = (journal?.createdUsers ?? 0) - (journal?.removedUsers ?? 0);
    if (this.#coreCheck === undefined || created === 0) return;
    const result = await this.#coreCheck.checkCount(created, this.#run.stop.stopping.signal);
    if (result.kind === 'missing') this.#run.requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
    else if (result.kind === 'unchecked' && result.note !== undefined) this.#run.emit({ type: 'note', message: result.note });
  }

  /** Skips an operation the journal says is done; a promise only when the core is asked first. */
  skipDone(item: ImportOperation): Promise<void> | undefined {
    if (item.kind === 'passwordImport' && this.#coreCheck?.wants() === true) return this.#skipIfOnCore(item, this.#coreCheck);
    this.#run.tally.add('skipped');
    return undefined;
  }

  /** Skips a journalled user only once the core confirms it has it; a missing one stops the push. */
  async #skipIfOnCore(item: ImportOperation & { kind: 'passwordImport' }, coreCheck: JournalCoreCheck): Promise<void> {
    const result = await coreCheck.check(item, this.#run.stop.stopping.signal);
    if (result.kind === 'missing') {
      this.#run.tally.add('notAttempted');
      this.#run.requestStop({ reason: 'journalNotOnCore', message: result.message, hard: false });
      return;
    }
    if (result.kind === 'unchecked' && result.note !== undefined) this.#run.emit({ type: 'note', message: result.note });
    this.#run.tally.add('skipped');
  }
}
