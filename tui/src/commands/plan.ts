import type { Command } from 'commander';
import { PlanTally } from 'core-client/plan/summary';
import { planSource } from 'core-client/plan/plan-source';
import { ReportWriter, reportLineOfRejection } from 'core-client/plan/rejection-report';
import { SourceError } from 'core-client/sources/source-error';
import { ExitCode } from '../exit-codes.js';
import { commandCatalogue } from './catalogue.js';
import type { RegisterCommand } from './index.js';
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
    .option('--report <file>', 'write every rejection to this file, one JSON object per line');
  addSourceOptions(command).action(async (file: string, flags: PlanFlags) => {
    const options = await planOptionsFromFlags(flags);
    if (options instanceof Error) {
      io.stderr.write(`core-migrate plan: ${options.message}\n`);
      setExitCode(ExitCode.usageOrConfiguration);
      return;
    }
    const tally = new PlanTally();
    const report = flags.report === undefined ? undefined : new ReportWriter(flags.report);
    try {
      for await (const record of planSource(file, options)) {
        tally.addRecord(record);
        if (report === undefined) continue;
        for (const item of record.items) if (item.kind === 'rejection') await report.write(reportLineOfRejection(item));
      }
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      io.stderr.write(`core-migrate plan: ${error.message}\n`);
      setExitCode(ExitCode.usageOrConfiguration);
      return;
    } finally {
      await report?.close();
    }
    const summary = tally.summary();
    io.stdout.write(flags.json === true ? `${JSON.stringify(summary)}\n` : formatPlanSummary(file, summary, flags.report));
    setExitCode(summary.rejected > 0 ? ExitCode.someRecordsFailed : ExitCode.ok);
  });
};
