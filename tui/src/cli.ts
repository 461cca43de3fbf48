import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';
import { registerInteractive } from './commands/interactive.js';
import { ExitCode } from './exit-codes.js';
import { processIO, type CommandIO } from './io.js';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export function buildProgram(io: CommandIO, setExitCode: (code: number) => void): Command {
  const program = new Command('core-migrate')
    .description("Move users from an old system's export into an authentication core.")
    .version(packageJson.version, '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run core-migrate --help for usage)');
  for (const register of commands) register(program, { io, setExitCode });
  registerInteractive(program, { io, setExitCode });
  return program;
}

/** Runs the command line and resolves to the process exit code; never calls process.exit itself. */
export async function main(argv: string[], io: CommandIO = processIO()): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
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
