import { commandLineOf, formatCommandLine, notResumableStops, shellQuote } from 'core-client/settings';
import { settingsOfState } from './problems.js';
import { typedHashForPlan } from './plan-status.js';
import type { AppState } from './state.js';

/** The command that continues from where the app is left, and what it does. */
export interface LeavingCommand {
  label: string;
  args: readonly string[];
  /** Something the command cannot carry, said beside it. */
  caveat?: string;
}

/**
 * After a push: the command that resumes it (or repeats it, which skips what is done), or after a dry run the one
 * that pushes for real. Before any push: the command that runs the push the fields describe.
 */
export function leavingCommand(state: AppState): LeavingCommand | undefined {
  const { run } = state;
  if (run.state === 'finished') {
    // Rolled back: the journal no longer says what the core holds, and a push or sync refuses it.
    if (state.rollback.state === 'done') return undefined;
    const { summary } = run;
    // The saved parameters hold no signer key: the known accounts' check of vendor scrypt users needs it.
    const caveat =
      typedHashForPlan(state) !== undefined && state.draft.verifyCredentials.trim() !== ''
        ? { caveat: 'the saved hash parameters hold no signer key: to check known vendor_scrypt accounts, give your hash_config file instead' }
        : {};
    const what = run.commandLine[0] === 'sync' ? 'sync' : 'push';
    if (summary.dryRun) return { label: `to ${what} for real`, args: run.commandLine.filter((arg) => arg !== '--dry-run'), ...caveat };
    const parsed = settingsOfState(state);
    if (summary.createdWithOtherHash > 0 && summary.journalPath !== undefined && !('problems' in parsed)) {
      return {
        label: `to re-import the hashes of the ${summary.createdWithOtherHash} user(s) created earlier with another hash`,
        args: commandLineOf({ ...parsed.settings, journal: summary.journalPath }, 'sync'),
        ...caveat,
      };
    }
    const resumable = summary.notAttempted > 0 && (summary.stoppedEarly === undefined || !notResumableStops.has(summary.stoppedEarly.reason));
    return { label: resumable ? 'to resume' : 'to run it again (the journal skips what is done)', args: run.commandLine, ...caveat };
  }
  const parsed = settingsOfState(state);
  if ('problems' in parsed || parsed.settings.file === undefined) return undefined;
  const typed = typedHashForPlan(state) !== undefined;
  return {
    label: `to run this ${state.command}`,
    args: commandLineOf(parsed.settings, state.command),
    ...(typed ? { caveat: 'the hash parameters typed here are not in it: name a hash_config file with --hash-config' } : {}),
  };
}

/** The command as one line a shell runs from where the app was started. */
export function leavingLine(state: AppState, invocation: string): string | undefined {
  const command = leavingCommand(state);
  return command === undefined ? undefined : formatCommandLine(invocation, command.args);
}

/**
 * The command on several lines for a narrow screen: a flag never parted from its value, and each line but the last
 * ending in ` \` so that the whole of it can be pasted into a shell.
 */
export function commandLines(invocation: string, args: readonly string[], width: number): string[] {
  const whole = formatCommandLine(invocation, args);
  if (whole.length <= width) return [whole];
  const pieces: string[] = [invocation];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const next = args[index + 1];
    if (arg.startsWith('--') && next !== undefined && !next.startsWith('--')) {
      pieces.push(`${shellQuote(arg)} ${shellQuote(next)}`);
      index += 1;
    } else pieces.push(shellQuote(arg));
  }
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line === '') line = piece;
    else if (line.length + 1 + piece.length + 2 <= width) line = `${line} ${piece}`;
    else {
      lines.push(`${line} \\`);
      line = `  ${piece}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
