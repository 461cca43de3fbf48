import { readFile, stat } from 'node:fs/promises';
import { readCredentials, parseRolesFile } from 'core-client';
import { plainHttpWarning, checkOutputPaths, type NamedFile } from 'core-client/files';
import { readOldSystemSettings } from 'core-client/login-time';
import { exposedFileWarnings, hashConfigOf } from 'core-client/run';
import {
  describeProblem,
  isPostgresUrl,
  Problem,
  resolveRunPaths,
  roleOfSetting,
  settingOfRole,
  type MigrationSettings,
  type SettingKey,
} from 'core-client/settings';

/** Settings naming a file the run reads; the export's own problems come from reading it. */
const inputSettings = [
  'file',
  'auth0PasswordFile',
  'mapping',
  'hashConfig',
  'verifyCredentials',
  'apiKeyFile',
  'caFile',
  'rolesFile',
] as const satisfies readonly SettingKey[];
export const checkedSettings: readonly SettingKey[] = [...inputSettings, 'verifyWith', 'journal', 'report'];

async function inputProblem(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? `${path} is a folder, not a file` : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${path}: no such file` : `${path} cannot be read (${code ?? 'error'})`;
  }
}

/**
 * What is wrong with each file a setting names, found as it is entered rather than after the confirmation: an input
 * that is missing or does not parse, an output that cannot be written or would overwrite an input.
 */
export async function checkSettingFiles(
  settings: MigrationSettings,
  cwd: string,
): Promise<{ problems: Partial<Record<SettingKey, string>>; warnings: string[] }> {
  const problems: Partial<Record<SettingKey, string>> = {};
  const paths = resolveRunPaths(settings, cwd);
  const inputs: NamedFile[] = settings.file === undefined ? [...paths.inputs] : [{ role: 'export', path: paths.sourcePath }, ...paths.inputs];
  for (const key of inputSettings) {
    const path =
      key === 'file'
        ? // A database's URL is no file: reading it says what is wrong with it.
          settings.file === undefined || isPostgresUrl(settings.file)
          ? undefined
          : paths.sourcePath
        : paths.inputs.find((input) => input.role === roleOfSetting(key))?.path;
    if (path === undefined) continue;
    const problem = await inputProblem(path);
    if (problem !== undefined) problems[key] = problem;
  }
  if (problems.hashConfig === undefined && settings.hashConfig !== undefined) {
    const parsed = await hashConfigOf(settings, cwd);
    if (parsed instanceof Problem) problems.hashConfig = describeProblem(parsed, 'app');
  }
  if (settings.verifyWith !== undefined) {
    // Read as the plan and the service read it: a file missing or not naming an old system says so on its field.
    const oldSystem = await readOldSystemSettings(settings.verifyWith, cwd);
    if (oldSystem instanceof Problem) problems.verifyWith = describeProblem(oldSystem, 'app');
  }
  const credentials = paths.inputs.find((input) => input.role === 'credentials');
  if (problems.verifyCredentials === undefined && credentials !== undefined) {
    const read = await readCredentials(credentials.path);
    if (read instanceof Problem) problems.verifyCredentials = describeProblem(read, 'app');
  }
  const rolesFile = paths.inputs.find((input) => input.role === 'rolesFile');
  if (problems.rolesFile === undefined && rolesFile !== undefined) {
    const parsed = parseRolesFile(await readFile(rolesFile.path, 'utf8').catch(() => ''), rolesFile.path);
    if (parsed instanceof Problem) problems.rolesFile = describeProblem(parsed, 'app');
  }
  if (settings.file !== undefined) {
    const outputs: NamedFile[] = [{ role: 'report', path: paths.reportPath }];
    if (!settings.dryRun) outputs.push({ role: 'journal', path: paths.journalPath });
    const refused = await checkOutputPaths(inputs, outputs);
    const setting = refused === undefined ? undefined : settingOfRole(refused.role);
    if (refused !== undefined && setting !== undefined) problems[setting] = describeProblem(refused, 'app');
  }
  return { problems, warnings: await exposureWarnings(settings, cwd) };
}

/** What push warns of too, before anything is sent: secret files others can read, a key that would travel in clear. */
async function exposureWarnings(settings: MigrationSettings, cwd: string): Promise<string[]> {
  const clearText = settings.core.map((url) => plainHttpWarning(url)).filter((warning): warning is string => warning !== undefined);
  return [...(await exposedFileWarnings(resolveRunPaths(settings, cwd))), ...clearText];
}
