import { parseSettings, type MigrationSettings, type SettingKey } from 'core-client/settings';
import { settingsInputOfDraft } from './draft.js';
import type { AppState } from './state.js';

/** The settings the fields describe, or what is wrong with them, each in the app's own terms. */
export function settingsOfState(state: AppState): { settings: MigrationSettings } | { problems: Partial<Record<SettingKey, string>> } {
  const parsed = parseSettings(settingsInputOfDraft(state.draft));
  if (!Array.isArray(parsed)) return { settings: parsed };
  const problems: Partial<Record<SettingKey, string>> = {};
  for (const error of parsed) problems[error.setting] ??= error.describe('app');
  return { problems };
}

/** Every problem a setting has now: a value the settings refuse, or one found when it was entered (a missing file). */
export function settingProblems(state: AppState): Partial<Record<SettingKey, string>> {
  const parsed = settingsOfState(state);
  const problems: Partial<Record<SettingKey, string>> = 'problems' in parsed ? { ...parsed.problems } : {};
  for (const [setting, problem] of Object.entries(state.fieldProblems)) problems[setting as SettingKey] ??= problem;
  return problems;
}
