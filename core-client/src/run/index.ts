/**
 * `core-client/run`: a run from settings, the one code path of the headless commands and the terminal app: the plan
 * options, the connection and client, the count of the plan, the checks before a push, the push or sync, the
 * rollback, `core-migrate plan`, and the files a run writes besides its journal and report.
 */
export { planOptionsOf, hashConfigOf, readHashConfigFile, prefixRulesOf } from './plan-options.js';
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
export { migrationCommandOf } from './migration-command.js';
