import type { RollbackSummary } from '../rollback/rollback.js';
import type { PlanSummary } from '../plan/summary.js';
import { allSucceeded, plannedRejectionsOf, type PushSummary } from '../summary/push-summary.js';
import { ExitCode } from '../problem.js';

// The exit codes live with the problem type, which carries one; the commands reach them here too.
export { ExitCode } from '../problem.js';

/**
 * The exit code of a push, headless or in the terminal app: 0 when every operation ended imported, existing or
 * skipped (and every known account that matched locally also logged in), 1 when any was rejected, failed or left
 * unsent, 2 for a configuration the operator must fix, 3 when the core is unreachable or refuses the key.
 */
export function exitCodeOfPush(summary: PushSummary): ExitCode {
  switch (summary.stoppedEarly?.reason) {
    case 'authRejected':
    case 'tenantNotFound':
    case 'coreUnreachable':
    case 'tlsFailed':
    case 'coreRefused':
      return ExitCode.coreUnreachableOrKeyRefused;
    case 'signerKeyMissing':
    case 'credentialsMismatch':
    case 'sourceChanged':
    case 'journalNotOnCore':
    case 'outputFailed':
      return ExitCode.usageOrConfiguration;
    default:
      break;
  }
  // Removals withheld over their limit: not done, like a failed operation (rsync's --max-delete exits non-zero too).
  if (summary.syncGuard?.removalsWithheld === true) return ExitCode.someRecordsFailed;
  if (summary.dryRun) return summary.rejected + summary.failed > 0 ? ExitCode.someRecordsFailed : ExitCode.ok;
  if (!allSucceeded(summary)) return ExitCode.someRecordsFailed;
  const proof = summary.credentials;
  if (proof !== undefined && proof.loggedIn !== null && proof.loggedIn < proof.matchedLocally) return ExitCode.someRecordsFailed;
  return ExitCode.ok;
}

/**
 * The exit code of a plan, with push's meanings: 1 when a record would be refused; disabled accounts left out are not
 * refusals (the push counts them apart and ends 0 for them).
 */
export function exitCodeOfPlan(summary: Pick<PlanSummary, 'rejected' | 'identity'>): ExitCode {
  return plannedRejectionsOf(summary).rejected > 0 ? ExitCode.someRecordsFailed : ExitCode.ok;
}

/** The exit code of a rollback, with push's meanings. */
export function exitCodeOfRollback(summary: RollbackSummary): ExitCode {
  const stopped = summary.stoppedEarly?.reason;
  if (stopped === 'authRejected' || stopped === 'tenantNotFound' || stopped === 'tlsFailed') return ExitCode.coreUnreachableOrKeyRefused;
  if (stopped === 'outputFailed') return ExitCode.usageOrConfiguration;
  const unfinished =
    summary.failed + summary.leftAlone + summary.uncertain + (summary.dryRun ? 0 : summary.notAttempted) + (summary.loginTime?.arrivalsFailed ?? 0);
  return unfinished > 0 ? ExitCode.someRecordsFailed : ExitCode.ok;
}

/** A push that stopped for a reason a plain re-run would meet again: the operator must change something first. */
export const notResumableStops: ReadonlySet<string> = new Set(['credentialsMismatch', 'journalNotOnCore', 'sourceChanged', 'outputFailed']);
