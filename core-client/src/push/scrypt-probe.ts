import { formatLocation } from '../location.js';
import type { ImportOperation } from '../plan/operation.js';
import type { PushEvent } from './events.js';
import type { OperationRunner, Start } from './run-operation.js';
import type { RunSlots } from './run-slots.js';
import type { RunStop } from './run-stop.js';
import type { RunTally } from './run-tally.js';

/** What the probe of a run reaches: its slots, counts and operations, and the run's stop. */
export interface ProbedRun {
  slots: RunSlots;
  stop: RunStop;
  tally: RunTally;
  operations: OperationRunner;
  emit(event: PushEvent): void;
}

/**
 * The first scrypt-variant user goes alone, with nothing else in flight: a core without the signer key answers it
 * with a 500, and the push stops before any other request is sent.
 */
export class ScryptProbe {
  readonly #run: ProbedRun;
  #probed = false;

  constructor(run: ProbedRun) {
    this.#run = run;
  }

  /** Whether this operation is the run's first scrypt-variant user, to be sent alone. */
  wants(item: ImportOperation): boolean {
    return item.kind === 'passwordImport' && item.family === 'vendor_scrypt' && !this.#probed;
  }

  async send(item: ImportOperation, start: Start): Promise<void> {
    this.#probed = true;
    const { slots, stop, tally } = this.#run;
    await slots.drain();
    if (stop.state !== undefined) {
      tally.add('notAttempted');
      return;
    }
    this.#run.emit({
      type: 'probe',
      message: `Sending the first vendor_scrypt user (${formatLocation(item.location)}) alone, to check that the core has its signer key.`,
    });
    slots.take();
    await this.#run.operations.execute(item, start);
  }
}
