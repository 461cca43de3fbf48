import { resolve } from 'node:path';
import type { Command } from 'commander';
import { checkOutputPaths, OutputPathError } from 'core-client/files/output-paths';
import { readableByOthersWarning } from 'core-client/files/exposure-warnings';
import { PlanTally } from 'core-client/plan/summary';
import { planSource } from 'core-client/plan/plan-source';
import { ReportWriter, reportLineOfRejection } from 'core-client/plan/rejection-report';
import { SourceError } from 'core-client/sources/source-error';
import { ExitCode, exitCodeOfPlan, parseSettings, planOptionsOf, Problem, resolveRunPaths } from 'core-client/settings';
import { CommandOutput, wantsJson } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { formatPlanSummary } from './plan-format.js';
import { addSettingOptions, settingsInputOf } from './setting-options.js';

export const registerPlanCommand: RegisterCommand = (command: Command, { io, setExitCode }) => {
  addSettingOptions(command, 'plan').action(async (file: string, flags: Record<string, unknown>) => {
    const output = new CommandOutput(io, 'plan', { json: wantsJson(flags) });
    const fail = (message: string): void => setExitCode(output.fail(message, ExitCode.usageOrConfiguration));
    const settings = parseSettings(settingsInputOf(flags, file));
    if (Array.isArray(settings)) return setExitCode(output.failWith(settings));
    const paths = resolveRunPaths(settings, io.cwd);
    if (settings.hashConfig !== undefined) {
      const warning = await readableByOthersWarning(resolve(io.cwd, settings.hashConfig), 'the signer key');
      if (warning !== undefined) output.warn(warning);
    }
    const options = await planOptionsOf(settings, { cwd: io.cwd });
    if (options instanceof Problem) return setExitCode(output.failWith(options));
    let report: ReportWriter | undefined;
    if (settings.report !== undefined) {
      const output = { role: 'the report', path: paths.reportPath };
      const refused = await checkOutputPaths([{ role: 'the export', path: paths.sourcePath }, ...paths.inputs], [output]);
      if (refused !== undefined) return fail(refused.message);
      try {
        report = new ReportWriter(output, { command: 'plan', source: file });
      } catch (error) {
        if (error instanceof OutputPathError) return fail(error.message);
        throw error;
      }
    }
    const tally = new PlanTally(options.roles?.from);
    try {
      for await (const record of planSource(paths.sourcePath, options)) {
        tally.addRecord(record);
        if (report === undefined) continue;
        for (const item of record.items) if (item.kind === 'rejection') await report.write(reportLineOfRejection(item));
      }
      await report?.close();
    } catch (error) {
      await report?.close().catch(() => undefined);
      if (error instanceof SourceError || error instanceof OutputPathError) return fail(error.message);
      throw error;
    }
    const summary = tally.summary();
    output.result(summary, formatPlanSummary(file, summary, settings.report));
    setExitCode(exitCodeOfPlan(summary));
  });
};
