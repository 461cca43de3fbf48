import type { ConnectionErrorKind } from '../connection/errors.js';
import type { PreflightReport } from '../connection/preflight.js';
import type { ClientConfigCode } from '../http/target.js';
import type { VerifierPoolProblemCode } from '../hashes/legacy/verifier-pool.js';
import type { OldSystemProblemCode } from '../login-time/old-system/old-system-settings.js';
import type { LoginServiceProblemCode } from '../login-time/service/service-key.js';
import type { WaitingStoreProblemCode } from '../login-time/store/waiting-store.js';
import { Problem, type ProblemKind, type ProblemWords } from '../problem.js';
import type { SourceErrorKind } from '../sources/source-error.js';
import { isSettingKey, settingName, type SettingFace } from './setting-flags.js';
import { MigrationSettingsSchema, type MigrationSettings, type MigrationSettingsInput, type SettingKey } from './settings.js';

/** The codes of the problems a run finds in its settings, their files and its journal, or meets before sending. */
export type RunProblemCode =
  | 'settingOutOfBounds'
  | 'fileNeeded'
  | 'fileMissing'
  | 'fileUnreadable'
  | 'settingFileUnreadable'
  | 'credentialsUnreadable'
  | 'hashConfigInvalid'
  | 'mapInvalid'
  | 'mappingInvalid'
  | 'providerMapInvalid'
  | 'roleMapInvalid'
  | 'defaultRegionInvalid'
  | 'rolesFileInvalid'
  | 'rolesFromNeeded'
  | 'rolesLookLikeUserData'
  | 'stripPrefixInvalid'
  | 'outputRefused'
  | 'identityFeaturesMissing'
  | 'removalMissing'
  | 'journalNeeded'
  | 'journalMissing'
  | 'journalUnreadable'
  | 'journalRefused'
  | 'syncJournalUnusable'
  | 'syncRefused'
  | 'rolesRecordUnwritable'
  | 'preflightFailed'
  /** The core URL has a path the core does not serve (a real core reads it as a tenant): the pre-flight's judgement. */
  | 'corePathNotServed'
  | 'identityProbeFailed'
  | 'rolesNotCreated'
  /** `--verify-with` without `--login-time`: users checked by the old system need a store to wait in. */
  | 'verifyWithoutLoginTime'
  /** `--api-key` given: a key on the command line lands in shell history and in ps. */
  | 'apiKeyOnCommandLine'
  /** `login-migration serve` given the core's api-key as its own key. */
  | 'serviceKeyIsCoreKey'
  /** `login-migration serve --verify-with`: the old system does not answer at its start. */
  | 'oldSystemUnreachable'
  | `source.${SourceErrorKind}`;

/** Every code a problem of core-client can carry: stable, for code, tests and a script reading `--json`. */
export type ProblemCode =
  RunProblemCode | ConnectionErrorKind | ClientConfigCode | OldSystemProblemCode | WaitingStoreProblemCode | VerifierPoolProblemCode | LoginServiceProblemCode;

/** A problem whose setting, when it names one, is a key of the settings table. */
export type SettingProblem = Problem<SettingKey, ProblemCode>;

/**
 * The one boundary where a problem becomes words: `{setting}` becomes `--hash-config` on the command line, "hash_config
 * file" in the app (which also takes the operator to the field). Any Problem may come here (one a face caught has no
 * narrower type): a setting that is not in the table is named as it is.
 */
export function describeProblem(problem: Problem, face: SettingFace): string {
  return problem.describe(face, (setting) => (isSettingKey(setting) ? settingName(setting, face) : setting));
}

/** A setting the operator must change, and why: `words` name it through `{setting}`. */
export function settingProblem(code: RunProblemCode, setting: SettingKey, words: ProblemWords<SettingKey>): SettingProblem {
  return new Problem(code, 'setting', setting, words);
}

/** A problem of another kind, which the setting (when given) helps to fix. */
export function runProblem(code: RunProblemCode, kind: ProblemKind, words: ProblemWords<SettingKey>, setting?: SettingKey): SettingProblem {
  return new Problem(code, kind, setting, words);
}

/** A failed pre-flight as the run's problem; a core URL whose path the core does not serve has a code of its own. */
export function preflightProblem(failure: PreflightReport['failure'], nothingDone: string): SettingProblem {
  const code = failure?.pathNotServed === undefined ? 'preflightFailed' : 'corePathNotServed';
  return runProblem(code, 'core', `the pre-flight failed, ${nothingDone}. ${failure?.sentence ?? ''}`.trim(), 'core');
}

/** The settings a face gathered, checked against their limits; every setting at fault is named. */
export function parseSettings(input: MigrationSettingsInput): MigrationSettings | SettingProblem[] {
  const parsed = MigrationSettingsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    const setting = typeof key === 'string' && key in MigrationSettingsSchema.shape ? (key as SettingKey) : 'file';
    return settingProblem('settingOutOfBounds', setting, `{setting} ${issue.message}`);
  });
}
