import { z } from 'zod';
import { oldSystemUnavailableReasons } from './old-system/old-system-verifier.js';

/**
 * What a login-time migration answers the application's backend for one sign-in the core refused
 * (`WRONG_CREDENTIALS_ERROR`): the library call (`migrateAtLogin`) and the service (`login-migration serve`) answer the
 * same, so a backend can move from one to the other. Never the password, never the legacy hash.
 */
export const LoginMigrationAnswerSchema = z.discriminatedUnion('outcome', [
  /** The email is not waiting in the store: the backend answers wrong credentials as usual. */
  z.object({ outcome: z.literal('notWaiting') }),
  /** The password does not match the legacy hash, or the old system says it is wrong (or knows no such account, or it is disabled there): nothing changed. */
  z.object({ outcome: z.literal('wrongCredentials') }),
  /**
   * The password matched: the user is now in the core (created from the plain password, with its old id, verified
   * email, metadata and roles) and the store marks it migrated; the backend signs in again.
   */
  z.object({ outcome: z.literal('migrated'), userId: z.string() }),
  /**
   * Not now: too many wrong passwords for this email or client, or the core, the store or the old system cannot be
   * reached (or limits the calls, or refuses the service's own key; `oldSystemNotSet`: the user is checked by an old
   * system the service was not given). Nothing changed; the backend answers "try later" and may say when.
   */
  z.object({
    outcome: z.literal('tryLater'),
    reason: z.enum(['tooManyAttempts', 'coreUnreachable', 'storeUnavailable', 'busy', ...oldSystemUnavailableReasons, 'oldSystemNotSet']),
    retryAfterSeconds: z.number().int().positive(),
  }),
]);
export type LoginMigrationAnswer = z.infer<typeof LoginMigrationAnswerSchema>;
