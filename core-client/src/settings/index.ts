/**
 * `core-client/settings`: the one table of settings both faces fill (schema, flags, labels, choices), reading them,
 * exit codes and verdicts, and the command line that repeats a run. Light on purpose: `core-migrate --help` loads
 * it. Doing the run is `core-client/run`.
 */
export {
  DuplicatePolicySchema,
  DisabledPolicySchema,
  EmailLinkPolicySchema,
  ExistingPolicySchema,
  DeletedPolicySchema,
  type DeletedPolicy,
} from '../choices.js';
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
export { describeProblem, parseSettings, runProblem, settingProblem, type ProblemCode, type SettingProblem } from './setting-problem.js';
export { Problem, isProblem, type ProblemKind } from '../problem.js';
export { optional, optionalFrom } from '../optional.js';
export { loginServiceSettingsOf, waitingStoreLocation } from './login-service-settings.js';
export { isPostgresUrl } from '../sources/database/postgres-url.js';
export { resolveRunPaths, resolveSourceLocation, defaultReportName, defaultJournalName, roleOfSetting, type RunPaths } from './run-paths.js';
export { settingOfRole } from '../files/file-roles.js';
export { commandLineOf, loginServiceCommandOf, MAKE_SERVICE_KEY_LINE, shellQuote, formatCommandLine } from './command-line.js';
export { ExitCode, exitCodeOfPlan, exitCodeOfPush, exitCodeOfRollback, notResumableStops } from './verdict.js';
export { unprovenScryptWarning, KNOWN_ACCOUNT_LINE } from './scrypt-proof.js';
export { withheldRemovalsSentence } from './sync-guard-sentences.js';
