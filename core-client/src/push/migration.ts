import type { CoreClient } from '../http/core-client.js';
import { describeFileChange, snapshotFiles, type FileSnapshot } from '../files/file-snapshot.js';
import { checkOutputPaths, type NamedFile } from '../files/output-paths.js';
import { planSource, type PlanOptions } from '../plan/plan-source.js';
import { exportFilesOf } from '../sources/export-files.js';
import { checkCredentialsLocally, credentialsProof, signInCredentials, type CredentialCheck, type KnownCredential } from './credentials.js';
import type { SyncRunOptions } from '../sync/open-sync.js';
import { runPush } from './engine.js';
import type { PushClient, PushRunSettings, RunMode, RunPushOptions } from './run-options.js';
import { sourceFingerprint } from './fingerprint.js';
import { addUnread, emptyCounts, type PushCounts, type PushSummary } from '../summary/push-summary.js';
import { optional } from '../optional.js';
import { describePostgresUrl, isPostgresUrl } from '../sources/database/postgres-url.js';

/** A migration's run is a push or a sync (`RunMode`); a sync's first pass reads the export's plan once more. */
export type RunMigrationOptions = MigrationSettings & RunMode<Omit<SyncRunOptions, 'firstPass'>>;

export interface MigrationSettings extends Omit<PushRunSettings, 'records' | 'sourceFingerprint' | 'client' | 'sourceCheck' | 'sourceName'> {
  sourcePath: string;
  planOptions: PlanOptions;
  client: PushClient & Pick<CoreClient, 'signIn'>;
  /** Known accounts: checked locally against their planned hashes before anything is sent, signed in after. */
  credentials?: KnownCredential[];
  /** Called with the checks after the local check, and again after the sign-ins. */
  onCredentialChecks?: (checks: CredentialCheck[], stage: 'local' | 'signIn') => void;
  /** Further files the run read (hash-config, mapping, credentials): no output may be one of them. */
  inputFiles?: NamedFile[];
  /**
   * The export as it was when the plan counted it (`snapshotFiles(migrationSourceFiles(...))` before planning): a
   * change since then stops the push. Default: a snapshot taken when the migration starts.
   */
  sourceSnapshot?: FileSnapshot[];
}

/**
 * The files a migration reads records from: the export (a Keycloak folder's files), and the Auth0 password-hash file
 * beside it; none for a database, whose run reads one snapshot of it (`PlanOptions.database`), which nothing changes.
 */
export async function migrationSourceFiles(sourcePath: string, planOptions: Pick<PlanOptions, 'auth0PasswordFile'>): Promise<string[]> {
  if (isPostgresUrl(sourcePath)) return [];
  const exportFiles = await exportFilesOf(sourcePath);
  return planOptions.auth0PasswordFile === undefined ? exportFiles : [...exportFiles, planOptions.auth0PasswordFile];
}

/** Every file a migration reads, named, for `checkOutputPaths`. */
export function migrationInputs(options: Pick<RunMigrationOptions, 'sourcePath' | 'planOptions' | 'inputFiles'>): NamedFile[] {
  const inputs: NamedFile[] = [{ role: 'export', path: options.sourcePath }];
  if (options.planOptions.auth0PasswordFile !== undefined) inputs.push({ role: 'auth0PasswordFile', path: options.planOptions.auth0PasswordFile });
  return [...inputs, ...(options.inputFiles ?? [])];
}

/**
 * One migration run, the same for the terminal app and the headless command: refuse outputs that would overwrite an
 * input, prove the known accounts locally, push the plan, then sign the known accounts in. A known password that
 * does not match its planned hash means the hash parameters (above all the signer key) are wrong for every user of
 * that family, so nothing is sent.
 */
export async function runMigration(options: RunMigrationOptions): Promise<PushSummary> {
  const { sourcePath, planOptions, credentials, onCredentialChecks, inputFiles, sourceSnapshot, ...settings } = options;
  const outputs: NamedFile[] = [];
  if (options.reportPath !== undefined) outputs.push({ role: 'report', path: options.reportPath });
  if (options.journalPath !== undefined && options.dryRun !== true) outputs.push({ role: 'journal', path: options.journalPath });
  const refused = await checkOutputPaths(migrationInputs({ sourcePath, planOptions, ...optional('inputFiles', inputFiles) }), outputs);
  if (refused !== undefined) throw refused;

  const sourceFiles = await migrationSourceFiles(sourcePath, planOptions);
  const snapshot = sourceSnapshot ?? (await snapshotFiles(sourceFiles));
  let checks: CredentialCheck[] | undefined;
  if (credentials !== undefined) {
    const signerKey = planOptions.hashConfig?.signerKey;
    try {
      checks = await checkCredentialsLocally(planSource(sourcePath, planOptions), credentials, {
        ...optional('signerKey', signerKey),
        ...optional('signal', options.signal),
      });
    } catch (error) {
      if (options.signal?.aborted !== true) throw error;
      return interruptedBeforePushSummary(options);
    }
    onCredentialChecks?.(checks, 'local');
    const mismatches = checks.filter((check) => check.local === 'mismatch');
    if (mismatches.length > 0) return credentialsMismatchSummary(options, mismatches, checks);
  }

  const source = {
    records: planSource(sourcePath, planOptions),
    sourceFingerprint: await sourceFingerprint(sourceFiles[0] ?? sourcePath, sourceFiles.slice(1)),
    sourceName: isPostgresUrl(sourcePath) ? describePostgresUrl(sourcePath) : sourcePath,
    sourceCheck: () => describeFileChange(snapshot),
  };
  const run: RunPushOptions =
    settings.mode === 'sync'
      ? { ...settings, ...source, sync: { ...settings.sync, firstPass: () => planSource(sourcePath, planOptions) } }
      : { ...settings, ...source };
  const summary = await runPush(run);
  if (checks === undefined || credentials === undefined) return summary;
  if (!summary.dryRun && summary.stoppedEarly === undefined) {
    checks = await signInCredentials(options.client, checks, credentials);
    onCredentialChecks?.(checks, 'signIn');
  }
  return { ...summary, credentials: credentialsProof(checks) };
}

/** The counts of a run that sent nothing: the plan's refusals as the plan ended them, every other operation not attempted. */
function nothingSentCounts(options: RunMigrationOptions): PushCounts {
  const counts = emptyCounts();
  addUnread(counts, options.total ?? 0, options.plannedRejections);
  return counts;
}

function interruptedBeforePushSummary(options: RunMigrationOptions): PushSummary {
  return {
    ...nothingSentCounts(options),
    retries: 0,
    dryRun: options.dryRun === true,
    stoppedEarly: { reason: 'interrupted', message: 'Interrupted while checking the known credentials: nothing was sent.' },
    // Nothing was sent, so no journal or report was written: the summary names none.
    elapsedMs: 0,
  };
}

function credentialsMismatchSummary(options: RunMigrationOptions, mismatches: CredentialCheck[], checks: CredentialCheck[]): PushSummary {
  return {
    ...nothingSentCounts(options),
    retries: 0,
    dryRun: options.dryRun === true,
    stoppedEarly: {
      reason: 'credentialsMismatch',
      message:
        `${mismatches.length} known account(s) (${mismatches.map((check) => check.email).join(', ')}) do not match their planned hash, ` +
        'so nothing was sent: check the hash parameters (--hash-config, above all the signer key) and the credentials file.',
    },
    credentials: credentialsProof(checks),
    // Nothing was sent, so no journal or report was written: the summary names none.
    elapsedMs: 0,
  };
}
