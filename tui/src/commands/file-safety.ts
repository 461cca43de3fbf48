import { resolve } from 'node:path';
import { readableByOthersWarning } from 'core-client/files/exposure-warnings';
import type { NamedFile } from 'core-client/files/output-paths';
import type { SourceFlags } from './source-options.js';

/** The files a source's flags name besides the export (nothing may be written over them). */
export function sourceFlagInputs(flags: SourceFlags, cwd: string): NamedFile[] {
  const files: NamedFile[] = [];
  if (flags.auth0PasswordFile !== undefined) files.push({ role: 'the Auth0 password-hash file', path: resolve(cwd, flags.auth0PasswordFile) });
  if (flags.hashConfig !== undefined) files.push({ role: 'the hash-config file', path: resolve(cwd, flags.hashConfig) });
  if (flags.mapping !== undefined) files.push({ role: 'the mapping file', path: resolve(cwd, flags.mapping) });
  return files;
}

/** Warnings for secret-holding files that other users of the machine can read. */
export async function exposedSecretWarnings(files: readonly { path: string | undefined; holds: string }[], cwd: string): Promise<string[]> {
  const warnings: string[] = [];
  for (const file of files) {
    if (file.path === undefined) continue;
    const warning = await readableByOthersWarning(resolve(cwd, file.path), file.holds);
    if (warning !== undefined) warnings.push(warning);
  }
  return warnings;
}
