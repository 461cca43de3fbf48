import type { Command } from 'commander';
import type { PushSummary } from 'core-client/push/summary';
import { ExitCode, exitCodeOfPush } from '../exit-codes.js';
import type { CommandIO } from '../io.js';
import type { CommandContext } from './index.js';
import type { WalkDefaults } from '../screens/walk-state.js';

export const headlessUsage = `core-migrate needs a terminal for its interactive walk (stdin and stdout must be a TTY).
Without one, use the headless commands:

  core-migrate check [--core URL | --stack NAME] [--tenant T] [--app A] [--api-key-file F]
      pre-flight only: is the core reachable, is the key accepted, does the tenant exist
  core-migrate plan <file> [--format F] [--hash-config FILE] [--strip-prefix P]...
      read the export and count what would be sent, nothing is sent
  core-migrate push <file> [--core URL | --stack NAME] [--hash-config FILE] [--journal FILE]
                    [--report FILE] [--concurrency N] [--dry-run] [--json]
      send the users; re-run with the same --journal to resume
  core-migrate hash inspect <hash> | hash verify <hash>
      look at one hash, or check a known password against it

The api-key comes from CORE_API_KEY, --api-key-file or the stack, never from a flag.
Run core-migrate <command> --help for every option.
`;

export interface InteractiveOptions {
  defaults?: WalkDefaults;
  pulumiBinary?: string;
}

/** The exit code of a walk: the push's own (see `exitCodeOfPush`); leaving before any push is not a failure. */
export function exitCodeOfWalk(summary: PushSummary | undefined): ExitCode {
  return summary === undefined ? ExitCode.ok : exitCodeOfPush(summary);
}

/**
 * Opens the terminal app on the command's own streams and resolves when the operator leaves. Ink and React are
 * loaded only here, so the headless commands start without them.
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
  const [{ render }, { createElement }, { App }] = await Promise.all([import('ink'), import('react'), import('../app.js')]);
  let summary: PushSummary | undefined;
  const instance = render(
    createElement(App, {
      env: io.env,
      cwd: io.cwd,
      colour,
      ...(options.defaults === undefined ? {} : { defaults: options.defaults }),
      ...(options.pulumiBinary === undefined ? {} : { pulumiBinary: options.pulumiBinary }),
      onDone: (result) => {
        summary = result;
      },
    }),
    {
      stdin: io.stdin as NodeJS.ReadStream,
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      // Both streams are terminals (checked above): live frames even where CI is set, which Ink reads as "final frame only".
      interactive: true,
    },
  );
  await instance.waitUntilExit();
  return exitCodeOfWalk(summary);
}

/** `core-migrate` with no subcommand: the walk on a TTY, the headless usage otherwise. */
export function registerInteractive(program: Command, { io, setExitCode }: CommandContext): void {
  program.action(async () => {
    setExitCode(await runInteractive(io));
  });
}
