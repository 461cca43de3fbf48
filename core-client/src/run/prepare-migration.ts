import { runPreflight } from '../connection/preflight.js';
import type { Connection } from '../connection/resolve-connection.js';
import { plainHttpWarning, readableByOthersWarning } from '../files/exposure-warnings.js';
import { checkOutputPaths, type NamedFile } from '../files/output-paths.js';
import type { HashConfig } from '../hashes/hash-config.js';
import type { CoreClient } from '../http/core-client.js';
import { IdentityProbeError, identityOptionsFor, missingFeaturesSentence, probeIdentityFeatures, type StepFeature } from '../identity/features.js';
import { IdentityOptionsSchema, type IdentityOptions } from '../identity/identity-options.js';
import { isPostgresUrl } from '../login-time/store/open-store.js';
import { rolesRecordPath } from '../roles/role-setup.js';
import { MAX_WANTED_ROLES } from '../roles/plan-roles.js';
import type { PlanOptions } from '../plan/plan-source.js';
import type { PlanSummary } from '../plan/summary.js';
import { concurrencyLimitsFor, defaultConcurrencyLimits, type ConcurrencyLimits } from '../push/concurrency.js';
import { readCredentials, type KnownCredential } from '../push/credentials.js';
import { migrationInputs } from '../push/migration.js';
import { plannedRejectionsOf } from '../summary/push-summary.js';
import { syncJournalProblem } from '../sync/sync-guard.js';
import type { Secret } from '../secret.js';
import { clientOf, connectionOf } from './connection-of.js';
import { countPlan, planKeyOf, snapshotOfSource, type CountedPlan, type CountOptions } from './count-plan.js';
import type { FileSnapshot } from '../files/file-snapshot.js';
import { planOptionsOf } from './plan-options.js';
import { resolveRunPaths, roleOfSetting, type RunPaths } from '../settings/run-paths.js';
import { unprovenScryptWarning } from '../settings/scrypt-proof.js';
import { preflightProblem, runProblem, settingProblem, type SettingProblem } from '../settings/setting-problem.js';
import { Problem } from '../problem.js';
import { settingName, type SettingFace } from '../settings/setting-flags.js';
import type { MigrationSettings, SettingKey } from '../settings/settings.js';
import { optional } from '../optional.js';
import { openPostgresSnapshot } from '../sources/database/open-snapshot.js';
import type { PostgresSnapshot } from '../sources/database/postgres-snapshot.js';
import { isSourceError } from '../sources/source-error.js';

export interface RunContext {
  /** The folder the command runs in: relative paths of the settings are read from there. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** An api-key typed in the terminal app (stands in for CORE_API_KEY). */
  apiKey?: Secret;
  /** Hash parameters typed or pasted in the terminal app, used instead of the `hashConfig` file. */
  hashConfig?: HashConfig;
  pulumiBinary?: string;
  /** A count the caller already made with the same plan (the app's): reused when its key matches. */
  counted?: CountedPlan;
  /** Lines for the operator, in order: `info` for the run's own output, `warning` for stderr. */
  onMessage?: (message: { level: 'info' | 'warning'; text: string }) => void;
  /** The count's progress, while the plan is read before the push. */
  onCountProgress?: CountOptions['onProgress'];
  signal?: AbortSignal;
  /** `sync`: the export is a newer one of the system the journal migrated, and only what changed is sent. Default `push`. */
  command?: MigrationCommand;
  /** Whose words the messages use for settings (flags, or the app's labels). Default `flags`. */
  face?: SettingFace;
}

export type MigrationCommand = 'push' | 'sync';

/** A run that passed every check before sending: what it will send, where, and how. */
export interface PreparedMigration {
  command: MigrationCommand;
  settings: MigrationSettings;
  paths: RunPaths;
  /** How the export is read; for a database, with the run's snapshot of it (`database`), which `runPrepared` closes. */
  planOptions: PlanOptions;
  /** The plan's count; none for a sync, which reads its export once (its delta is counted as it is sent). */
  planned: CountedPlan | undefined;
  /** The export's files when the run was prepared: a change after this stops it. */
  snapshot: FileSnapshot[];
  connection: Connection;
  client: CoreClient;
  /** e.g. "http://127.0.0.1:3567 (tenant public)". */
  target: string;
  limits: ConcurrencyLimits;
  identity: IdentityOptions;
  credentials?: KnownCredential[];
  /** Files besides the export and the Auth0 hash file that the run reads (no output may be one of them). */
  inputFiles: NamedFile[];
}

/** The limits `concurrency` stands for: adaptive when unset. */
export function concurrencyLimitsOf(settings: MigrationSettings): ConcurrencyLimits {
  return settings.concurrency === undefined ? defaultConcurrencyLimits : concurrencyLimitsFor(settings.concurrency);
}

