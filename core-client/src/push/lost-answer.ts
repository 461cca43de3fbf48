import { Transient } from '../http/errors.js';
import type { OperationEnd } from './outcome.js';

export const createdByLostAttemptNote =
  'the core already had this user when the answer came, but an earlier request of this migration for it was sent and its answer lost: ' +
  'that request most likely created it (had the user existed before, its password hash was replaced)';
export const thirdPartyCreatedByLostAttemptNote =
  'the core already had this third-party user when the answer came, but an earlier request of this migration for it was sent and its ' +
  'answer lost: that request most likely created it';

export const passwordlessCreatedByLostAttemptNote =
  'the core already had a passwordless user with this login when the code was consumed, but an earlier creation of this migration ' +
  'for it was sent and its answer lost: that creation most likely made it';

/** Whether a failed attempt may have been carried out by the core (its answer lost), not refused before it. */
export function mayHaveReachedCore(error: unknown): boolean {
  // A 429 or 503 is the core declining the request, and a refused or unrouted connection never carried it; anything
  // else (a reset, a timeout, a 500 or a gateway's 502/504) may come after the core did the work.
  if (!(error instanceof Transient) || error.status === 429 || error.status === 503) return false;
  return !NEVER_SENT_CODES.has(codeOf(error.cause) ?? codeOf(causeOf(error.cause)) ?? '');
}

/** Connection failures that happen before a request's first byte leaves. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** undici wraps a socket's error once more: its code may be one cause deeper. */
function causeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'cause' in value ? value.cause : undefined;
}

function codeOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string' ? value.code : undefined;
}

/**
 * "Already existed" is what a retry hears when an earlier attempt of the same migration created the user and its
 * answer was lost. Reported as such it would list a new user among those whose hash was REPLACED; it counts as
 * created, with a note in the report that says why.
 */
export function endAfterEarlierAttempt(end: Extract<OperationEnd, { kind: 'done' }>): Extract<OperationEnd, { kind: 'done' }>;
export function endAfterEarlierAttempt(end: OperationEnd): OperationEnd;
export function endAfterEarlierAttempt(end: OperationEnd): OperationEnd {
  if (end.kind !== 'done') return end;
  if (end.outcome === 'alreadyExisted') return { kind: 'done', outcome: 'imported', journal: 'imported', note: createdByLostAttemptNote };
  if (end.outcome === 'thirdPartyExisting') return { kind: 'done', outcome: 'thirdPartyCreated', journal: 'created', note: thirdPartyCreatedByLostAttemptNote };
  if (end.outcome === 'passwordlessExisting')
    return { kind: 'done', outcome: 'passwordlessCreated', journal: 'created', note: passwordlessCreatedByLostAttemptNote };
  return end;
}
