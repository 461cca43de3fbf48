import { closeSync } from 'node:fs';
import { checkOutputPaths, openOutputFile, OutputPathError, writeFully, type NamedFile } from '../files/output-paths.js';
import type { HashConfig } from '../hashes/hash-config.js';
import { resolveRunPaths } from '../settings/run-paths.js';
import { runProblem, type SettingProblem } from '../settings/setting-problem.js';
import type { MigrationSettings } from '../settings/settings.js';

/** Where the app keeps the hashing parameters a resume needs: beside the journal, WITHOUT the signer key. */
export function savedHashParametersPath(journalPath: string): string {
  return `${journalPath}.hash-config.json`;
}

/**
 * The headless command reads the scrypt parameters from a file, and the operator typed or pasted them, so they are
 * saved for the command that resumes. Only mem_cost, rounds and the salt separator: the signer key is a secret, and
 * an import does not need it (the core holds its own). Written like every output: never an input of the run or one
 * of its other outputs (also through a link), never through a symbolic link, created owner-only.
 */
export async function saveHashParameters(config: HashConfig, settings: MigrationSettings, cwd: string): Promise<string | SettingProblem> {
  const paths = resolveRunPaths(settings, cwd);
  const target: NamedFile = { role: 'savedHashParameters', path: savedHashParametersPath(paths.journalPath) };
  const inputs: NamedFile[] = [{ role: 'export', path: paths.sourcePath }, ...paths.inputs];
  const outputs: NamedFile[] = [{ role: 'report', path: paths.reportPath }];
  if (!settings.dryRun) outputs.push({ role: 'journal', path: paths.journalPath });
  const refused = await checkOutputPaths(inputs, [...outputs, target]);
  if (refused !== undefined) return refusedBesideJournal(refused);
  try {
    const fd = openOutputFile(target, { append: false });
    try {
      writeFully(fd, `${JSON.stringify({ mem_cost: config.memCost, rounds: config.rounds, base64_salt_separator: config.saltSeparator }, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    return target.path;
  } catch (error) {
    if (error instanceof OutputPathError) return refusedBesideJournal(error);
    throw error;
  }
}

/** The parameters are saved beside the journal, so the journal's setting is the one that moves them elsewhere. */
function refusedBesideJournal(refused: OutputPathError): SettingProblem {
  return refused.setting === undefined ? runProblem('outputRefused', 'setting', refused.words, 'journal') : refused;
}
