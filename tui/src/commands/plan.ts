import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readableByOthersWarning } from 'core-client/files';
import { runPlan } from 'core-client/run';
import { exitCodeOfPlan, isProblem, parseSettings } from 'core-client/settings';
import { CommandOutput, wantsJson } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { formatPlanSummary } from './plan-format.js';
import { addSettingOptions, settingsInputOf } from './setting-options.js';

export const registerPlanCommand: RegisterCommand = (command: Command, { io, setExitCode }) => {
  addSettingOptions(command, 'plan').action(async (file: string, flags: Record<string, unknown>) => {
    const output = new CommandOutput(io, 'plan', { json: wantsJson(flags) });
    const settings = parseSettings(settingsInputOf(flags, file));
    if (Array.isArray(settings)) return setExitCode(output.failWith(settings));
    if (settings.hashConfig !== undefined) {
      const warning = await readableByOthersWarning(resolve(io.cwd, settings.hashConfig), 'the signer key');
      if (warning !== undefined) output.warn(warning);
    }
    const summary = await runPlan(settings, io.cwd, file);
    if (isProblem(summary)) return setExitCode(output.failWith(summary));
    output.result(summary, formatPlanSummary(file, summary, settings.report));
    setExitCode(exitCodeOfPlan(summary));
  });
};
