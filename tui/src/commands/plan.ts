import { resolve } from 'node:path';
import type { Command } from 'commander';
import { checkOutputPaths, OutputPathError } from 'core-client/files/output-paths';
import { PlanTally } from 'core-client/plan/summary';
import { planSource } from 'core-client/plan/plan-source';
import { ReportWriter, reportLineOfRejection } from 'core-client/plan/rejection-report';
import { printableJson, printableLines } from 'core-client/printable';
import { SourceError } from 'core-client/sources/source-error';
import { ExitCode } from '../exit-codes.js';
import { commandCatalogue } from './catalogue.js';
import type { RegisterCommand } from './index.js';
import { exposedSecretWarnings, sourceFlagInputs } from './file-safety.js';
import { formatPlanSummary } from './plan-format.js';
import { addSourceOptions, planOptionsFromFlags, type SourceFlags } from './source-options.js';

interface PlanFlags extends SourceFlags {
  json?: boolean;
  report?: string;
}

export const registerPlanCommand: RegisterCommand = (program: Command, { io, setExitCode }) => {
  const command = program
    .command('plan')
    .description(commandCatalogue.plan.description)
    .argument('<file>', 'the export file (.gz is read transparently)')
    .option('--json', 'print one JSON object instead of the table')
    .option('--report <file>', "write every rejection to this file, one JSON object per line (appended after a line naming the run; earlier runs' lines stay)");
  addSourceOptions(command).action(async (file: string, flags: PlanFlags) => {
    const fail = (message: string): void => {
      io.stderr.write(printableLines(`core-migrate plan: ${message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
    };
    for (const warning of await exposedSecretWarnings([{ path: flags.hashConfig, holds: 'the signer key' }], io.cwd))
      io.stderr.write(`${printableLines(warning)}\n`);
    const options = await planOptionsFromFlags(flags, io.cwd);
    if (options instanceof Error) return fail(options.message);
    let report: ReportWriter | undefined;
    if (flags.report !== undefined) {
      const output = { role: 'the report', path: resolve(io.cwd, flags.report) };
      const refused = await checkOutputPaths([{ role: 'the export', path: resolve(io.cwd, file) }, ...sourceFlagInputs(flags, io.cwd)], [output]);
      if (refused !== undefined) return fail(refused.message);
      try {
        report = new ReportWriter(output, { command: 'plan', source: file });
      } catch (error) {
        if (error instanceof OutputPathError) return fail(error.message);
        throw error;
      }
    }
    const tally = new PlanTally();
    try {
      for await (const record of planSource(resolve(io.cwd, file), options)) {
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
    io.stdout.write(flags.json === true ? `${printableJson(summary)}\n` : printableLines(formatPlanSummary(file, summary, flags.report)));
    setExitCode(summary.rejected > 0 ? ExitCode.someRecordsFailed : ExitCode.ok);
  });
};
