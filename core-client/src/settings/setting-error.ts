import { settingName, type SettingFace } from './setting-flags.js';
import { MigrationSettingsSchema, type MigrationSettings, type MigrationSettingsInput, type SettingKey } from './settings.js';

const PLACEHOLDER = '{setting}';

/**
 * A setting the operator must change, and why. The sentence names the setting through `{setting}`, so each face can
 * say it in its own terms: `--hash-config` on the command line, "hash_config file" in the app (which also takes the
 * operator to the field). A sentence that names its file instead needs no placeholder. `message` is the command
 * line's form.
 */
export class SettingError extends Error {
  override readonly name = 'SettingError';
  readonly kind = 'settingError';

  constructor(
    readonly setting: SettingKey,
    /** A sentence holding `{setting}` where the setting is named. */
    readonly template: string,
  ) {
    super(fill(template, settingName(setting, 'flags')));
  }

  describe(face: SettingFace): string {
    return fill(this.template, settingName(this.setting, face));
  }
}

function fill(template: string, name: string): string {
  return template.replace(PLACEHOLDER, name);
}

export function isSettingError(value: unknown): value is SettingError {
  return value instanceof SettingError;
}

/** The settings a face gathered, checked against their limits; every setting at fault is named. */
export function parseSettings(input: MigrationSettingsInput): MigrationSettings | SettingError[] {
  const parsed = MigrationSettingsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    const setting = typeof key === 'string' && key in MigrationSettingsSchema.shape ? (key as SettingKey) : 'file';
    return new SettingError(setting, `${PLACEHOLDER} ${issue.message}`);
  });
}
