import { resolve } from 'node:path';
import type { Command } from 'commander';
import { runPreflight } from 'core-client/connection/preflight';
import { OutputPathError } from 'core-client/files/output-paths';
import { CoreClient } from 'core-client/http/core-client';
import { probeIdentityFeatures } from 'core-client/identity/features';
import { JournalReadError } from 'core-client/identity/journal-users';
import { runRollback, type RollbackSummary } from 'core-client/identity/rollback';
import { printableJson, printableLines } from 'core-client/printable';
import { ExitCode } from '../exit-codes.js';
import type { CommandIO } from '../io.js';
import { addConnectionOptions, connectionFromOptions, type ConnectionFlags } from './connection-options.js';
import { commandCatalogue } from './catalogue.js';
import type { RegisterCommand } from './index.js';

interface RollbackFlags extends ConnectionFlags {
  journal?: string;
  dryRun?: boolean;
  json?: boolean;
}

class UsageError extends Error {}

export const registerRollbackCommand: RegisterCommand = (program: Command, { io, setExitCode }) => {
  const command = program
    .command('rollback')
    .description(commandCatalogue.rollback.description)
    .requiredOption('--journal <file>', 'the journal of the push to undo')
    .option('--dry-run', 'count what would be removed; remove nothing')
    .option('--json', 'end with one JSON object holding the counts');
  addConnectionOptions(command).action(async (flags: RollbackFlags) => {
    try {
      setExitCode(await rollback(flags, io));
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof JournalReadError || error instanceof OutputPathError)) throw error;
      io.stderr.write(printableLines(`core-migrate rollback: ${error.message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
    }
  });
};

async function rollback(flags: RollbackFlags, io: CommandIO): Promise<number> {
  const journalPath = resolve(io.cwd, flags.journal ?? '');
  const connection = await connectionFromOptions(flags, io);
  if (connection instanceof Error) throw new UsageError(connection.message);
  const client = new CoreClient({
    baseUrl: connection.coreUrls,
    apiKey: connection.apiKey,
    ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
    ...(connection.appId === undefined ? {} : { appId: connection.appId }),
  });
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    io.stderr.write('\nStopping: no new removals; those in flight finish and are recorded.\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const preflight = await runPreflight(client);
    if (!preflight.ok) {
      io.stderr.write(`core-migrate rollback: the pre-flight failed, nothing was removed. ${preflight.failure?.sentence ?? ''}\n`);
      return ExitCode.coreUnreachableOrKeyRefused;
    }
    const support = await probeIdentityFeatures(client);
    if (!support.removal) {
      io.stderr.write(
        `core-migrate rollback: the core at ${preflight.target} has no user removal (/user/remove answered 404), so nothing can be rolled back.\n`,
      );
      return ExitCode.usageOrConfiguration;
    }
    const summary = await runRollback({
      journalPath,
      client,
      dryRun: flags.dryRun === true,
      signal: interrupt.signal,
      mappingSupported: support.mapping,
      onNote: (message) => io.stderr.write(printableLines(`${message}\n`)),
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${journalPath}: no such journal.`);
      throw error;
    });
    io.stdout.write(printableLines(formatRollback(summary)));
    if (flags.json === true) io.stdout.write(`${printableJson(summary)}\n`);
    if (summary.stoppedEarly?.reason === 'authRejected' || summary.stoppedEarly?.reason === 'tenantNotFound') return ExitCode.coreUnreachableOrKeyRefused;
    if (summary.stoppedEarly?.reason === 'outputFailed') return ExitCode.usageOrConfiguration;
    return summary.failed + summary.leftAlone + summary.uncertain + (summary.dryRun ? 0 : summary.notAttempted) > 0 ? ExitCode.someRecordsFailed : ExitCode.ok;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await client.close();
  }
}

export function formatRollback(summary: RollbackSummary): string {
  const lines = [summary.dryRun ? 'Rollback dry run: nothing was removed.' : 'Rollback summary:'];
  lines.push(`  created by the push         ${summary.created}`);
  lines.push(`  ${summary.dryRun ? 'would be removed          ' : 'removed now               '}  ${summary.dryRun ? summary.notAttempted : summary.removed}`);
  lines.push(`  removed by an earlier run   ${summary.alreadyRemoved}`);
  if (summary.leftAlone > 0) lines.push(`  left alone (old id reused)  ${summary.leftAlone}`);
  if (summary.failed > 0) lines.push(`  failed                      ${summary.failed}`);
  if (!summary.dryRun && summary.notAttempted > 0) lines.push(`  not attempted               ${summary.notAttempted}`);
  for (const problem of summary.problems) lines.push(`  - ${problem}`);
  if (summary.uncertain > 0) {
    lines.push(
      `  ${summary.uncertain} creation(s) were sent by a push killed before it journalled the answer, so the journal has no id for them: ` +
        'resume the push (it finds and records them), then roll back again.',
    );
  }
  lines.push(`  Removals are recorded in ${summary.recordPath}; running the same command again goes on from there.`);
  if (summary.stoppedEarly !== undefined) lines.push(`Stopped early: ${summary.stoppedEarly.message}`);
  return `${lines.join('\n')}\n`;
}
