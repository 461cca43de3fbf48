import { allSucceeded, type PushSummary } from 'core-client/push/summary';

/** The exit codes every headless command shares; scripts and CI rely on them. */
export const ExitCode = {
  ok: 0,
  someRecordsFailed: 1,
  usageOrConfiguration: 2,
  coreUnreachableOrKeyRefused: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

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
  if (summary.dryRun) return summary.rejected + summary.failed > 0 ? ExitCode.someRecordsFailed : ExitCode.ok;
  if (!allSucceeded(summary)) return ExitCode.someRecordsFailed;
  const proof = summary.credentials;
  if (proof !== undefined && proof.loggedIn !== null && proof.loggedIn < proof.matchedLocally) return ExitCode.someRecordsFailed;
  return ExitCode.ok;
}
