import type { CoreClient } from '../http/core-client.js';
import { planSource, type PlanOptions } from '../plan/plan-source.js';
import { checkCredentialsLocally, credentialsProof, signInCredentials, type CredentialCheck, type KnownCredential } from './credentials.js';
import { runPush, type PushClient, type RunPushOptions } from './engine.js';
import { sourceFingerprint } from './fingerprint.js';
import { emptyCounts, type PushSummary } from './summary.js';

export interface RunMigrationOptions extends Omit<RunPushOptions, 'records' | 'sourceFingerprint' | 'client'> {
  sourcePath: string;
  planOptions: PlanOptions;
  client: PushClient & Pick<CoreClient, 'signIn'>;
  /** Known accounts: checked locally against their planned hashes before anything is sent, signed in after. */
  credentials?: KnownCredential[];
  /** Called with the checks after the local check, and again after the sign-ins. */
  onCredentialChecks?: (checks: CredentialCheck[], stage: 'local' | 'signIn') => void;
}

/**
 * One migration run, the same for the terminal app and the headless command: prove the known accounts locally,
 * push the plan, then sign the known accounts in. A known password that does not match its planned hash means the
 * hash parameters (above all the signer key) are wrong for every user of that family, so nothing is sent.
 */
export async function runMigration(options: RunMigrationOptions): Promise<PushSummary> {
  const { sourcePath, planOptions, credentials, onCredentialChecks, ...pushOptions } = options;
  let checks: CredentialCheck[] | undefined;
  if (credentials !== undefined) {
    const signerKey = planOptions.hashConfig?.signerKey;
    checks = await checkCredentialsLocally(planSource(sourcePath, planOptions), credentials, signerKey === undefined ? {} : { signerKey });
    onCredentialChecks?.(checks, 'local');
    const mismatches = checks.filter((check) => check.local === 'mismatch');
    if (mismatches.length > 0) return credentialsMismatchSummary(options, mismatches, checks);
  }

  const summary = await runPush({
    ...pushOptions,
    records: planSource(sourcePath, planOptions),
    sourceFingerprint: await sourceFingerprint(sourcePath),
  });
  if (checks === undefined || credentials === undefined) return summary;
  if (!summary.dryRun && summary.stoppedEarly === undefined) {
    checks = await signInCredentials(options.client, checks, credentials);
    onCredentialChecks?.(checks, 'signIn');
  }
  return { ...summary, credentials: credentialsProof(checks) };
}

function credentialsMismatchSummary(options: RunMigrationOptions, mismatches: CredentialCheck[], checks: CredentialCheck[]): PushSummary {
  const total = options.total ?? 0;
  return {
    ...emptyCounts(),
    notAttempted: total,
    total,
    dryRun: options.dryRun === true,
    stoppedEarly: {
      reason: 'credentialsMismatch',
      message:
        `${mismatches.length} known account(s) (${mismatches.map((check) => check.email).join(', ')}) do not match their planned hash, ` +
        'so nothing was sent: check the hash parameters (--hash-config, above all the signer key) and the credentials file.',
    },
    credentials: credentialsProof(checks),
    ...(options.journalPath === undefined ? {} : { journalPath: options.journalPath }),
    ...(options.reportPath === undefined ? {} : { reportPath: options.reportPath }),
    elapsedMs: 0,
  };
}
