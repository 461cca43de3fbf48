import type { Command } from 'commander';
import type { PushEvent, PushSummary } from 'core-client';
import { printableLines } from 'core-client/printable';
import { prepareMigration, resumeCommandLine, runPrepared, syncCommandLine, type MigrationCommand, type PreparedMigration } from 'core-client/run';
import {
  ExitCode,
  exitCodeOfPush,
  formatCommandLine,
  loginServiceCommandOf,
  notResumableStops,
  parseSettings,
  Problem,
  type SettingProblem,
  withheldRemovalsSentence,
  MAKE_SERVICE_KEY_LINE,
} from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { invocationFor } from '../invocation.js';
import { CommandOutput, wantsJson } from './command-output.js';
import { GuardedOutput } from './guarded-output.js';
import type { RegisterCommand } from './index.js';
import { formatCredentialChecks, formatProgress, formatSummary } from './push-format.js';
import { SyncRemovals } from './sync-removals.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

/** Without a TTY (CI logs, files) a progress line every few seconds is enough. */
const PLAIN_PROGRESS_EVERY_MS = 5_000;

/** `push` and `sync` run alike: a sync is a push of what changed since the journal's last run. */
export function registerMigrationCommand(name: MigrationCommand): RegisterCommand {
  return (command: Command, { io, setExitCode }) => {
    addSettingOptions(command, name).action(async (file: string, flags: Record<string, unknown>) => {
      const guarded = new GuardedOutput(io);
      try {
        setExitCode(await migrate(name, file, flags, io, guarded, new CommandOutput(io, name, { json: wantsJson(flags), stdout: guarded })));
      } finally {
        guarded.release();
      }
    });
  };
}

export const registerPushCommand: RegisterCommand = registerMigrationCommand('push');

/**
 * The push as both faces run it: the settings from the flags, core-client's checks before sending
 * (`prepareMigration`), the push itself (`runPrepared`), and the exit code of its summary.
 */
async function migrate(
  name: MigrationCommand,
  file: string,
  flags: Record<string, unknown>,
  io: CommandIO,
  guarded: GuardedOutput,
  output: CommandOutput,
): Promise<number> {
  const say = (text: string): void => output.say(`${text}\n`);
  const refusal = apiKeyFlagRefusal(flags);
  if (refusal !== undefined) return output.fail(refusal, ExitCode.usageOrConfiguration);
  const settings = parseSettings(settingsInputOf(flags, file));
  if (Array.isArray(settings)) return output.failWith(settings);
  const prepared = await prepareMigration(settings, {
    command: name,
    cwd: io.cwd,
    env: io.env,
    onMessage: ({ level, text }) => (level === 'info' ? say(text) : output.warn(text)),
  });
  if (prepared instanceof Problem) return output.failWith(prepared);
  const removals = new SyncRemovals();
  try {
    const final = await pushWithInterrupts(io, guarded, output, prepared, removals.onEvent);
    if (final instanceof Problem) return output.failWith(final);
    const resumable = final.stoppedEarly !== undefined && !notResumableStops.has(final.stoppedEarly.reason);
    const resumeHint =
      resumable && final.notAttempted > 0
        ? `To resume, run: ${formatCommandLine(invocationFor(io.env), resumeCommandLine(prepared))}\n(the journal skips what is done; nothing is sent twice).\n`
        : '';
    const syncHint =
      final.createdWithOtherHash > 0
        ? `To re-import the hashes of the ${final.createdWithOtherHash} user(s) created earlier with another hash, run:\n  ${formatCommandLine(invocationFor(io.env), syncCommandLine(prepared))}\n`
        : '';
    const serviceArgs = loginServiceCommandOf(prepared.settings);
    const loginHint =
      final.parkedForLogin > 0 && serviceArgs !== undefined && !final.dryRun
        ? `${final.parkedForLogin} user(s) wait in the login-time store for their first sign-in; start the service your backend asks (docs/login-time.md), ` +
          `with a key of its own that your backend sends (made once, kept if it is there):\n  ${MAKE_SERVICE_KEY_LINE}\n  ${formatCommandLine(invocationFor(io.env), serviceArgs)}\n`
        : '';
    const withheld = withheldRemovalsSentence(final.syncGuard, 'flags', final.dryRun);
    const syncLines = (final.dryRun ? removals.describe() : '') + (withheld === undefined ? '' : `${withheld}\n`);
    output.result(final, formatSummary(final) + syncLines + resumeHint + syncHint + loginHint);
    if (output.json && syncLines !== '') output.say(syncLines);
    if (output.json && resumeHint + syncHint + loginHint !== '') output.say(resumeHint + syncHint + loginHint);
    return exitCodeOfPush(final);
  } finally {
    await prepared.client.close();
  }
}

