import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { settingFlags } from '../../../core-client/src/settings/setting-flags.js';
import { buildProgram } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

async function loginMigrationCommand(name: 'serve' | 'status'): Promise<Command> {
  const { io } = captureIO();
  const program = await buildProgram(io, () => undefined, ['login-migration', name]);
  const command = program.commands.find((one) => one.name() === 'login-migration')?.commands.find((one) => one.name() === name);
  if (command === undefined) throw new Error(`no login-migration ${name}`);
  return command;
}

describe('login-migration takes its flags from the settings table, as every command does', () => {
  it.each(['serve', 'status'] as const)('login-migration %s has exactly the flags the table gives it', async (name) => {
    const command = await loginMigrationCommand(name);
    const flags = command.options.filter((option) => !option.hidden).map((option) => option.long);
    expect(flags.sort()).toEqual(
      settingFlags
        .filter((entry) => entry.commands.includes(name))
        .map((entry) => entry.flag)
        .sort(),
    );
  });
});
