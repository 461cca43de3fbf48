import { OutputPathError } from '../files/output-paths.js';
import type { PushControl } from '../push/control.js';
import type { CredentialCheck } from '../push/credentials.js';
import type { PushEventListener } from '../push/events.js';
import { JournalError } from '../push/journal.js';
import { runMigration } from '../push/migration.js';
import type { PushSummary } from '../push/summary.js';
import { isSourceError } from '../sources/source-error.js';
import { sourceSettingError } from './count-plan.js';
import { commandLineOf } from './command-line.js';
import type { PreparedMigration } from './prepare-migration.js';
import { settingOfRole } from './run-paths.js';
import { RunSetupError } from './run-setup-error.js';
import type { MigrationSettings } from './settings.js';
import { ExitCode } from './verdict.js';

export interface RunControls {
  /** Stop taking new operations; those in flight finish and are journalled (the first Ctrl-C, the app's q). */
  signal?: AbortSignal;
  /** Abandon the requests in flight too. */
  abandonSignal?: AbortSignal;
  control?: PushControl;
  onEvent?: PushEventListener;
  onCredentialChecks?: (checks: CredentialCheck[], stage: 'local' | 'signIn') => void;
}

/**
 * Pushes a prepared run: the known accounts checked locally, the plan streamed to the core, the accounts signed in.
 * A journal or output that fails, or an export that cannot be read as a whole, ends it with a `RunSetupError`.
 */
export async function runPrepared(prepared: PreparedMigration, controls: RunControls = {}): Promise<PushSummary | RunSetupError> {
  try {
    return await runMigration({
      sourcePath: prepared.paths.sourcePath,
      planOptions: prepared.planOptions,
      // A sync's count is the delta's, known only once the export is read.
      ...(prepared.command === 'sync' ? { sync: { deleted: prepared.settings.deleted } } : {}),
      ...(prepared.planned === undefined || prepared.command === 'sync' ? {} : { total: prepared.planned.summary.operations }),
      client: prepared.client,
      journalPath: prepared.paths.journalPath,
      reportPath: prepared.paths.reportPath,
      concurrency: prepared.limits,
      ...(prepared.settings.giveUpAfter === undefined ? {} : { giveUpAfterMs: prepared.settings.giveUpAfter * 1000 }),
      dryRun: prepared.settings.dryRun,
      inputFiles: prepared.inputFiles,
      sourceSnapshot: prepared.snapshot,
      identity: prepared.identity,
      ...(prepared.credentials === undefined ? {} : { credentials: prepared.credentials }),
      ...controls,
    });
  } catch (error) {
    if (error instanceof JournalError) return RunSetupError.sentence(ExitCode.usageOrConfiguration, error.message, 'journal');
    if (error instanceof OutputPathError) return RunSetupError.sentence(ExitCode.usageOrConfiguration, error.message, settingOfRole(error.role ?? ''));
    if (isSourceError(error)) return RunSetupError.of(sourceSettingError(error, prepared.planOptions));
    throw error;
  }
}

/**
 * The settings that run this push again from its journal: the same settings with the journal named, so the command
 * finds it from any folder. The resume command both faces print is `commandLineOf` of these.
 */
export function resumeSettings(prepared: Pick<PreparedMigration, 'settings' | 'paths' | 'command'>): MigrationSettings {
  return { ...prepared.settings, journal: prepared.settings.journal ?? prepared.paths.journalPath };
}

/** The command line that resumes (or repeats) a prepared run. */
export function resumeCommandLine(prepared: Pick<PreparedMigration, 'settings' | 'paths' | 'command'>): string[] {
  return commandLineOf(resumeSettings(prepared), prepared.command);
}
