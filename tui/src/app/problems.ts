import {
  defaultSettings,
  describeProblem,
  isProblem,
  parseSettings,
  type MigrationSettings,
  type MigrationSettingsInput,
  type SettingKey,
  type SettingProblem,
  optional,
} from 'core-client/settings';
import { settingsInputOfDraft } from './draft.js';
import { environmentKeys } from './origins.js';
import type { AppState, Problem } from './state.js';

/**
 * What the command line would give for the fields. A value the environment gave (CORE_URL) is left to the
 * environment, as the operator left it: the connection then names it as its source, and the printed command line
 * does not turn it into a flag.
 */
function settingsInputOfState(state: AppState): MigrationSettingsInput {
  const input: Record<string, unknown> = { ...settingsInputOfDraft(state.draft) };
  for (const key of environmentKeys(state.origins)) delete input[key];
  return input as MigrationSettingsInput;
}

/** The settings the fields describe, or what is wrong with them, each in the app's own terms. */
export function settingsOfState(state: AppState): { settings: MigrationSettings } | { problems: Partial<Record<SettingKey, string>> } {
  const parsed = parseSettings(settingsInputOfState(state));
  if (!Array.isArray(parsed)) return { settings: parsed };
  const problems: Partial<Record<SettingKey, string>> = {};
  for (const problem of parsed) problems[problem.setting ?? 'file'] ??= describeProblem(problem, 'app');
  return { problems };
}

/** The app's boundary for a problem of core-client: its words in the app's terms, the field it concerns, its exit code. */
export function appProblemOf(problem: SettingProblem): Problem {
  return { message: describeProblem(problem, 'app'), ...optional('setting', problem.setting), exitCode: problem.exitCode };
}

/**
 * The app's words for anything that failed: a problem of core-client in the app's terms, and what is not one (a Node
 * system error, a rejection the app did not expect) as the error says it. The one place a failure's `message` is read.
 */
export function describeFailure(failure: unknown): string {
  if (isProblem(failure)) return describeProblem(failure, 'app');
  // eslint-disable-next-line house/no-failure-message -- a failure outside core-client has no words but its own
  return failure instanceof Error ? failure.message : String(failure);
}

/** Every problem a setting has now: a value the settings refuse, or one found when it was entered (a missing file). */
export function settingProblems(state: AppState): Partial<Record<SettingKey, string>> {
  const parsed = settingsOfState(state);
  const problems: Partial<Record<SettingKey, string>> = 'problems' in parsed ? { ...parsed.problems } : {};
  for (const [setting, problem] of Object.entries(state.fieldProblems)) problems[setting as SettingKey] ??= problem;
  return problems;
}

/** The settings the fields describe, or the first problem among them (for work that needs them whole). */
export function settingsOrProblem(state: AppState): { settings: MigrationSettings } | { problem: Problem } {
  const parsed = settingsOfState(state);
  if ('settings' in parsed) return parsed;
  const [setting, message] = Object.entries(parsed.problems)[0] ?? ['file', 'a setting cannot be used'];
  return { problem: { message, setting: setting as SettingKey } };
}

/**
 * The settings as far as they can be read: a setting with a problem (a half-typed concurrency) is left at its default,
 * so work that needs only the others (checking the files the fields name) does not wait for it to be fixed.
 */
export function settingsDespiteProblems(state: AppState): MigrationSettings {
  const input: Record<string, unknown> = { ...settingsInputOfState(state) };
  const parsed = settingsOfState(state);
  if ('settings' in parsed) return parsed.settings;
  for (const setting of Object.keys(parsed.problems)) delete input[setting];
  const again = parseSettings(input as MigrationSettingsInput);
  return Array.isArray(again) ? defaultSettings : again;
}
