import { z } from 'zod';
import { connectionSettings } from './connection-settings.js';
import { loginServiceSettings } from './login-service-settings.js';
import { pushSettings } from './push-settings.js';
import { roleSettings } from './role-settings.js';
import { runSettings } from './run-settings.js';
import { sourceSettings } from './source-settings.js';
import { syncSettings } from './sync-settings.js';

export { MAX_CONCURRENCY, MAX_GIVE_UP_AFTER_SECONDS } from './run-settings.js';

/**
 * Every setting of a migration run, the one description both faces fill: the headless commands from their flags
 * (one flag per key, named in `settingFlags`), the terminal app from its fields. Values are what the operator gave
 * (paths relative to the folder the command runs in); `resolveRunPaths` and `planOptionsOf` turn them into what a
 * run uses. The api-key is deliberately not here: it never is a flag value (shell history, ps), so it comes from the
 * environment, `apiKeyFile`, the stack, or the app's masked field.
 */
export const MigrationSettingsSchema = z.object({
  ...sourceSettings,
  ...connectionSettings,
  ...runSettings,
  ...pushSettings,
  ...syncSettings,
  ...roleSettings,
  ...loginServiceSettings,
});

export type MigrationSettings = z.output<typeof MigrationSettingsSchema>;
/** What the faces hand over: flag values as commander gives them, or the app's fields (strings where typed). */
export type MigrationSettingsInput = z.input<typeof MigrationSettingsSchema>;
export type SettingKey = keyof MigrationSettings;

export const defaultSettings: MigrationSettings = MigrationSettingsSchema.parse({});
