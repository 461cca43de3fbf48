import { basename, dirname, join, resolve } from 'node:path';
import type { NamedFile } from '../files/output-paths.js';
import type { MigrationSettings, SettingKey } from './settings.js';

/** The files of a run, resolved against the folder the command runs in. */
export interface RunPaths {
  sourcePath: string;
  reportPath: string;
  journalPath: string;
  /** Every file the run reads besides the export (nothing may be written over them), named by role. */
  inputs: NamedFile[];
}

/** The default report: named after the export, in the folder the command runs in (the export's may be read-only). */
export function defaultReportName(file: string): string {
  return `${basename(file)}.push-report.ndjson`;
}

export function defaultJournalName(file: string): string {
  return `${basename(file)}.push-journal.ndjson`;
}

/** The roles under which a run names its files, and the setting each comes from (so a refusal can name the fix). */
export const fileRoles = {
  'the export': 'file',
  'the Auth0 password-hash file': 'auth0PasswordFile',
  'the hash-config file': 'hashConfig',
  'the mapping file': 'mapping',
  'the roles file': 'rolesFile',
  'the credentials file': 'verifyCredentials',
  'the api-key file': 'apiKeyFile',
  'the CA file': 'caFile',
  'the report': 'report',
  'the journal': 'journal',
} as const satisfies Record<string, SettingKey>;
export type FileRole = keyof typeof fileRoles;

/**
 * One rule for both faces: the report defaults to `<export>.push-report.ndjson` in the command's folder, the journal
 * to `<export>.push-journal.ndjson` beside the report.
 */
export function resolveRunPaths(settings: MigrationSettings, cwd: string): RunPaths {
  const file = settings.file ?? '';
  const sourcePath = resolve(cwd, file);
  const reportPath = resolve(cwd, settings.report ?? defaultReportName(file));
  const journalPath = resolve(cwd, settings.journal ?? join(dirname(reportPath), defaultJournalName(file)));
  const inputs: NamedFile[] = [];
  const add = (role: FileRole, path: string | undefined): void => {
    if (path !== undefined) inputs.push({ role, path: resolve(cwd, path) });
  };
  add('the Auth0 password-hash file', settings.auth0PasswordFile);
  add('the hash-config file', settings.hashConfig);
  add('the mapping file', settings.mapping);
  add('the roles file', settings.rolesFile);
  add('the credentials file', settings.verifyCredentials);
  add('the api-key file', settings.apiKeyFile);
  add('the CA file', settings.caFile);
  return { sourcePath, reportPath, journalPath, inputs };
}

/** The setting behind a file role, when the role is one of a run's. */
export function settingOfRole(role: string): SettingKey | undefined {
  return Object.hasOwn(fileRoles, role) ? fileRoles[role as FileRole] : undefined;
}

/** The role under which a run names the file a setting points to. */
export function roleOfSetting(key: SettingKey): FileRole | undefined {
  return (Object.keys(fileRoles) as FileRole[]).find((role) => fileRoles[role] === key);
}
