import type { Command } from 'commander';
import type { CommandIO } from '../io.js';

/**
 * A subcommand registers itself on the program; its action resolves to an exit code through `setExitCode`.
 * The catalogue (catalogue.ts) lists them.
 */
export interface CommandContext {
  io: CommandIO;
  setExitCode: (code: number) => void;
}

export type RegisterCommand = (program: Command, context: CommandContext) => void;
