import { basename, dirname, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { checkOutputPaths, OutputPathError, type NamedFile } from 'core-client/files/output-paths';
import { plainHttpWarning } from 'core-client/files/exposure-warnings';
import { snapshotFiles, type FileSnapshot } from 'core-client/files/file-snapshot';
import { CoreClient } from 'core-client/http/core-client';
import { JournalError } from 'core-client/push/journal';
import { DEFAULT_GIVE_UP_AFTER_MS, MAX_GIVE_UP_AFTER_MS } from 'core-client/push/engine';
import { concurrencyLimitsFor, defaultConcurrencyLimits } from 'core-client/push/aimd';
import { isSourceError } from 'core-client/sources/source-error';
import { readCredentials, type KnownCredential } from 'core-client/push/credentials';
import { runPreflight } from 'core-client/connection/preflight';
import { migrationInputs, migrationSourceFiles, runMigration } from 'core-client/push/migration';
import { summarisePlan } from 'core-client/plan';
import type { PlanOptions } from 'core-client/plan/plan-source';
import type { PlanSummary } from 'core-client/plan/summary';
import type { PushEvent } from 'core-client/push/events';
import type { PushSummary } from 'core-client/push/summary';
import { printableJson, printableLines } from 'core-client/printable';
import { IdentityProbeError, identityOptionsFor, probeIdentityFeatures } from 'core-client/identity/features';
import { IdentityOptionsSchema, type IdentityOptions } from 'core-client/identity/options';
import { ExitCode, exitCodeOfPush } from '../exit-codes.js';
import type { CommandIO } from '../io.js';
import { commandCatalogue } from './catalogue.js';
import { addConnectionOptions, connectionFromOptions, type ConnectionFlags } from './connection-options.js';
import { exposedSecretWarnings, sourceFlagInputs } from './file-safety.js';
import type { RegisterCommand } from './index.js';
import { formatCredentialChecks, formatProgress, formatSummary, shellQuote } from './push-format.js';
import { addSourceOptions, planOptionsFromFlags, type SourceFlags } from './source-options.js';

interface PushFlags extends SourceFlags, ConnectionFlags {
  concurrency?: string;
  giveUpAfter?: string;
  journal?: string;
  report?: string;
  dryRun?: boolean;
  verifyCredentials?: string;
  json?: boolean;
  keepIds?: boolean;
  verifyEmails?: boolean;
  metadata?: boolean;
  existing?: 'skip' | 'replace';
}

/** Without a TTY (CI logs, files) a progress line every few seconds is enough. */
const PLAIN_PROGRESS_EVERY_MS = 5_000;
const MAX_CONCURRENCY = 1_024;

class UsageError extends Error {}

export const registerPushCommand: RegisterCommand = (program: Command, { io, setExitCode }) => {
  const command = program
    .command('push')
    .description(commandCatalogue.push.description)
    .argument('<file>', 'the export file (.gz is read transparently)')
    .option(
      '--concurrency <n>',
      `requests in flight at most (default: adaptive, starting at ${defaultConcurrencyLimits.initial}, up to ${defaultConcurrencyLimits.max})`,
    )
    .option(
      '--give-up-after <seconds>',
      `stop (exit 3) once the core has answered nothing useful this long; until then operations wait (default: ${DEFAULT_GIVE_UP_AFTER_MS / 1000})`,
    )
    .option('--journal <file>', 'the journal that makes a re-run resume (default: beside the report); one push at a time (it is locked)')
    .option(
      '--report <file>',
      'every record not imported, and why, one JSON object per line, appended after a line naming the run (default: <file>.push-report.ndjson here)',
    )
    .option('--dry-run', 'plan and pre-flight only: nothing is written to the core')
    .option('--verify-credentials <file>', 'lines of "email password" of known accounts: checked locally before, signed in after')
    .option('--json', 'end with one JSON object holding the summary counts')
    .option('--no-keep-ids', "do not map each user's core id to its id in the old system")
    .option('--no-verify-emails', 'do not verify in the core the emails the source marks verified')
    .option('--no-metadata', 'do not write the profile (name, photo, times, claims) into the user metadata')
    .addOption(
      new Option('--existing <policy>', 'a password user already in the core: left untouched, or its hash replaced')
        .choices(['skip', 'replace'])
        .default('skip'),
    );
  addConnectionOptions(addSourceOptions(command)).action(async (file: string, flags: PushFlags, self: Command) => {
    const output = new GuardedOutput(io);
    try {
      setExitCode(await push(file, flags, io, output, commandLineOf(self, file)));
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof OutputPathError)) throw error;
      io.stderr.write(printableLines(`core-migrate push: ${error.message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
    } finally {
      output.release();
    }
  });
};

/**
 * Standard output that may be closed under the push (`push ... | head`): the EPIPE is caught, stops the push as a
 * Ctrl-C would (what was sent is journalled), and nothing more is written to it. Every line goes through
 * `printableLines`, so no value from an export reaches the terminal raw.
 */
class GuardedOutput {
  readonly #io: CommandIO;
  #closed = false;
  #onClosed: (() => void) | undefined;
  readonly #onError = (error: NodeJS.ErrnoException): void => {
    if (this.#closed) return;
    this.#closed = true;
    const code = error.code ?? 'error';
    this.#io.stderr.write(
      `core-migrate push: the standard output was closed (${code}); nothing more is printed and the push stops as on Ctrl-C ` +
        '(operations in flight finish and are journalled). Run the same command again to resume.\n',
    );
    this.#onClosed?.();
  };

  constructor(io: CommandIO) {
    this.#io = io;
    io.stdout.on('error', this.#onError);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Called once when standard output goes away (at most one listener: the running push). */
  onClosed(listener: (() => void) | undefined): void {
    this.#onClosed = listener;
  }

  write(text: string): void {
    if (this.#closed || this.#io.stdout.destroyed) return;
    this.#io.stdout.write(printableLines(text));
  }

  /** Cursor controls of the progress line, which must not be escaped. */
  writeRaw(text: string): void {
    if (this.#closed || this.#io.stdout.destroyed) return;
    this.#io.stdout.write(text);
  }

  release(): void {
    this.#onClosed = undefined;
    // Left attached: a write still queued when the reader went away must not crash the process after the push.
    if (!this.#closed) this.#io.stdout.removeListener('error', this.#onError);
  }
}

async function push(file: string, flags: PushFlags, io: CommandIO, output: GuardedOutput, rawArgs: readonly string[]): Promise<number> {
  const say = (text: string): void => output.write(`${text}\n`);
  const warn = (text: string): void => void io.stderr.write(`${printableLines(text)}\n`);
  const sourcePath = resolve(io.cwd, file);
  const planOptions = await planOptionsFromFlags(flags, io.cwd);
  if (planOptions instanceof Error) throw new UsageError(planOptions.message);
  const limits = concurrencyFrom(flags.concurrency);
  const giveUpAfterMs = giveUpAfterFrom(flags.giveUpAfter);
  const reportPath = resolve(io.cwd, flags.report ?? `${basename(file)}.push-report.ndjson`);
  const journalPath = resolve(io.cwd, flags.journal ?? join(dirname(reportPath), `${basename(file)}.push-journal.ndjson`));
  const inputFiles: NamedFile[] = sourceFlagInputs(flags, io.cwd).filter((input) => input.role !== 'the Auth0 password-hash file');
  if (flags.verifyCredentials !== undefined) inputFiles.push({ role: 'the credentials file', path: resolve(io.cwd, flags.verifyCredentials) });
  if (flags.apiKeyFile !== undefined) inputFiles.push({ role: 'the api-key file', path: resolve(io.cwd, flags.apiKeyFile) });
  // Before anything is opened, read or sent: an output that names an input would destroy it.
  const outputs: NamedFile[] = [{ role: 'the report', path: reportPath }];
  if (flags.dryRun !== true) outputs.push({ role: 'the journal', path: journalPath });
  const refused = await checkOutputPaths(migrationInputs({ sourcePath, planOptions, inputFiles }), outputs);
  if (refused !== undefined) throw refused;
  const exposed = [
    { path: flags.apiKeyFile, holds: 'the api-key' },
    { path: flags.hashConfig, holds: 'the signer key' },
    { path: flags.verifyCredentials, holds: 'passwords of known accounts' },
  ];
  for (const warning of await exposedSecretWarnings(exposed, io.cwd)) warn(warning);
  const credentials = flags.verifyCredentials === undefined ? undefined : await readCredentials(resolve(io.cwd, flags.verifyCredentials));
  if (credentials instanceof Error) throw new UsageError(credentials.message);

  const connection = await connectionFromOptions(flags, io);
  if (connection instanceof Error) throw new UsageError(connection.message);
  for (const url of connection.coreUrls) {
    const clearText = plainHttpWarning(url);
    if (clearText !== undefined) warn(clearText);
  }
  const client = new CoreClient({
    baseUrl: connection.coreUrls,
    apiKey: connection.apiKey,
    ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
    ...(connection.appId === undefined ? {} : { appId: connection.appId }),
    connections: limits.max,
    redact: [planOptions.hashConfig?.signerKey],
  });
  try {
    const preflight = await runPreflight(client);
    if (!preflight.ok) {
      io.stderr.write(`core-migrate push: the pre-flight failed, nothing was sent. ${preflight.failure?.sentence ?? ''}\n`);
      return ExitCode.coreUnreachableOrKeyRefused;
    }
    say(`Core: ${preflight.target} is reachable and accepts the key.`);
    const support = await probeIdentityFeatures(client).catch((error: unknown) => {
      if (error instanceof IdentityProbeError) return error;
      throw error;
    });
    if (support instanceof IdentityProbeError) {
      io.stderr.write(printableLines(`core-migrate push: ${support.message}\n`));
      return ExitCode.coreUnreachableOrKeyRefused;
    }

    const sourceSnapshot = await snapshotOf(migrationSourceFiles(sourcePath, planOptions));
    const planned = await planSummary(sourcePath, planOptions);
    say(`Plan: ${planned.operations} operations from ${planned.records} records (${planned.rejected} rejected by the plan).`);
    const identity = identityOptionsFor(identityFlags(flags), support, planned.summary, preflight.target);
    if ('problem' in identity) {
      io.stderr.write(printableLines(`core-migrate push: ${identity.problem}\n`));
      return ExitCode.usageOrConfiguration;
    }
    if (planned.vendorScrypt > 0 && connection.signerKeyConfigured === false) {
      say('Warning: the stack says the core has no signer key; the first vendor_scrypt user will prove it, and the push stop.');
    }

    const final = await pushWithInterrupts(io, output, {
      sourcePath,
      planOptions,
      total: planned.operations,
      client,
      journalPath,
      reportPath,
      limits,
      giveUpAfterMs,
      dryRun: flags.dryRun === true,
      inputFiles,
      sourceSnapshot,
      identity: identity.options,
      ...(credentials === undefined ? {} : { credentials }),
    });
    if (final === undefined) return ExitCode.usageOrConfiguration;
    output.write(formatSummary(final));
    const resumable = final.stoppedEarly !== undefined && !notResumable.has(final.stoppedEarly.reason);
    if (resumable && final.notAttempted > 0) say(resumeHint(rawArgs, flags.journal === undefined ? journalPath : undefined));
    if (flags.json === true) output.write(`${printableJson(final)}\n`);
    return exitCodeOfPush(final);
  } finally {
    await client.close();
  }
}

/** Stops after which running the same command again would stop again the same way. */
const notResumable = new Set(['credentialsMismatch', 'journalNotOnCore', 'sourceChanged', 'outputFailed']);

async function snapshotOf(paths: string[]): Promise<FileSnapshot[]> {
  try {
    return await snapshotFiles(paths);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${paths.join(' or ')}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`}.`);
  }
}

function concurrencyFrom(value: string | undefined): typeof defaultConcurrencyLimits {
  if (value === undefined) return defaultConcurrencyLimits;
  const requested = Number(value);
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, not "${value}".`);
  }
  return concurrencyLimitsFor(requested);
}

function giveUpAfterFrom(value: string | undefined): number {
  if (value === undefined) return DEFAULT_GIVE_UP_AFTER_MS;
  const seconds = Number(value);
  const maxSeconds = MAX_GIVE_UP_AFTER_MS / 1000;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > maxSeconds) {
    throw new UsageError(`--give-up-after must be a whole number of seconds from 1 to ${maxSeconds}, not "${value}".`);
  }
  return seconds * 1000;
}

