/**
 * `core-client/run`: a run from settings, the one code path of the headless commands and the terminal app: the plan
 * options, the connection and client, the count of the plan, the checks before a push, the push or sync, the
 * rollback, `core-migrate plan`, and the files a run writes besides its journal and report.
 */
export { planOptionsOf, hashConfigOf, readHashConfigFile, prefixRulesOf } from './settings/plan-options.js';
export { connectionOf, clientOf, connectionWarnings, describeConnectionSources, type ConnectionContext } from './settings/connection-of.js';
export { countPlan, planKeyOf, type CountedPlan, type CountOptions } from './settings/count-plan.js';
export {
  prepareMigration,
  exposedFileWarnings,
  concurrencyLimitsOf,
  requestedIdentity,
  type PreparedMigration,
  type RunContext,
  type MigrationCommand,
} from './settings/prepare-migration.js';
export { runPrepared, resumeSettings, resumeCommandLine, syncCommandLine, type RunControls } from './settings/run-prepared.js';
export { rollbackWithSettings, type RollbackRun } from './settings/run-rollback.js';
export { runPlan } from './settings/run-plan.js';
export { saveHashParameters, savedHashParametersPath } from './settings/hash-parameters.js';
export { migrationCommandOf } from './settings/migration-command.js';
