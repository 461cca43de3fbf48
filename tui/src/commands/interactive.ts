import type { Command } from 'commander';
import { printableLines } from 'core-client/printable';
import { defaultSettings, describeProblem, type MigrationSettings, parseSettings, ExitCode, optional } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { invocationFor } from '../invocation.js';
import type { CommandContext } from './index.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

export const headlessUsage = `core-migrate needs a terminal for its interactive walk (stdin and stdout must be a TTY).
Without one, use the headless commands:

  core-migrate check [--core URL | --stack NAME] [--tenant T] [--app A] [--api-key-file F]
      pre-flight only: is the core reachable, is the key accepted, does the tenant exist
  core-migrate plan <file> [--format F] [--hash-config FILE] [--strip-prefix P]...
      read the export and count what would be sent, nothing is sent
  core-migrate push <file> [--core URL | --stack NAME] [--hash-config FILE] [--journal FILE]
                    [--report FILE] [--concurrency N] [--dry-run] [--json]
      send the users; re-run with the same --journal to resume
  core-migrate rollback --journal FILE [--core URL | --stack NAME]
      remove exactly the users a push created
  core-migrate hash inspect <hash> | hash verify <hash>
      look at one hash, or check a known password against it

The api-key comes from CORE_API_KEY, --api-key-file or the stack, never from a flag.
Run core-migrate <command> --help for every option.
`;

export interface InteractiveOptions {
  settings?: MigrationSettings;
  pulumiBinary?: string;
}

/**
 * Opens the terminal app on the command's own streams, filled with the settings of the command line, and resolves
 * when the operator leaves, with the exit code `push` would give for the same outcome. The app draws on the
 * terminal's alternate screen; on leaving, the command that resumes or repeats the run is printed on one line.
 * Ink and React are loaded only here, so the headless commands start without them.
 */
export async function runInteractive(io: CommandIO, options: InteractiveOptions = {}): Promise<number> {
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    io.stdout.write(headlessUsage);
    return ExitCode.usageOrConfiguration;
  }
  const { colourAllowed } = await import('../components/theme.js');
  const colour = colourAllowed(io.env);
  // chalk (under Ink) reads FORCE_COLOR but not NO_COLOR, and only when it loads: set it before Ink is imported.
  if (!colour && process.env['FORCE_COLOR'] === undefined) process.env['FORCE_COLOR'] = '0';
  const [{ render }, { createElement }, { App }, { Secret }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../terminal-app.js'),
    import('core-client'),
  ]);
  const apiKey = io.env['CORE_API_KEY'];
  let result: { exitCode: number; command?: { label: string; line: string; caveat?: string } } = { exitCode: ExitCode.ok };
  const instance = render(
    createElement(App, {
      env: io.env,
      cwd: io.cwd,
      colour,
      settings: options.settings ?? defaultSettings,
      invocation: invocationFor(io.env),
      ...(apiKey === undefined || apiKey === '' ? {} : { apiKey: new Secret(apiKey), apiKeyFromEnvironment: true }),
      ...optional('pulumiBinary', options.pulumiBinary),
      onDone: (done) => {
        result = done;
      },
    }),
    {
      stdin: io.stdin as NodeJS.ReadStream,
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      alternateScreen: true,
      // Both streams are terminals (checked above): live frames even where CI is set, which Ink reads as "final frame only".
      interactive: true,
    },
  );
  await instance.waitUntilExit();
  if (result.command !== undefined) {
    io.stdout.write(printableLines(`${result.command.label}:\n`));
    io.stdout.write(`${printableLines(result.command.line)}\n`);
    if (result.command.caveat !== undefined) io.stdout.write(printableLines(`(${result.command.caveat})\n`));
  }
  return result.exitCode;
}

/** The app runs a push, or a sync when its journal holds an earlier export's users: it takes the flags of both. */
const appCommands = ['push', 'sync'] as const;

/**
 * `core-migrate [file] [any push or sync flag]`: the terminal app filled with those settings on a TTY (Enter on each
 * screen and y at the confirmation run what `core-migrate push` (or `sync`) with the same flags would), the headless
 * usage otherwise.
 */
export function registerInteractive(program: Command, { io, setExitCode }: CommandContext): void {
  addSettingOptions(program, appCommands, { optionalArgument: true }).action(async (file: string | undefined, flags: Record<string, unknown>) => {
    const refusal = apiKeyFlagRefusal(flags);
    const settings = refusal === undefined ? parseSettings(settingsInputOf(flags, file)) : undefined;
    if (settings === undefined || Array.isArray(settings)) {
      const message = refusal ?? (settings ?? []).map((problem) => describeProblem(problem, 'flags')).join('\n');
      io.stderr.write(printableLines(`core-migrate: ${message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
      return;
    }
    setExitCode(await runInteractive(io, { settings }));
  });
}
