import { snapshotFiles, type FileSnapshot } from '../files/file-snapshot.js';
import { planSource, type PlanOptions } from '../plan/plan-source.js';
import { PlanTally, type PlanSummary } from '../plan/summary.js';
import { isSourceError } from '../sources/source-error.js';
import { migrationSourceFiles } from '../push/migration.js';
import { settingProblem, type SettingProblem } from '../settings/setting-problem.js';
import { Problem } from '../problem.js';
import type { SettingKey } from '../settings/settings.js';

/** A plan counted before a push: what it was counted with, and the files as they were when the count began. */
export interface CountedPlan {
  key: string;
  summary: PlanSummary;
  snapshot: FileSnapshot[];
}

/**
 * Equal for plans that read the same files with the same options; never holds a secret (the signer key is left out:
 * it changes no planned operation).
 */
export function planKeyOf(sourcePath: string, options: PlanOptions): string {
  // The database snapshot is the run's reading of the source, not how it is read.
  const { hashConfig, prefixRules, database: _reading, ...rest } = options;
  return JSON.stringify({
    sourcePath,
    ...rest,
    hash: hashConfig === undefined ? null : [hashConfig.memCost, hashConfig.rounds, hashConfig.saltSeparator],
    prefixes: (prefixRules ?? []).map((rule) => [rule.name, String(rule.match)]),
  });
}

export interface CountOptions {
  signal?: AbortSignal;
  /** Called a few times a second with the count so far (records read, operations planned). */
  onProgress?: (progress: { records: number; operations: number }) => void;
  progressIntervalMs?: number;
}

/**
 * Reads the whole plan once and counts it, as both faces do before a push (the push needs its total for progress and
 * for the sum in its summary). The files are looked at first, so a change between the count and the push stops it.
 * Yields to the event loop between batches, so a screen stays live over a big file.
 */
export async function countPlan(sourcePath: string, options: PlanOptions, count: CountOptions = {}): Promise<CountedPlan | SettingProblem> {
  const interval = count.progressIntervalMs ?? 100;
  const snapshot = await snapshotOfSource(sourcePath, options);
  if (snapshot instanceof Problem) return snapshot;
  const tally = new PlanTally(options.roles?.from);
  let operations = 0;
  let reportedAt = performance.now();
  try {
    for await (const record of planSource(sourcePath, options)) {
      count.signal?.throwIfAborted();
      tally.addRecord(record);
      operations += record.items.length;
      if (count.onProgress !== undefined && performance.now() - reportedAt >= interval) {
        reportedAt = performance.now();
        count.onProgress({ records: tally.records, operations });
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    if (isSourceError(error)) return error;
    throw error;
  }
  count.onProgress?.({ records: tally.records, operations });
  return { key: planKeyOf(sourcePath, options), summary: tally.summary(), snapshot };
}

/** The export's files as they are now (a change after this stops the run), or the setting naming the one missing. */
export async function snapshotOfSource(sourcePath: string, options: PlanOptions): Promise<FileSnapshot[] | SettingProblem> {
  try {
    return await snapshotFiles(await migrationSourceFiles(sourcePath, options));
  } catch (error) {
    const failed = error as NodeJS.ErrnoException;
    const setting: SettingKey = failed.path === options.auth0PasswordFile ? 'auth0PasswordFile' : 'file';
    return settingProblem(
      failed.code === 'ENOENT' ? 'fileMissing' : 'fileUnreadable',
      setting,
      `{setting} ${failed.path ?? sourcePath}: ${failed.code === 'ENOENT' ? 'no such file' : `cannot be read (${failed.code ?? 'error'})`}.`,
    );
  }
}
