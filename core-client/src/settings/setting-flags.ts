import { connectionFlags } from './connection-settings.js';
import { loginServiceFlags } from './login-service-settings.js';
import { pushFlags } from './push-settings.js';
import { roleFlags } from './role-settings.js';
import { runFlags } from './run-settings.js';
import type { SettingFlagOf } from './setting-flag.js';
import type { SettingKey } from './settings.js';
import { sourceFlags } from './source-settings.js';
import { syncFlags } from './sync-settings.js';

export type { SettingCommand, SettingGroup, SettingKind } from './setting-flag.js';

export type SettingFlag = SettingFlagOf<SettingKey>;

/**
 * Every setting with its flag, its name in the app and its help: the headless commands build their options from
 * this table and the command line that repeats a run is written from it, so a flag and a field cannot drift apart.
 * Each group's flags sit beside their schema (`*-settings.ts`); this is the one place that gathers them, in the
 * order `--help` shows them.
 */
export const settingFlags: readonly SettingFlag[] = [
  ...sourceFlags,
  ...connectionFlags,
  ...runFlags,
  ...pushFlags,
  ...syncFlags,
  ...roleFlags,
  ...loginServiceFlags,
];

const byKey = new Map(settingFlags.map((entry) => [entry.key, entry]));
const settingKeys: ReadonlySet<string> = new Set(byKey.keys());

/** Whether `key` is a setting of the table (a problem caught as any Problem names its setting as a plain string). */
export function isSettingKey(key: string): key is SettingKey {
  return settingKeys.has(key);
}

export function settingFlag(key: SettingKey): SettingFlag {
  const entry = byKey.get(key);
  if (entry === undefined) throw new Error(`no flag describes the setting ${key}`);
  return entry;
}

/** How a face names a setting in its sentences: the flag on the command line, the field's label in the app. */
export type SettingFace = 'flags' | 'app';

export function settingName(key: SettingKey, face: SettingFace): string {
  const entry = settingFlag(key);
  if (face === 'app') return entry.label;
  return entry.kind.type === 'argument' ? 'the export file' : entry.flag;
}