/** The identity steps the operator asked for. */
export function requestedIdentity(settings: MigrationSettings): IdentityOptions {
  return IdentityOptionsSchema.parse({
    keepIds: settings.keepIds,
    verifyEmails: settings.verifyEmails,
    metadata: settings.metadata,
    existing: settings.existing,
    roles: settings.roles,
    passwordless: settings.passwordless,
  });
}

const settingOfFeature: Record<StepFeature, SettingKey> = {
  mapping: 'keepIds',
  verification: 'verifyEmails',
  metadata: 'metadata',
  lookup: 'existing',
  roles: 'roles',
  passwordless: 'passwordless',
};

function turnOffText(missing: readonly StepFeature[], face: SettingFace): string | undefined {
  if (face === 'flags') return undefined;
  const steps = missing.map((feature) =>
    feature === 'lookup' ? `set "${settingName('existing', 'app')}" to replace` : `turn off "${settingName(settingOfFeature[feature], 'app')}"`,
  );
  return steps.join(' and ');
}

const exposedFiles: readonly { key: SettingKey; holds: string }[] = [
  { key: 'apiKeyFile', holds: 'the api-key' },
  { key: 'hashConfig', holds: 'the signer key' },
  { key: 'verifyCredentials', holds: 'passwords of known accounts' },
];

/** Files of the run holding a secret (api-key, signer key, known passwords) that other users of the machine can read. */
export async function exposedFileWarnings(paths: RunPaths): Promise<string[]> {
  const warnings: string[] = [];
  for (const file of exposedFiles) {
    const path = paths.inputs.find((input) => input.role === roleOfSetting(file.key))?.path;
    const warning = path === undefined ? undefined : await readableByOthersWarning(path, file.holds);
    if (warning !== undefined) warnings.push(warning);
  }
  return warnings;
}

/**
 * Everything a push checks before its first operation, in one sequence both faces run: the settings and the files
 * they name, the outputs (never an input), the known accounts' file, the connection and its pre-flight, the identity
 * features the core offers, the plan's count, and whether the steps the plan needs are there. Returns the prepared
 * run, or the first reason it cannot start (nothing was sent). The caller closes `client`.
 */
