import type { Command } from 'commander';
import type { CommandIO } from '../io.js';
import { registerCheckCommand } from './check.js';
import { registerHashCommand } from './hash.js';
import { registerPlanCommand } from './plan.js';
import { registerPushCommand } from './push.js';

/**
 * A subcommand registers itself on the program; its action resolves to an exit code through `setExitCode`.
 * One line per subcommand below.
 */
export interface CommandContext {
  io: CommandIO;
  setExitCode: (code: number) => void;
}

export type RegisterCommand = (program: Command, context: CommandContext) => void;

export const commands: RegisterCommand[] = [registerHashCommand, registerPlanCommand, registerPushCommand, registerCheckCommand];
