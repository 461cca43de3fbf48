import type { Secret } from '../../secret.js';
import type { OldTokenAnswer, TokenIssuerKind, TokenKeysUnavailable } from './token-answer.js';

/**
 * Checks the tokens one old system issued (session migration): a user signed in there presents their ID or access
 * token and, when the issuer's published keys prove it, is known by their old id. See docs/login-time.md, "Session
 * migration: the old system's token".
 */
export interface OldTokenVerifier {
  readonly kind: TokenIssuerKind;
  /** The issuer whose tokens it accepts (`iss`): safe to show. */
  readonly issuer: string;
  /**
   * Verified, refused (with a stable code), or nothing decided (`tryLater`: the keys could not be had). Never throws
   * for anything the token holds; the token is never logged, kept, or part of the answer.
   */
  verify(token: Secret): Promise<OldTokenAnswer>;
  /** Whether the issuer's keys are held or can be fetched now: for a service's start and its `/health`. */
  keysReady(): Promise<{ outcome: 'ready' } | TokenKeysUnavailable>;
  close(): Promise<void>;
}

export interface TokenVerifierOptions {
  /** The time in milliseconds since the epoch; tests move it to try lifetimes and expiries. */
  now?: () => number;
}
