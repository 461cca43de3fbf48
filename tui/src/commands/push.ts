import { basename, dirname, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CoreClient } from 'core-client/http/core-client';
import { JournalError } from 'core-client/push/journal';
import { concurrencyLimitsFor, defaultConcurrencyLimits } from 'core-client/push/aimd';
import { isSourceError } from 'core-client/sources/source-error';
import { readCredentials, type KnownCredential } from 'core-client/push/credentials';
import { runPreflight } from 'core-client/connection/preflight';
import { runMigration } from 'core-client/push/migration';
import { summarisePlan } from 'core-client/plan';
import type { PlanOptions } from 'core-client/plan/plan-source';
import type { PlanSummary } from 'core-client/plan/summary';
import type { PushEvent } from 'core-client/push/events';
import type { PushSummary } from 'core-client/push/summary';
import { identityOptionsFor, probeIdentityFeatures } from 'core-client/identity/features';
import { IdentityOptionsSchema, type IdentityOptions } from 'core-client/identity/options';
import { ExitCode, exitCodeOfPush } from '../exit-codes.js';
import type { CommandIO } from '../io.js';
import { addConnectionOptions, connectionFromOptions, type ConnectionFlags } from './connection-options.js';
import { commandCatalogue } from './catalogue.js';
import type { RegisterCommand } from './index.js';
import { formatCredentialChecks, formatProgress, formatSummary, shellQuote } from './push-format.js';
import { addSourceOptions, planOptionsFromFlags, type SourceFlags } from './source-options.js';

interface PushFlags extends SourceFlags, ConnectionFlags {
  concurrency?: string;
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
    .option('--journal <file>', 'the journal that makes a re-run resume (default: beside the report)')
    .option('--report <file>', 'every record not imported, and why, one JSON object per line (default: <file>.push-report.ndjson here)')
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
    try {
      setExitCode(await push(file, flags, io, commandLineOf(self, file)));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.stderr.write(`core-migrate push: ${error.message}\n`);
      setExitCode(ExitCode.usageOrConfiguration);
    }
  });
};

