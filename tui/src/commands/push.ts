import type { Command } from 'commander';
import type { PushEvent } from 'core-client/push/events';
import type { PushSummary } from 'core-client/push/summary';
import { printableJson, printableLines } from 'core-client/printable';
import {
  ExitCode,
  exitCodeOfPush,
  formatCommandLine,
  notResumableStops,
  parseSettings,
  prepareMigration,
  resumeCommandLine,
  runPrepared,
  RunSetupError,
  type PreparedMigration,
} from 'core-client/settings';
import type { CommandIO } from '../io.js';
import { invocationFor } from '../invocation.js';
import { GuardedOutput } from './guarded-output.js';
import type { RegisterCommand } from './index.js';
import { formatCredentialChecks, formatProgress, formatSummary } from './push-format.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

/** Without a TTY (CI logs, files) a progress line every few seconds is enough. */
const PLAIN_PROGRESS_EVERY_MS = 5_000;

export const registerPushCommand: RegisterCommand = (command: Command, { io, setExitCode }) => {
  addSettingOptions(command, 'push').action(async (file: string, flags: Record<string, unknown>) => {
    const output = new GuardedOutput(io);
    try {
      setExitCode(await push(file, flags, io, output));
    } finally {
      output.release();
    }
  });
};

/**
 * The push as both faces run it: the settings from the flags, core-client's checks before sending
 * (`prepareMigration`), the push itself (`runPrepared`), and the exit code of its summary.
 */
async function push(file: string, flags: Record<string, unknown>, io: CommandIO, output: GuardedOutput): Promise<number> {
  const say = (text: string): void => output.write(`${text}\n`);
  const refusal = apiKeyFlagRefusal(flags);
  if (refusal !== undefined) return fail(io, refusal, ExitCode.usageOrConfiguration);
  const settings = parseSettings(settingsInputOf(flags, file));
  if (Array.isArray(settings)) return fail(io, settings.map((error) => error.describe('flags')).join('\n'), ExitCode.usageOrConfiguration);
  const prepared = await prepareMigration(settings, {
    cwd: io.cwd,
    env: io.env,
    onMessage: ({ level, text }) => (level === 'info' ? say(text) : void io.stderr.write(`${printableLines(text)}\n`)),
  });
  if (prepared instanceof RunSetupError) return fail(io, prepared.message, prepared.exitCode);
  try {
    const final = await pushWithInterrupts(io, output, prepared);
    if (final instanceof RunSetupError) return fail(io, final.message, final.exitCode);
    output.write(formatSummary(final));
    const resumable = final.stoppedEarly !== undefined && !notResumableStops.has(final.stoppedEarly.reason);
    if (resumable && final.notAttempted > 0) {
      say(`To resume, run: ${formatCommandLine(invocationFor(io.env), resumeCommandLine(prepared))}\n(the journal skips what is done; nothing is sent twice).`);
    }
    if (settings.json) output.write(`${printableJson(final)}\n`);
    return exitCodeOfPush(final);
  } finally {
    await prepared.client.close();
  }
}

function fail(io: CommandIO, message: string, code: ExitCode): ExitCode {
  io.stderr.write(printableLines(`core-migrate push: ${message}\n`));
  return code;
}

/**
 * The first Ctrl-C stops taking new operations and lets those in flight finish and be journalled. The listener then
 * goes away, so a second Ctrl-C gets the default action and ends the process at once; every journal line written
 * until then was written synchronously, so the journal still holds.
 */
async function pushWithInterrupts(io: CommandIO, output: GuardedOutput, prepared: PreparedMigration): Promise<PushSummary | RunSetupError> {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    io.stderr.write('\nStopping: no new operations; waiting for those in flight (Ctrl-C again to quit at once, the journal holds).\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  output.onClosed(() => interrupt.abort());
  if (output.closed) interrupt.abort();
  const progress = progressPrinter(io, output);
  try {
    return await runPrepared(prepared, {
      signal: interrupt.signal,
      onEvent: progress.onEvent,
      onCredentialChecks: (checks, stage) => output.write(formatCredentialChecks(checks, stage)),
    });
  } finally {
    progress.end();
    output.onClosed(undefined);
    process.removeListener('SIGINT', onSigint);
  }
}

function progressPrinter(io: CommandIO, output: GuardedOutput): { onEvent: (event: PushEvent) => void; end: () => void } {
  const tty = io.stdout.isTTY === true;
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  let lineOpen = false;
  const endLine = (): void => {
    if (lineOpen) output.write('\n');
    lineOpen = false;
  };
  const onEvent = (event: PushEvent): void => {
    switch (event.type) {
      case 'progress': {
        if (tty) {
          output.writeRaw(`\r${printableLines(formatProgress(event)).slice(0, Math.max(20, (io.stdout.columns ?? 120) - 1))}\u001b[K`);
          lineOpen = true;
        } else if (performance.now() - lastPlainAt >= PLAIN_PROGRESS_EVERY_MS) {
          lastPlainAt = performance.now();
          output.write(`${formatProgress(event)}\n`);
        }
        return;
      }
      case 'probe':
        endLine();
        output.write(`${event.message}\n`);
        return;
      case 'note':
        endLine();
        io.stderr.write(`${printableLines(event.message)}\n`);
        return;
      case 'stopping':
        endLine();
        output.write(`Stopping (${event.reason}): ${event.message}\n`);
        return;
      case 'finished':
        endLine();
        return;
      default:
        return;
    }
  };
  return { onEvent, end: endLine };
}
