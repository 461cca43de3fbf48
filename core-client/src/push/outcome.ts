import { CoreStatus } from '../contract/names.js';
import { isCoreError } from '../http/errors.js';
import type { ImportPasswordHashResult, SignInUpResult } from '../http/core-client.js';
import type { JournalledOutcome } from '../journal/journal-lines.js';
import type { PushOutcome, StopReason } from '../summary/push-summary.js';

/** How one operation ended, decided from the core's answer alone (pure, so each rule is tested on its own). */
export type OperationEnd =
  /** The core did it: journalled, counted as `outcome`; `note` goes to the report (hash replaced, user existed). */
  | { kind: 'done'; outcome: PushOutcome; journal: JournalledOutcome; note?: string }
  /** Final refusal for this record (400, non-OK status): journalled so it is not sent again unchanged. */
  | { kind: 'refused'; code: string; reason: string }
  /** Not done, may work later (transient after every retry, an unreadable answer): counted failed, NOT journalled. */
  | { kind: 'failed'; code: string; reason: string }
  /** Nothing more should be sent. `hard` aborts requests in flight too (the key was refused, no such tenant). */
  | { kind: 'stop'; reason: StopReason; message: string; hard: boolean; record?: { code: string; reason: string } };

export const alreadyExistedNote = 'a password user with this email already existed in the core: the core REPLACED its password hash with this one';
export const thirdPartyExistingNote = 'this third-party user already existed in the core: the core updated its email and verified flag';
export const passwordlessExistingNote =
  'a passwordless user with this login already existed in the core: nothing of it was changed but what the identity steps write (id, metadata, roles)';

export function endOfImport(result: ImportPasswordHashResult): OperationEnd {
  return result.outcome === 'imported'
    ? { kind: 'done', outcome: 'imported', journal: 'imported' }
    : { kind: 'done', outcome: 'alreadyExisted', journal: 'alreadyExisted', note: alreadyExistedNote };
}

/** The non-OK statuses of a sign-in-up that are final for the record (core-behaviour.md). */
const REFUSAL_STATUSES: ReadonlySet<string> = new Set([CoreStatus.emailChangeNotAllowed]);

export function endOfSignInUp(result: SignInUpResult): OperationEnd {
  switch (result.outcome) {
    case 'created':
      return { kind: 'done', outcome: 'thirdPartyCreated', journal: 'created' };
    case 'existing':
      return { kind: 'done', outcome: 'thirdPartyExisting', journal: 'existing', note: thirdPartyExistingNote };
    case 'nonOkStatus': {
      const said = result.reason === undefined ? '' : `: ${result.reason}`;
      if (REFUSAL_STATUSES.has(result.status)) return { kind: 'refused', code: result.status, reason: `the core answered ${result.status}${said}` };
      // A status this client does not know says nothing about the record: never journal it as "fix the record".
      return {
        kind: 'failed',
        code: 'unknownStatus',
        reason:
          `the core answered the status ${result.status}${said}, which this client does not know, so the operation is not counted as done ` +
          'or refused: it is not journalled and a resume sends it again (check that the core is a version this client supports).',
      };
    }
  }
}

/** Maps an error that ended an operation (after the engine's retries) to what the run does next. */
export function endOfError(error: unknown, attempts: number): OperationEnd {
  if (!isCoreError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', code: 'clientError', reason: `the operation could not be sent: ${message}` };
  }
  switch (error.code) {
    case 'recordRejected':
      return { kind: 'refused', code: 'recordRejected', reason: error.message };
    case 'transient':
      return {
        kind: 'failed',
        code: 'transient',
        reason: `still failing after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error.message} A resume retries it.`,
      };
    case 'tlsFailed':
      // Every further request would meet the same handshake: the address or the trust must change first.
      return { kind: 'stop', reason: 'coreUnreachable', message: error.message, hard: true };
    case 'contractViolation':
      return { kind: 'failed', code: 'contractViolation', reason: error.message };
    case 'authRejected':
      return { kind: 'stop', reason: 'authRejected', message: error.message, hard: true };
    case 'tenantNotFound':
      return { kind: 'stop', reason: 'tenantNotFound', message: error.message, hard: true };
    case 'signerKeyMissing':
      return { kind: 'stop', reason: 'signerKeyMissing', message: error.message, hard: false };
    case 'unexpected':
      // 402/403/404/405 are about the core's setup, not this record: every further request would fail alike.
      return {
        kind: 'stop',
        reason: 'coreRefused',
        message: error.message,
        hard: false,
        record: { code: 'unexpected', reason: error.message },
      };
  }
}
