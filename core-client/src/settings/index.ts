export { DuplicatePolicySchema, DisabledPolicySchema, ExistingPolicySchema, DeletedPolicySchema, type DeletedPolicy } from '../choices.js';
export { MigrationSettingsSchema, defaultSettings, MAX_CONCURRENCY, type MigrationSettings, type MigrationSettingsInput, type SettingKey } from './settings.js';
export {
  settingFlags,
  settingFlag,
  settingName,
  type SettingFlag,
  type SettingGroup,
  type SettingCommand,
  type SettingFace,
  type SettingKind,
} from './setting-flags.js';
export { SettingError, isSettingError, parseSettings } from './setting-error.js';
export { RunSetupError, isRunSetupError } from './run-setup-error.js';
export { resolveRunPaths, defaultReportName, defaultJournalName, settingOfRole, roleOfSetting, type RunPaths } from './run-paths.js';
export { planOptionsOf, hashConfigOf, prefixRulesOf } from './plan-options.js';
export { connectionOf, clientOf, connectionWarnings, describeConnectionSources, type ConnectionContext } from './connection-of.js';
export { countPlan, planKeyOf, type CountedPlan, type CountOptions } from './count-plan.js';
export {
  prepareMigration,
  exposedFileWarnings,
  concurrencyLimitsOf,
  requestedIdentity,
  type PreparedMigration,
  type RunContext,
  type MigrationCommand,
} from './prepare-migration.js';
export { runPrepared, resumeSettings, resumeCommandLine, syncCommandLine, type RunControls } from './run-prepared.js';
export { rollbackWithSettings, type RollbackRun } from './run-rollback.js';
export { runPlan } from './run-plan.js';
export { saveHashParameters, savedHashParametersPath } from './hash-parameters.js';
export { commandLineOf, shellQuote, formatCommandLine } from './command-line.js';
export { ExitCode, exitCodeOfPush, exitCodeOfRollback, notResumableStops } from './verdict.js';
export { migrationCommandOf } from './migration-command.js';
export { unprovenScryptWarning, KNOWN_ACCOUNT_LINE } from './scrypt-proof.js';
export { syncRefusal, withheldRemovalsSentence } from './sync-guard-sentences.js';
