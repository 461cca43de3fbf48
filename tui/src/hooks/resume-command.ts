import { closeSync, writeSync } from 'node:fs';
import { checkOutputPaths, openOutputFile, OutputPathError, type NamedFile } from 'core-client/files/output-paths';
import { migrationInputs, type RunMigrationOptions } from 'core-client/push/migration';
import type { WalkState } from '../screens/walk-state.js';
import { shellQuote } from '../commands/push-format.js';
import type { HashConfigState } from './plan-request.js';

/** Where the app keeps the hashing parameters a resume needs: beside the journal, WITHOUT the signer key. */
export function hashParametersPath(journalPath: string): string {
  return `${journalPath}.hash-config.json`;
}

/** The run the saved parameters belong to: what it reads (no output may be one of those) and its own outputs. */
export type SavedParametersRun = Pick<RunMigrationOptions, 'sourcePath' | 'planOptions' | 'inputFiles'> & { outputs: NamedFile[] };

/**
 * The headless command reads the scrypt parameters from a file, and the operator typed or pasted them here,
 * so they are saved for the resume command. Only mem_cost, rounds and the salt separator: the signer key is
 * a secret, and an import does not need it (the core holds it).
 */
export async function saveHashParameters(hashConfig: HashConfigState, journalPath: string, run?: SavedParametersRun): Promise<OutputPathError | undefined> {
  if (hashConfig.state !== 'parsed') return undefined;
  const { memCost, rounds, saltSeparator } = hashConfig.config;
  const parameters = { mem_cost: memCost, rounds, base64_salt_separator: saltSeparator };
  const target: NamedFile = { role: 'the saved hash parameters', path: hashParametersPath(journalPath) };
  // Like every output: never an input of the run or one of its other outputs (also through a link), never through a
  // symbolic link, only a regular file, created owner-only. A refusal is returned, not thrown, before anything is opened.
  if (run !== undefined) {
    const refused = await checkOutputPaths(migrationInputs(run), [...run.outputs, target]);
    if (refused !== undefined) return refused;
  }
  try {
    const fd = openOutputFile(target, { append: false });
    try {
      writeSync(fd, `${JSON.stringify(parameters, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    if (error instanceof OutputPathError) return error;
    throw error;
  }
}

/** The headless command that continues this push from its journal; the api-key stays in CORE_API_KEY or the stack. */
export function resumeCommandFor(state: WalkState, hashConfig: HashConfigState, journalPath: string, reportPath: string, sourcePath: string): string {
  const parts = ['core-migrate', 'push', shellQuote(sourcePath)];
  const { connect } = state;
  if (connect.stack !== '') parts.push('--stack', shellQuote(connect.stack));
  else if (state.preflight.state === 'done') parts.push('--core', shellQuote(state.preflight.value.core.coreUrl));
  if (connect.tenant.trim() !== '') parts.push('--tenant', shellQuote(connect.tenant.trim()));
  if (connect.app.trim() !== '') parts.push('--app', shellQuote(connect.app.trim()));
  if (state.source.format !== 'auto') parts.push('--format', state.source.format);
  if (hashConfig.state === 'parsed') parts.push('--hash-config', shellQuote(hashParametersPath(journalPath)));
  for (const rule of state.hashes.prefixRules) parts.push('--strip-prefix', shellQuote(rule));
  parts.push('--concurrency', state.review.concurrency.trim(), '--journal', shellQuote(journalPath), '--report', shellQuote(reportPath));
  return parts.join(' ');
}
