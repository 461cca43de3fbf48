import type { Command } from 'commander';
import { describeJournal, type JournalOverview, JournalReadError } from 'core-client';
import { describeProblem, ExitCode } from 'core-client/settings';
import { resolve } from 'node:path';
import { CommandOutput } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { formatJournalOverview, holderWords } from './journal-format.js';

export const registerJournalCommand: RegisterCommand = (journal: Command, { io, setExitCode }) => {
  journal
    .command('show <journal>')
    .description(
      'what a journal is: the export and core it was written for, each run with its time and counts, the users it created and still holds, ' +
        'whether it was rolled back, its version (reads only; sends nothing, never takes the lock)',
    )
    .option('--json', 'print one JSON object instead of lines')
    .action(async (path: string, flags: { json?: boolean }) => {
      const output = new CommandOutput(io, 'journal show', { json: flags.json === true });
      const overview = await describeJournal(resolve(io.cwd, path));
      // Its --json failure keeps the fields it always had (no code or setting: `journal show` takes no settings).
      if (overview instanceof JournalReadError) return setExitCode(output.fail(describeProblem(overview, 'flags'), overview.exitCode));
      if (overview.lock?.running === true) output.warn(lockSentence(overview.lock));
      output.result(overview, formatJournalOverview(overview));
      setExitCode(ExitCode.ok);
    });
};

function lockSentence(lock: NonNullable<JournalOverview['lock']>): string {
  return (
    `${capitalised(holderWords(lock.command))} holds this journal (process ${lock.pid} on ${lock.host}, since ${lock.startedAt}): ` +
    'what follows is what it had written when read, and its run has no end yet. Nothing was locked or written.'
  );
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
