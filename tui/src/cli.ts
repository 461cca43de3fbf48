import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { appDocs, commandCatalogue, docsHelpText, isCommandName, type CommandName } from './commands/catalogue.js';
import type { RegisterCommand } from './commands/index.js';
import { ExitCode } from 'core-client/settings';
import { processIO, type CommandIO } from './io.js';

const packageJson: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const version =
  typeof packageJson === 'object' && packageJson !== null && 'version' in packageJson && typeof packageJson.version === 'string'
    ? packageJson.version
    : 'unknown';

/**
 * How each subcommand's module is loaded: only the one that runs, so `--version`, `--help` and each command start
 * without the others' dependencies.
 */
const commandModules: Record<CommandName, () => Promise<RegisterCommand>> = {
  hash: async () => (await import('./commands/hash.js')).registerHashCommand,
  plan: async () => (await import('./commands/plan.js')).registerPlanCommand,
  push: async () => (await import('./commands/push.js')).registerPushCommand,
  sync: async () => (await import('./commands/sync.js')).registerSyncCommand,
  check: async () => (await import('./commands/check.js')).registerCheckCommand,
  rollback: async () => (await import('./commands/rollback.js')).registerRollbackCommand,
  journal: async () => (await import('./commands/journal.js')).registerJournalCommand,
  'login-migration': async () => (await import('./commands/login-migration.js')).registerLoginMigration,
};

/** Every help of a command and of its own subcommands (`hash inspect`) ends with the command's docs page. */
function endHelpWithDocs(command: Command, page: string): void {
  command.addHelpText('after', docsHelpText(page));
  for (const subcommand of command.commands) endHelpWithDocs(subcommand, page);
}

/** The subcommand whose options the command line needs: the one it runs, or the one `help` is asked about. */
function commandNamed(argv: readonly string[]): string | undefined {
  return argv[0] === 'help' ? argv[1] : argv[0];
}

export async function buildProgram(io: CommandIO, setExitCode: (code: number) => void, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('core-migrate')
    .description("Move users from an old system's export into an authentication core.")
    .version(version, '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run core-migrate --help for usage)')
    .helpCommand(true)
    // A subcommand's flags are its own: `push --core` is push's option, not the terminal app's.
    .enablePositionalOptions();
  const wanted = commandNamed(argv);
  for (const [name, entry] of Object.entries(commandCatalogue)) {
    const command = program.command(name).description(entry.description);
    // Only the subcommand that runs is loaded; the others are listed by name for the help.
    if (name !== wanted || !isCommandName(name)) continue;
    (await commandModules[name]())(command, { io, setExitCode });
    endHelpWithDocs(command, entry.docs);
  }
  // Without a subcommand the terminal app opens, filled from the push flags given; `--version` needs none of it.
  const versionOnly = argv.length > 0 && argv.every((arg) => arg === '-v' || arg === '--version');
  if (!isCommandName(wanted) && !versionOnly) {
    (await import('./commands/interactive.js')).registerInteractive(program, { io, setExitCode });
    program.addHelpText('after', docsHelpText(appDocs));
  }
  return program;
}

/** Runs the command line and resolves to the process exit code; never calls process.exit itself. */
export async function main(argv: string[], io: CommandIO = processIO()): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = await buildProgram(
    io,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const helpOrVersion = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      return helpOrVersion ? ExitCode.ok : ExitCode.usageOrConfiguration;
    }
    throw error;
  }
  return exitCode;
}
