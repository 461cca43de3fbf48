/**
 * Where a setting belongs in a run; the terminal app has a screen for each group but `service`: where the login-time
 * service listens, its key, limits and threads (the app does not run the service).
 */
export type SettingGroup = 'source' | 'hashes' | 'connection' | 'identity' | 'run' | 'service';

/** The commands whose command line carries a setting. */
/**
 * `serve` is `login-migration serve`: it reaches the core the migration's way, so it takes the connection settings.
 * `status` is `login-migration status`, which reads the waiting store only.
 */
export type SettingCommand = 'plan' | 'push' | 'sync' | 'check' | 'rollback' | 'serve' | 'status';

export type SettingKind =
  /** The export itself: the command's argument, not a flag. */
  | { type: 'argument' }
  | { type: 'text' }
  | { type: 'path' }
  /** Repeatable: one value per flag. */
  | { type: 'list' }
  /** Off unless given (`--dry-run`). */
  | { type: 'switch' }
  /** On unless turned off (`--no-keep-ids`). */
  | { type: 'negatable' }
  | { type: 'choice'; choices: readonly string[] };

/** One setting's flag, label and help; `Key` is the setting it describes. */
export interface SettingFlagOf<Key extends string> {
  key: Key;
  /** The long flag, e.g. `--auth0-password-file`; for a negatable setting, the flag that turns it off. */
  flag: string;
  /** commander's value placeholder, e.g. `<file>`. */
  value?: string;
  /** The setting in the terminal app's own terms, e.g. "Auth0 password file". */
  label: string;
  group: SettingGroup;
  kind: SettingKind;
  /** What it does, for `--help` and the app's help. */
  help: string;
  commands: readonly SettingCommand[];
  /** The environment variable read when the flag is not given: a container hands the setting over without a command line. */
  env?: string;
  /** Every command that takes the flag needs it (commander refuses the command without it). */
  mandatory?: true;
}

/** The commands that read an export. */
export const sourceCommands = ['plan', 'push', 'sync'] as const;
/** The commands that reach a core. */
export const connectionCommands = ['push', 'sync', 'check', 'rollback', 'serve'] as const;