async function push(file: string, flags: PushFlags, io: CommandIO, rawArgs: readonly string[]): Promise<number> {
  const say = (text: string): void => void io.stdout.write(`${text}\n`);
  const sourcePath = resolve(io.cwd, file);
  const planOptions = await planOptionsFromFlags(flags);
  if (planOptions instanceof Error) throw new UsageError(planOptions.message);
  const limits = concurrencyFrom(flags.concurrency);
  const reportPath = resolve(io.cwd, flags.report ?? `${basename(file)}.push-report.ndjson`);
  const journalPath = resolve(io.cwd, flags.journal ?? join(dirname(reportPath), `${basename(file)}.push-journal.ndjson`));
  const credentials = flags.verifyCredentials === undefined ? undefined : await readCredentials(resolve(io.cwd, flags.verifyCredentials));
  if (credentials instanceof Error) throw new UsageError(credentials.message);

  const connection = await connectionFromOptions(flags, io);
  if (connection instanceof Error) throw new UsageError(connection.message);
  const client = new CoreClient({
    baseUrl: connection.coreUrl,
    apiKey: connection.apiKey,
    ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
    ...(connection.appId === undefined ? {} : { appId: connection.appId }),
    connections: limits.max,
  });
  try {
    const preflight = await runPreflight(client);
    if (!preflight.ok) {
      io.stderr.write(`core-migrate push: the pre-flight failed, nothing was sent. ${preflight.failure?.sentence ?? ''}\n`);
      return ExitCode.coreUnreachableOrKeyRefused;
    }
    say(`Core: ${preflight.target} is reachable and accepts the key.`);
    const support = await probeIdentityFeatures(client);

    const planned = await planSummary(sourcePath, planOptions);
    say(`Plan: ${planned.operations} operations from ${planned.records} records (${planned.rejected} rejected by the plan).`);
    const identity = identityOptionsFor(identityFlags(flags), support, planned.summary, preflight.target);
    if ('problem' in identity) {
      io.stderr.write(`core-migrate push: ${identity.problem}\n`);
      return ExitCode.usageOrConfiguration;
    }
    if (planned.vendorScrypt > 0 && connection.signerKeyConfigured === false) {
      say('Warning: the stack says the core has no signer key; the first vendor_scrypt user will prove it, and the push stop.');
    }

    const final = await pushWithInterrupts(io, {
      sourcePath,
      planOptions,
      total: planned.operations,
      client,
      journalPath,
      reportPath,
      limits,
      dryRun: flags.dryRun === true,
      identity: identity.options,
      ...(credentials === undefined ? {} : { credentials }),
    });
    if (final === undefined) return ExitCode.usageOrConfiguration;
    io.stdout.write(formatSummary(final));
    const resumable = final.stoppedEarly !== undefined && final.stoppedEarly.reason !== 'credentialsMismatch';
    if (resumable && final.notAttempted > 0) say(resumeHint(rawArgs, flags.journal === undefined ? journalPath : undefined));
    if (flags.json === true) say(JSON.stringify(final));
    return exitCodeOfPush(final);
  } finally {
    await client.close();
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
  dryRun: boolean;
  identity: IdentityOptions;
  credentials?: KnownCredential[];
}

/**
 * The first Ctrl-C stops taking new operations and lets those in flight finish and be journalled. The listener then
 * goes away, so a second Ctrl-C gets the default action and ends the process at once; every journal line written
 * until then was written synchronously, so the journal still holds.
 */
async function pushWithInterrupts(io: CommandIO, request: PushRequest): Promise<PushSummary | undefined> {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    io.stderr.write('\nStopping: no new operations; waiting for those in flight (Ctrl-C again to quit at once, the journal holds).\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  const progress = progressPrinter(io);
  try {
    return await runMigration({
      sourcePath: request.sourcePath,
      planOptions: request.planOptions,
      total: request.total,
      client: request.client,
      journalPath: request.journalPath,
      reportPath: request.reportPath,
      concurrency: request.limits,
      dryRun: request.dryRun,
      identity: request.identity,
      signal: interrupt.signal,
      onEvent: progress.onEvent,
      ...(request.credentials === undefined
        ? {}
        : { credentials: request.credentials, onCredentialChecks: (checks, stage) => io.stdout.write(formatCredentialChecks(checks, stage)) }),
    });
  } catch (error) {
    if (error instanceof JournalError || isSourceError(error)) {
      progress.end();
      io.stderr.write(`core-migrate push: ${error.message}\n`);
      return undefined;
    }
    throw error;
  } finally {
    progress.end();
    process.removeListener('SIGINT', onSigint);
  }
}

function progressPrinter(io: CommandIO): { onEvent: (event: PushEvent) => void; end: () => void } {
  const tty = io.stdout.isTTY === true;
  let lastPlainAt = Number.NEGATIVE_INFINITY;
  let lineOpen = false;
  const endLine = (): void => {
    if (lineOpen) io.stdout.write('\n');
    lineOpen = false;
  };
  const onEvent = (event: PushEvent): void => {
    switch (event.type) {
      case 'progress': {
        if (tty) {
          io.stdout.write(`\r${formatProgress(event).slice(0, Math.max(20, (io.stdout.columns ?? 120) - 1))}\u001b[K`);
          lineOpen = true;
        } else if (performance.now() - lastPlainAt >= PLAIN_PROGRESS_EVERY_MS) {
          lastPlainAt = performance.now();
          io.stdout.write(`${formatProgress(event)}\n`);
        }
        return;
      }
      case 'probe':
        endLine();
        io.stdout.write(`${event.message}\n`);
        return;
      case 'stopping':
        endLine();
        io.stdout.write(`Stopping (${event.reason}): ${event.message}\n`);
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
