/**
 * core-client's public face for a library user and for the app: read an export, plan it, push or sync it, roll it
 * back, check a core, and the words for each result. The run by settings (flags, labels, choices, verdicts) is
 * `core-client/settings`; output files are `core-client/files`. Anything not listed here is internal: the package
 * exports no other path (tests reach internals by relative path into src/).
 */

// The contract with the core, the HTTP client and its errors.
export * from './contract/index.js';
export * from './http/errors.js';
export { CoreClient, type CoreClientOptions, type CallOptions } from './http/core-client.js';
export { resolveCoreTarget, resolveCoreTargets, describeTarget, type CoreTarget } from './http/target.js';

// Values that must not reach a screen or a log, and text made safe to show.
export { Secret, isSecret } from './secret.js';
export { printable, printableLines, printableJson, hasUnprintable } from './printable.js';
export { RecordLocationSchema, formatLocation, type RecordLocation } from './location.js';

// Where the core is: connection sources, Pulumi stacks, the preflight.
export { ConnectionError, isConnectionError, type ConnectionErrorKind } from './connection/errors.js';
export { listPulumiStacks, readStackConnection, type StackConnection } from './connection/pulumi-cli.js';
export { StackOutputsSchema, stackCoreUrls, type StackOutputs } from './connection/stack-outputs.js';
export { ConnectionEnv, resolveConnection, type Connection, type ConnectionInput, type ConnectionSource } from './connection/resolve-connection.js';
export { runPreflight, type PreflightReport, type PreflightStep, type PreflightStepName } from './connection/preflight.js';

// Reading an export.
export { sourceFormats, isSourceFormat, type SourceFormat } from './sources/source-format.js';
export { SourceError, isSourceError, type SourceErrorKind } from './sources/source-error.js';
export type { SourceUser, SourceRecord, LinkedProvider } from './sources/source-user.js';
export { parseFieldMapping, defaultFieldMapping, mappedFields, type FieldMapping, type MappedField } from './sources/generic/field-mapping.js';
export { exportFields } from './sources/generic/export-fields.js';
export { detectFormat } from './sources/detect-format.js';
export { readSource, type OpenSourceOptions } from './sources/read-source.js';

// Hashes: families, parameters, wrappers, local verification.
export { hashFamilies, hashFamilyLabel, type HashFamily, type PrepareHashResult } from './hashes/families.js';
export { HashConfigError, parseHashConfig, type HashConfig } from './hashes/hash-config.js';
export { PrefixRuleError, prefixRuleFromOption, type PrefixRule } from './hashes/prefix-rules.js';
export { prepareHash } from './hashes/prepare-hash.js';
export { verifyPassword } from './hashes/verify-password.js';
export { LEGACY_HASH_ADVICE, legacyHashBehind, type LegacyHashReading } from './hashes/legacy-behind.js';
export { legacyHashFamilyLabel, type LegacyHashFamily } from './hashes/legacy/registry.js';
export { verifyLegacyPassword, type LegacyVerification } from './hashes/legacy/verify-legacy.js';
export {
  LegacyVerifierPool,
  VerifierPoolBusy,
  VerifierPoolClosed,
  VerifierThreadLost,
  type VerifierPoolOptions,
  type VerifierPoolProblemCode,
} from './hashes/legacy/verifier-pool.js';
export { signerKeyReminder } from './hashes/signer-key-reminder.js';

// The plan: what would be sent, counted before anything is.
export { planSource, type PlanOptions, type PlannedRecord } from './plan/plan-source.js';
export { summarisePlan } from './plan/summarise-plan.js';
export { PlanTally, type PlanSummary } from './plan/summary.js';
export { describeLoginTimeFamilies, describeLoginTimeWaits, loginTimeFamilies, loginTimeOldSystems } from './plan/login-time-words.js';
export { readReportGroups, type ReportGroups, type ReportGroup, type ReportEntry } from './plan/report-groups.js';
export { describePlanRoles, parseRolesFile, type PlanRoles } from './roles/plan-roles.js';
export type * from './plan/operation.js';

// The push, the sync and the rollback, and the words for their results.
export { runMigration, type RunMigrationOptions } from './push/migration.js';
export { PushControl } from './push/control.js';
export type { PushEvent, PushEventListener } from './push/events.js';
export {
  pushOutcomes,
  outcomeLabels,
  outcomesShown,
  formatCountsSum,
  describeCredentialsProof,
  describeRetries,
  describeRoles,
  describeSteps,
  describeSyncCounts,
  type PushSummary,
  type PushCounts,
  type PushOutcome,
  type SyncCounts,
} from './summary/push-summary.js';
export type { RunEnd } from './journal/journal-lines.js';
export { readCredentials, type CredentialCheck } from './push/credentials.js';
export { findPasswordEmails, checkKnownPassword, type KnownPasswordCheck } from './push/known-password.js';
export { featureLabels, identityFeatures, type IdentityFeature } from './identity/identity-options.js';
export type { SyncUserDelta } from './sync/delta.js';
export { DEFAULT_MAX_REMOVALS, DEFAULT_MIN_OVERLAP_PERCENT } from './sync/sync-guard.js';
export type { SyncForecast } from './summary/push-summary.js';
export { IdentityProbeError, probeIdentityFeatures, type FeatureSupport } from './identity/features.js';
export { usersToRemove, type RollbackSummary } from './rollback/rollback.js';
export { RollbackCountsSchema, type RollbackCounts } from './rollback/rollback-record.js';
export { JournalReadError } from './rollback/journal-users.js';
export { describeJournal, type JournalOverview, type RunOverview } from './rollback/journal-overview.js';

// Login-time migration: the HTTP service a backend asks at sign-in, and its limits.
export {
  startLoginService,
  answerStatus,
  type LoginService,
  type LoginServiceOptions,
  type Migrate,
  type RequestLogLine,
} from './login-time/service/login-service.js';
export {
  DEFAULT_LOGIN_SERVICE_PORT,
  LoginServiceSettingsSchema,
  type LoginServiceSettings,
  type LoginServiceSettingsInput,
} from './login-time/service/service-settings.js';
export { ServiceRefusalCodeSchema, ServiceRefusalSchema, type ServiceRefusal, type ServiceRefusalCode } from './login-time/service/service-refusal.js';
export {
  loginServiceReadiness,
  preflightNotReadyReason,
  HealthAnswerSchema,
  NotReadyReasonSchema,
  type HealthAnswer,
  type NotReadyReason,
  type ReadinessCheck,
} from './login-time/service/readiness.js';
export {
  LoginServiceSettingError,
  resolveServiceKey,
  SERVICE_KEY_ENV,
  SERVICE_KEY_FLAG,
  type LoginServiceProblemCode,
} from './login-time/service/service-key.js';
export { AttemptLimitSettingsSchema, type AttemptLimitSettings } from './login-time/attempt-limits.js';
export { LoginMigrationAnswerSchema, type LoginMigrationAnswer } from './login-time/login-answer.js';
