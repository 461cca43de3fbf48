import type { Command } from 'commander';
import type { CommandIO } from '../io.js';

/**
 * A subcommand's module fills in the command the command line made for it (named, described and with its docs line
 * from catalogue.ts): its options, arguments, subcommands and action. The action resolves to an exit code through
 * `setExitCode`.
 */
export interface CommandContext {
  io: CommandIO;
  setExitCode: (code: number) => void;
}

export type RegisterCommand = (command: Command, context: CommandContext) => void;