function identityFlags(flags: PushFlags): IdentityOptions {
  return IdentityOptionsSchema.parse({
    keepIds: flags.keepIds !== false,
    verifyEmails: flags.verifyEmails !== false,
    metadata: flags.metadata !== false,
    existing: flags.existing ?? 'skip',
  });
}

async function planSummary(
  sourcePath: string,
  options: PlanOptions,
): Promise<{ operations: number; records: number; rejected: number; vendorScrypt: number; summary: PlanSummary }> {
  try {
    const summary = await summarisePlan(sourcePath, options);
    return {
      operations: summary.operations,
      records: summary.records,
      rejected: summary.rejected,
      vendorScrypt: summary.byFamily.vendor_scrypt,
      summary,
    };
  } catch (error) {
    if (isSourceError(error)) throw new UsageError(error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${sourcePath}: no such file.`);
    throw error;
  }
}

interface PushRequest {
  sourcePath: string;
  planOptions: PlanOptions;
  total: number;
  client: CoreClient;
  journalPath: string;
  reportPath: string;
  limits: typeof defaultConcurrencyLimits;
  giveUpAfterMs: number;
  dryRun: boolean;
  inputFiles: NamedFile[];
  sourceSnapshot: FileSnapshot[];
  identity: IdentityOptions;
  credentials?: KnownCredential[];
}

/**
 * The first Ctrl-C stops taking new operations and lets those in flight finish and be journalled. The listener then
 * goes away, so a second Ctrl-C gets the default action and ends the process at once; every journal line written
 * until then was written synchronously, so the journal still holds.
 */
async function pushWithInterrupts(io: CommandIO, output: GuardedOutput, request: PushRequest): Promise<PushSummary | undefined> {
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
    return await runMigration({
      sourcePath: request.sourcePath,
      planOptions: request.planOptions,
      total: request.total,
      client: request.client,
      journalPath: request.journalPath,
      reportPath: request.reportPath,
      concurrency: request.limits,
      giveUpAfterMs: request.giveUpAfterMs,
      dryRun: request.dryRun,
      inputFiles: request.inputFiles,
      sourceSnapshot: request.sourceSnapshot,
      identity: request.identity,
      signal: interrupt.signal,
      onEvent: progress.onEvent,
      ...(request.credentials === undefined
        ? {}
        : { credentials: request.credentials, onCredentialChecks: (checks, stage) => output.write(formatCredentialChecks(checks, stage)) }),
    });
  } catch (error) {
    if (error instanceof JournalError || error instanceof OutputPathError || isSourceError(error)) {
      progress.end();
      io.stderr.write(printableLines(`core-migrate push: ${error.message}\n`));
      return undefined;
    }
    throw error;
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

/** The command line as the operator gave it (flags from the command line only), for the resume hint. */
function commandLineOf(self: Command, file: string): string[] {
  const args = ['push', file];
  for (const option of self.options) {
    const key = option.attributeName();
    if (option.long === undefined || self.getOptionValueSource(key) !== 'cli') continue;
    const value: unknown = self.getOptionValue(key);
    // `--no-keep-ids` and its kind store false.
    if (value === true || (value === false && option.negate)) args.push(option.long);
    else if (Array.isArray(value)) for (const item of value) args.push(option.long, String(item));
    else if (typeof value === 'string') args.push(option.long, value);
  }
  return args;
}

function resumeHint(commandLine: readonly string[], defaultJournal: string | undefined): string {
  const args = [...commandLine];
  if (defaultJournal !== undefined) args.push('--journal', defaultJournal);
  return `To resume, run: core-migrate ${args.map(shellQuote).join(' ')}\n(the journal skips what is done; nothing is sent twice).`;
}
