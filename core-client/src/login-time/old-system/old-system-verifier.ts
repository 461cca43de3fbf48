import type { OldSystemKind } from '../../choices.js';
import type { Secret } from '../../secret.js';

/** Why the old system gave no verdict: nothing is decided, and the sign-in is answered "try later". */
export const oldSystemUnavailableReasons = [
  /** It could not be reached in time, or answered as a system that is down (5xx, an answer that is not its own). */
  'oldSystemUnreachable',
  /** It limits the service's calls (HTTP 429, Firebase TOO_MANY_ATTEMPTS_TRY_LATER, Cognito TooManyRequests). */
  'oldSystemBusy',
  /** It refused the service itself: its key, client or configuration, not the user's password. */
  'oldSystemRefused',
] as const;
export type OldSystemUnavailableReason = (typeof oldSystemUnavailableReasons)[number];

/**
 * What a verifier says of a parked user's password, whichever kind it is (the legacy hash, or the old system asked).
 * For the old system, a wrong password, an unknown account and a disabled one are all `wrong`: the service answers
 * them alike, so it tells nobody which emails the old system knows. `tryLater`: nothing was decided.
 */
export type PasswordVerdict =
  { outcome: 'right' } | { outcome: 'wrong' } | { outcome: 'tryLater'; reason: OldSystemUnavailableReason; retryAfterSeconds?: number };

/**
 * The old system itself, still running until cut-over, asked once whether a password is right: the second kind of
 * verifier of a login-time migration, beside the legacy hash core-migrate holds (`LegacyVerifier`). The password is
 * sent to the old system and nowhere else; nothing it answers beyond the verdict is kept.
 */
export interface OldSystemVerifier {
  readonly kind: OldSystemKind;
  /** Where it asks, safe to show (no key, no secret). */
  readonly location: string;
  check(attempt: { email: string; password: Secret }): Promise<PasswordVerdict>;
  /**
   * Whether the old system can be reached now, asked without any password (never an oracle, never a lockout): what
   * the service checks before it starts and on `/health`. Each kind says what it asks.
   */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}