export async function prepareMigration(settings: MigrationSettings, context: RunContext): Promise<PreparedMigration | SettingProblem> {
  const say = (level: 'info' | 'warning', text: string): void => context.onMessage?.({ level, text });
  if (settings.file === undefined) return settingProblem('fileNeeded', 'file', '{setting} is needed: which export holds the users?');
  const command = context.command ?? 'push';
  if (command === 'sync' && settings.journal === undefined) {
    return settingProblem('journalNeeded', 'journal', '{setting} is needed: a sync compares the newer export with the journal of the earlier push or sync.');
  }
  const paths = resolveRunPaths(settings, context.cwd);
  // Before connecting: a mistyped journal would otherwise make the sync a full push of the export.
  const noJournal = command === 'sync' ? await syncJournalProblem(paths.journalPath) : undefined;
  if (noJournal !== undefined) return runProblem('syncJournalUnusable', 'journal', noJournal, 'journal');
  const planOptions = await planOptionsOf(settings, { cwd: context.cwd, ...optional('hashConfig', context.hashConfig) });
  if (planOptions instanceof Problem) return planOptions;
  const limits = concurrencyLimitsOf(settings);

  // Before anything is opened, read or sent: an output that names an input would destroy it.
  const inputFiles = paths.inputs.filter((input) => input.role !== 'auth0PasswordFile');
  const outputs: NamedFile[] = [{ role: 'report', path: paths.reportPath }];
  if (!settings.dryRun) outputs.push({ role: 'journal', path: paths.journalPath }, { role: 'rolesRecord', path: rolesRecordPath(paths.journalPath) });
  // A SQLite waiting store is written by the push (a dry run only keeps the report off it).
  const store: NamedFile[] =
    paths.loginTimeStore === undefined || isPostgresUrl(paths.loginTimeStore) ? [] : [{ role: 'waitingStore', path: paths.loginTimeStore }];
  if (!settings.dryRun) outputs.push(...store);
  const inputs = [...migrationInputs({ sourcePath: paths.sourcePath, planOptions, inputFiles }), ...(settings.dryRun ? store : [])];
  const refused = await checkOutputPaths(inputs, outputs);
  if (refused !== undefined) return refused;
  for (const warning of await exposedFileWarnings(paths)) say('warning', warning);
  const credentialsPath = paths.inputs.find((input) => input.role === 'credentials')?.path;
  const credentials = credentialsPath === undefined ? undefined : await readCredentials(credentialsPath);
  if (credentials instanceof Error) return settingProblem('credentialsUnreadable', 'verifyCredentials', `{setting} ${credentials.message}`);

  const connection = await connectionOf(settings, context);
  if (connection instanceof Problem) return connection;
  for (const url of connection.coreUrls) {
    const clearText = plainHttpWarning(url);
    if (clearText !== undefined) say('warning', clearText);
  }
  const client = clientOf(connection, { connections: limits.max, redact: [planOptions.hashConfig?.signerKey], giveUpAfter: settings.giveUpAfter });
  if (client instanceof Problem) return client;

  let reading: PostgresSnapshot | undefined;
  const failed = (problem: SettingProblem): SettingProblem => {
    void client.close();
    void reading?.close();
    return problem;
  };
  const preflight = await runPreflight(client);
  if (!preflight.ok) {
    return failed(preflightProblem(preflight.failure, 'nothing was sent'));
  }
  say('info', `Core: ${preflight.target} is reachable and accepts the key.`);
  const support = await probeIdentityFeatures(client).catch((error: unknown) => {
    if (error instanceof IdentityProbeError) return error;
    throw error;
  });
  if (support instanceof IdentityProbeError) return failed(support);

  // A database is read in one snapshot for the whole run (closed by runPrepared): the count, the push and a sync's
  // passes read the same users, however the database changes meanwhile. A count made before (the app's) read another.
  if (isPostgresUrl(paths.sourcePath)) {
    try {
      reading = await openPostgresSnapshot(paths.sourcePath, context.env);
    } catch (error) {
      if (isSourceError(error)) return failed(error);
      throw error;
    }
  }
  const runOptions: PlanOptions = reading === undefined ? planOptions : { ...planOptions, database: reading };
  const key = planKeyOf(paths.sourcePath, planOptions);
  const planned =
    context.counted?.key === key && reading === undefined
      ? context.counted
      : // A sync reads its export once, unless it gives roles: they are created before the first user, so counted first.
        command === 'sync' && planOptions.roles === undefined
        ? undefined
        : await countPlan(paths.sourcePath, runOptions, {
            ...optional('signal', context.signal),
            ...optional('onProgress', context.onCountProgress),
          });
  if (planned instanceof Problem) return failed(planned);
  const snapshot = planned?.snapshot ?? (await snapshotOfSource(paths.sourcePath, runOptions));
  if (snapshot instanceof Problem) return failed(snapshot);
  const summary = planned?.summary;
  if (summary !== undefined) {
    // In the summary's words: a disabled account left out is its own outcome, not a refusal.
    const { rejected, disabledSkipped } = plannedRejectionsOf(summary);
    const disabled = disabledSkipped > 0 ? `, ${disabledSkipped} disabled, not imported` : '';
    say('info', `Plan: ${summary.operations} operations from ${summary.records} records (${rejected} rejected by the plan${disabled}).`);
  }
  // A sync never replaces the hash of a user someone else created in the core meanwhile (signed up directly there).
  const requested = command === 'sync' ? { ...requestedIdentity(settings), existing: 'skip' as const } : requestedIdentity(settings);
  const identity = identityOptionsFor(requested, support, summary, preflight.target);
  if ('problem' in identity) {
    const { missing } = identity;
    return failed(
      runProblem(
        'identityFeaturesMissing',
        'setting',
        (face) => missingFeaturesSentence(missing, preflight.target, turnOffText(missing, face)),
        settingOfFeature[missing[0] ?? 'mapping'],
      ),
    );
  }
  if (identity.options.roles && summary !== undefined && summary.roles.wantedNotListed > 0) {
    return failed(
      runProblem(
        'rolesLookLikeUserData',
        'setting',
        `the records hold more than ${MAX_WANTED_ROLES} distinct roles at ${summary.roles.from ?? 'the roles path'}, which look like per-user data, not roles; nothing was sent. Check the roles path, or turn roles off.`,
        'rolesFrom',
      ),
    );
  }
  const scryptUsers = command === 'push' ? (summary?.byFamily.vendor_scrypt ?? 0) : 0;
  if (credentials === undefined && scryptUsers > 0) say('warning', unprovenScryptWarning(scryptUsers, context.face ?? 'flags'));
  if ((summary === undefined || summary.byFamily.vendor_scrypt > 0) && connection.signerKeyConfigured === false) {
    say('info', 'Warning: the stack says the core has no signer key; the first vendor_scrypt user will prove it, and the push stop.');
  }
  return {
    command,
    settings,
    paths,
    planOptions: runOptions,
    planned,
    snapshot,
    connection,
    client,
    target: preflight.target,
    limits,
    identity: identity.options,
    ...optional('credentials', credentials),
    inputFiles,
  };
}

export type { PlanSummary };
