import { checkOutputPaths, OutputPathError, type NamedFile } from '../files/output-paths.js';
import { planSource } from '../plan/plan-source.js';
import { ReportWriter, reportLineOfRejection } from '../plan/rejection-report.js';
import { PlanTally, type PlanSummary } from '../plan/summary.js';
import { SourceError } from '../sources/source-error.js';
import { planOptionsOf } from './plan-options.js';
import { resolveRunPaths } from '../settings/run-paths.js';
import type { SettingProblem } from '../settings/setting-problem.js';
import { Problem } from '../problem.js';
import type { MigrationSettings } from '../settings/settings.js';

/**
 * What `core-migrate plan` does: reads the export once, counts its plan, and, when the settings name a report,
 * writes every rejection to it (checked like every output: never over an input of the run). `sourceName` is the
 * export as the operator named it, for the report's header.
 */
export async function runPlan(settings: MigrationSettings, cwd: string, sourceName: string): Promise<PlanSummary | SettingProblem> {
  const paths = resolveRunPaths(settings, cwd);
  const options = await planOptionsOf(settings, { cwd });
  if (options instanceof Problem) return options;
  let report: ReportWriter | undefined;
  if (settings.report !== undefined) {
    const output: NamedFile = { role: 'report', path: paths.reportPath };
    const refused = await checkOutputPaths([{ role: 'export', path: paths.sourcePath }, ...paths.inputs], [output]);
    if (refused !== undefined) return refused;
    try {
      report = new ReportWriter(output, { command: 'plan', source: sourceName });
    } catch (error) {
      if (error instanceof OutputPathError) return error;
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
    if (error instanceof SourceError || error instanceof OutputPathError) return error;
    throw error;
  }
  return tally.summary();
}
