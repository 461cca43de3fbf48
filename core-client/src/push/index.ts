export { runPush } from './engine.js';
export { defaultPushRetryPolicy, DEFAULT_GIVE_UP_AFTER_MS, MAX_GIVE_UP_AFTER_MS, type RunPushOptions, type RunMode, type PushClient } from './run-options.js';
export {
  ConcurrencyController,
  ConcurrencyLimitsSchema,
  defaultConcurrencyLimits,
  defaultControllerTuning,
  concurrencyLimitsFor,
  fixedConcurrency,
  type AnswerKind,
  type ConcurrencyLimits,
  type ControllerTuning,
  type RequestTicket,
} from './concurrency.js';
export { Dispatcher, failureKind, type FailureKind } from './dispatcher.js';
export { journalFitsTarget } from '../journal/journal-target.js';
export { PushControl } from './control.js';
export type { PushEvent, PushEventListener } from './events.js';
export { sourceFingerprint } from './fingerprint.js';
export { Journal, JournalError } from '../journal/journal.js';
export {
  JournalEntrySchema,
  JournalStepEntrySchema,
  journalSteps,
  journalledOutcomes,
  type JournalStep,
  type JournalledOutcome,
} from '../journal/journal-lines.js';
export { JournalHeaderSchema } from '../journal/journal-header.js';
export type { StepProgress, JournalledResult } from '../journal/journal-types.js';
export { endOfError, endOfImport, endOfSignInUp, alreadyExistedNote, thirdPartyExistingNote, type OperationEnd } from './outcome.js';
export {
  PushCountsSchema,
  PushSummarySchema,
  StepCountsSchema,
  emptyStepCounts,
  type StepCounts,
  CredentialsProofSchema,
  pushOutcomes,
  stopReasons,
  outcomeLabels,
  allSucceeded,
  formatCountsSum,
  emptyCounts,
  emptySyncCounts,
  describeSyncCounts,
  SyncCountsSchema,
  type SyncCounts,
  type PushCounts,
  type PushSummary,
  type PushOutcome,
  type StopReason,
  type CredentialsProof,
  type SyncForecast,
} from '../summary/push-summary.js';
export {
  parseCredentials,
  readCredentials,
  checkCredentialsLocally,
  signInCredentials,
  credentialsProof,
  CredentialsFileError,
  type KnownCredential,
  type CredentialCheck,
  type LocalCheck,
  type SignInCheck,
} from './credentials.js';
export { runMigration, migrationInputs, migrationSourceFiles, type RunMigrationOptions } from './migration.js';
export {
  syncDelta,
  type AccountChange,
  type AccountRemoval,
  type DeletedPolicy,
  type EngineItem,
  type EngineRecord,
  type SyncItem,
  type SyncUserDelta,
} from '../sync/delta.js';
export {
  DEFAULT_MAX_REMOVALS,
  DEFAULT_MIN_OVERLAP_PERCENT,
  forecastSync,
  RemovalLimitSchema,
  SyncRefusedError,
  syncJournalProblem,
} from '../sync/sync-guard.js';
export { UserStates, StateFlag } from '../journal/user-states.js';
export { runAccountChange, runAccountRemoval, metadataUpdateOf } from './account-changes.js';