/**
 * The first Ctrl-C stops taking new operations and lets those in flight finish and be journalled. The listener then
 * goes away, so a second Ctrl-C gets the default action and ends the process at once; every journal line written
 * until then was written synchronously, so the journal still holds.
 */
async function pushWithInterrupts(
  io: CommandIO,
  guarded: GuardedOutput,
  output: CommandOutput,
  prepared: PreparedMigration,
  alsoOnEvent: (event: PushEvent) => void,
): Promise<PushSummary | SettingProblem> {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    io.stderr.write('\nStopping: no new operations; waiting for those in flight (Ctrl-C again to quit at once, the journal holds).\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  guarded.onClosed(() => interrupt.abort());
  if (guarded.closed) interrupt.abort();
  const syncLine = formatCommandLine(invocationFor(io.env), syncCommandLine(prepared));
  const progress = progressPrinter(output, prepared.command, syncLine);
  try {
    return await runPrepared(prepared, {
      signal: interrupt.signal,
      onEvent: (event) => {
        progress.onEvent(event);
        alsoOnEvent(event);
      },
      onCredentialChecks: (checks, stage) => output.say(formatCredentialChecks(checks, stage)),
    });
  } finally {
    progress.end();
    guarded.onClosed(undefined);
    process.removeListener('SIGINT', onSigint);
  }
}

/** Progress, probes and stops for the person: a redrawn line on a terminal, a line every few seconds elsewhere. */
function progressPrinter(output: CommandOutput, name: MigrationCommand, syncLine: string): { onEvent: (event: PushEvent) => void; end: () => void } {
  const tty = output.sayingToTerminal;
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  /** The last progress a log has not shown yet: the run's end shows it, so a log always ends with the final count. */
  let unprinted: string | undefined;
  let lineOpen = false;
  const endLine = (): void => {
    if (lineOpen) output.say('\n');
    lineOpen = false;
  };
  const onEvent = (event: PushEvent): void => {
    switch (event.type) {
      case 'progress': {
        if (tty) {
          output.sayRaw(`\r${printableLines(formatProgress(event, name)).slice(0, Math.max(20, (output.sayingColumns ?? 120) - 1))}\u001b[K`);
          lineOpen = true;
        } else if (performance.now() - lastPlainAt >= PLAIN_PROGRESS_EVERY_MS) {
          lastPlainAt = performance.now();
          unprinted = undefined;
          output.say(`${formatProgress(event, name)}\n`);
        } else unprinted = formatProgress(event, name);
        return;
      }
      case 'probe':
        endLine();
        output.say(`${event.message}\n`);
        return;
      case 'note':
        endLine();
        output.warn(event.message);
        return;
      case 'createdWithOtherHash':
        endLine();
        output.warn(`${event.message} Run:\n  ${syncLine}`);
        return;
      case 'stopping':
        endLine();
        output.say(`Stopping (${event.reason}): ${event.message}\n`);
        return;
      case 'finished':
        endLine();
        if (unprinted !== undefined) output.say(`${unprinted}\n`);
        unprinted = undefined;
        return;
      default:
        return;
    }
  };
  return { onEvent, end: endLine };
}
