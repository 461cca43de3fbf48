import type { CoreClient, UserByEmailResult } from '../http/core-client.js';
import { NotFound } from '../http/errors.js';
import { formatLocation } from '../location.js';
import type { PasswordImportOperation } from '../plan/operation.js';

/**
 * A journal names its core by address only, and an address may reach another core (an in-memory core restarted
 * empty, an `ssh -L` tunnel now leading elsewhere): a resume would then skip every user and import none. So before
 * anything is skipped, the core's user count (`GET /users/count`, read-only) is compared with the users the journal
 * records as created by this migration: a core with fewer is not the one (this covers third-party users, which a core
 * of this kind cannot look up). Then some of the password users the journal records as done are looked up
 * (`GET /recipe/user?email=`): the first three, then the 10th, 100th, 1,000th... A missing one stops the push before
 * it skips more, which catches another core that holds at least as many users of its own.
 */
export type JournalCheck = { kind: 'confirmed' } | { kind: 'missing'; message: string } | { kind: 'unchecked'; note?: string };

export class JournalCoreCheck {
  readonly #client: Pick<CoreClient, 'userByEmail' | 'userCount'>;
  readonly #journalPath: string;
  #seen = 0;
  #available = true;

  constructor(client: Pick<CoreClient, 'userByEmail' | 'userCount'>, journalPath: string) {
    this.#client = client;
    this.#journalPath = journalPath;
  }

  /** Whether this journalled operation is one of the sample (counts every journalled password user it is shown). */
  wants(): boolean {
    if (!this.#available) return false;
    this.#seen += 1;
    return this.#seen <= 3 || isPowerOfTen(this.#seen);
  }

  /** The core holds at least the `created` users the journal records as created by this migration. */
  async checkCount(created: number, signal: AbortSignal): Promise<JournalCheck> {
    let count: number;
    try {
      count = await this.#client.userCount({ signal });
    } catch (error) {
      if (signal.aborted) return { kind: 'unchecked' };
      if (error instanceof NotFound) {
        return {
          kind: 'unchecked',
          note: 'This core offers no user count (GET /users/count answered 404), so it cannot be checked that it still holds the users the journal records as created.',
        };
      }
      return { kind: 'unchecked', note: `Could not count the users on the core to check the journal against it: ${(error as Error).message}` };
    }
    if (count >= created) return { kind: 'confirmed' };
    return {
      kind: 'missing',
      message:
        `The journal ${this.#journalPath} records ${created} users created by this migration, but the core has only ${count}: ` +
        'the core at this address is not the one the journal was written against (restarted empty, or another host behind the same address), ' +
        'or users were removed from it since. The push stopped before skipping anything. Check --core; to import everything into this core, ' +
        'pass a new --journal file (re-sending is safe).',
    };
  }

  async check(operation: PasswordImportOperation, signal: AbortSignal): Promise<JournalCheck> {
    let found: UserByEmailResult;
    try {
      found = await this.#client.userByEmail(operation.email, { signal });
    } catch (error) {
      if (signal.aborted) return { kind: 'unchecked' };
      if (error instanceof NotFound) {
        this.#available = false;
        return {
          kind: 'unchecked',
          note: 'This core offers no user lookup (GET /recipe/user answered 404), so it cannot be checked that the users the journal records as done are on it.',
        };
      }
      return { kind: 'unchecked', note: `Could not check at the core that ${operation.email} from the journal is there: ${(error as Error).message}` };
    }
    if (found.found) return { kind: 'confirmed' };
    return {
      kind: 'missing',
      message:
        `The journal ${this.#journalPath} records ${operation.email} (${formatLocation(operation.location)}) as imported, but the core has no such user: ` +
        'the core at this address is not the one the journal was written against (restarted empty, or another host behind the same address). ' +
        'The push stopped before skipping more. Check --core; to import everything into this core, pass a new --journal file (re-sending is safe).',
    };
  }
}

function isPowerOfTen(value: number): boolean {
  let rest = value;
  while (rest >= 10 && rest % 10 === 0) rest /= 10;
  return rest === 1;
}
