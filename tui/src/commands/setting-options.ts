import { Option, type Command } from 'commander';
import {
  defaultSettings,
  MigrationSettingsSchema,
  type MigrationSettingsInput,
  settingFlags,
  type SettingCommand,
  type SettingGroup,
} from 'core-client/settings';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * Adds a command's flags from core-client's table of settings, so every flag is one setting of the run with the
 * same name, help and choices in both faces. `--api-key` is accepted by the parser only to refuse it with a reason.
 * Several commands' flags (the terminal app runs a push or a sync) are each added once. `groups` keeps the flags of
 * the groups it accepts only, for a command whose flags two registrations add (`login-migration serve`).
 */
export function addSettingOptions(
  command: Command,
  name: SettingCommand | readonly SettingCommand[],
  options: { optionalArgument?: boolean; groups?: (group: SettingGroup) => boolean } = {},
): Command {
  const names: readonly SettingCommand[] = typeof name === 'string' ? [name] : name;
  const inGroups = options.groups ?? ((): boolean => true);
  const takes = (entry: { commands: readonly SettingCommand[]; group: SettingGroup }): boolean =>
    inGroups(entry.group) && names.some((one) => entry.commands.includes(one));
  for (const entry of settingFlags) {
    if (!takes(entry)) continue;
    if (entry.kind.type === 'argument') {
      command.argument(options.optionalArgument === true ? entry.flag.replace('<', '[').replace('>', ']') : entry.flag, entry.help);
      continue;
    }
    const takesValue = entry.kind.type !== 'switch' && entry.kind.type !== 'negatable';
    const option = new Option(takesValue ? `${entry.flag} ${entry.value ?? '<value>'}` : entry.flag, entry.help);
    const fallback = defaultSettings[entry.key];
    if (entry.kind.type === 'list') option.argParser(collect);
    if (entry.kind.type === 'choice') {
      option.choices([...entry.kind.choices]);
      if (typeof fallback === 'string') option.default(fallback);
    }
    if (entry.env !== undefined) option.env(entry.env);
    if (entry.mandatory === true) option.makeOptionMandatory();
    command.addOption(option);
  }
  if (settingFlags.some((entry) => entry.key === 'apiKeyFile' && takes(entry))) command.addOption(new Option('--api-key <key>').hideHelp());
  return command;
}

/** The settings' part of commander's option values (commander names them as the settings do). */
export function settingsInputOf(values: Record<string, unknown>, file?: string): MigrationSettingsInput {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(MigrationSettingsSchema.shape)) if (values[key] !== undefined) input[key] = values[key];
  if (file !== undefined) input['file'] = file;
  return input as MigrationSettingsInput;
}

/** The refusal of a key on the command line, or undefined. */
export function apiKeyFlagRefusal(values: Record<string, unknown>): string | undefined {
  if (values['apiKey'] === undefined) return undefined;
  return '--api-key is not accepted, because a key on the command line lands in shell history and in ps: set CORE_API_KEY, pass --api-key-file, or --stack.';
}
