import type { Command } from 'commander';
import type { RollbackSummary } from 'core-client';
import { rollbackWithSettings } from 'core-client/run';
import { ExitCode, exitCodeOfRollback, parseSettings, Problem } from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { CommandOutput, wantsJson } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

export const registerRollbackCommand: RegisterCommand = (command: Command, { io, setExitCode }) => {
  addSettingOptions(command, 'rollback').action(async (flags: Record<string, unknown>) => {
    setExitCode(await rollback(flags, io));
  });
};

async function rollback(flags: Record<string, unknown>, io: CommandIO): Promise<number> {
  const output = new CommandOutput(io, 'rollback', { json: wantsJson(flags) });
  const fail = (message: string, code: ExitCode): ExitCode => output.fail(message, code);
  const refusal = apiKeyFlagRefusal(flags);
  if (refusal !== undefined) return fail(refusal, ExitCode.usageOrConfiguration);
  const settings = parseSettings(settingsInputOf(flags));
  if (Array.isArray(settings)) return output.failWith(settings);
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    io.stderr.write('\nStopping: no new removals; those in flight finish and are recorded.\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const summary = await rollbackWithSettings(
      settings,
      { cwd: io.cwd, env: io.env },
      {
        signal: interrupt.signal,
        onNote: (message) => output.warn(message),
        onWarning: (message) => output.warn(message),
      },
    );
    if (summary instanceof Problem) return output.failWith(summary);
    output.result(summary, formatRollback(summary));
    return exitCodeOfRollback(summary);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

export function formatRollback(summary: RollbackSummary): string {
  const lines = [summary.dryRun ? 'Rollback dry run: nothing was removed.' : 'Rollback summary:'];
  lines.push(`  created by the migration    ${summary.created} (by its push and its syncs)`);
  lines.push(`  ${summary.dryRun ? 'would be removed          ' : 'removed now               '}  ${summary.dryRun ? summary.notAttempted : summary.removed}`);
  if (summary.removedBySync > 0) lines.push(`  removed by a sync           ${summary.removedBySync}`);
  if (summary.alreadyRemoved > 0) lines.push(`  removed by an earlier rollback  ${summary.alreadyRemoved}`);
  if (summary.leftAlone > 0) lines.push(`  left alone (old id reused)  ${summary.leftAlone}`);
  if (summary.failed > 0) lines.push(`  failed                      ${summary.failed}`);
  if (!summary.dryRun && summary.notAttempted > 0) lines.push(`  not attempted               ${summary.notAttempted}`);
  if (summary.roles !== undefined) {
    const { roles } = summary;
    lines.push(
      summary.dryRun
        ? `  roles created by the push   ${roles.created} (removed once no user has them)`
        : `  roles removed               ${roles.removed.length} of ${roles.created} created by the push${roles.kept.length > 0 ? ` (${roles.kept.length} still held: kept)` : ''}`,
    );
  }
  if (summary.loginTime !== undefined) {
    const { loginTime } = summary;
    lines.push(
      `  login-time migration        ${loginTime.arrivalsRemoved} created at their first sign-in ${loginTime.dryRun ? 'would be removed' : 'removed'}, ` +
        `${loginTime.waitingDropped} still waiting ${loginTime.dryRun ? 'would leave' : 'left'} the store` +
        (loginTime.arrivalsFailed > 0 ? `; ${loginTime.arrivalsFailed} removal(s) failed (kept in the store: run the same command again)` : ''),
    );
  }
  for (const problem of summary.problems) lines.push(`  - ${problem}`);
  if (summary.uncertain > 0) {
    lines.push(
      `  ${summary.uncertain} creation(s) were sent by a push killed before it journalled the answer, so the journal has no id for them: ` +
        'resume the push (it finds and records them), then roll back again.',
    );
  }
  lines.push(
    summary.dryRun
      ? `  A rollback records its removals in ${summary.recordPath}, so running it again goes on from there.`
      : `  Removals are recorded in ${summary.recordPath}; running the same command again goes on from there.`,
  );
  if (summary.stoppedEarly !== undefined) lines.push(`Stopped early: ${summary.stoppedEarly.message}`);
  return `${lines.join('\n')}\n`;
}
