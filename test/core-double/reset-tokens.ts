import { createHash, randomInt } from 'node:crypto';

/*
 * Password reset tokens, as a real core 10.0.7 gave them to the official Node SDK (sdk-flows.json, flow 3): 128 letters
 * and digits, for a user and an email, valid an hour (`password_reset_token_lifetime`'s default). Using one up removes
 * every token of its user, as the core does; it is kept by its hash, as the core keeps it.
 */

const RESET_TOKEN_LIFETIME_MS = 3_600_000;
/** The length of a real core's reset and email verification tokens. */
const TOKEN_LENGTH = 128;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A token of a real core's form: 128 letters and digits. */
export function randomTokenText(length = TOKEN_LENGTH): string {
  return Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

interface ResetToken {
  /** The core's own id of the user. */
  userId: string;
  email: string;
  expiry: number;
}

export class ResetTokens {
  readonly #byHash = new Map<string, ResetToken>();

  create(userId: string, email: string, now = Date.now()): string {
    const token = randomTokenText();
    this.#byHash.set(hashOf(token), { userId, email, expiry: now + RESET_TOKEN_LIFETIME_MS });
    return token;
  }

  /** The user and email a token was made for; undefined for a token unknown, used or expired (an expired one is used up too). */
  consume(token: string, now = Date.now()): { userId: string; email: string } | undefined {
    const found = this.#byHash.get(hashOf(token));
    if (found === undefined) return undefined;
    this.forgetUser(found.userId);
    return found.expiry < now ? undefined : { userId: found.userId, email: found.email };
  }

  /** Removes every token of a user (the core's own id). */
  forgetUser(userId: string): void {
    for (const [hash, token] of this.#byHash) if (token.userId === userId) this.#byHash.delete(hash);
  }

  clear(): void {
    this.#byHash.clear();
  }
}
