import { basename, dirname, join, resolve } from 'node:path';
import { fileRoles, settingOfRole, type FileRole } from '../files/file-roles.js';
import type { NamedFile } from '../files/output-paths.js';
import { resolveStoreLocation } from '../login-time/store/open-store.js';
import { databaseFileStem, isPostgresUrl } from '../sources/database/postgres-url.js';
import type { MigrationSettings, SettingKey } from './settings.js';

/** The files of a run, resolved against the folder the command runs in. */
export interface RunPaths {
  sourcePath: string;
  reportPath: string;
  journalPath: string;
  /** The login-time migration's waiting store: a SQLite file's absolute path, or the `postgresql://` URL as given. */
  loginTimeStore: string | undefined;
  /** Every file the run reads besides the export (nothing may be written over them), named by role. */
  inputs: NamedFile[];
}

/** Where the export is: a database's URL as given, a file's path from the folder the command runs in. */
export function resolveSourceLocation(file: string, cwd: string): string {
  return isPostgresUrl(file) ? file : resolve(cwd, file);
}

/** What a run's files are named after: the export file's name, or a database's host and name (never its URL). */
function exportStem(file: string): string {
  return isPostgresUrl(file) ? databaseFileStem(file) : basename(file);
}

/** The default report: named after the export, in the folder the command runs in (the export's may be read-only). */
export function defaultReportName(file: string): string {
  return `${exportStem(file)}.push-report.ndjson`;
}

export function defaultJournalName(file: string): string {
  return `${exportStem(file)}.push-journal.ndjson`;
}

/**
 * One rule for both faces: the report defaults to `<export>.push-report.ndjson` in the command's folder, the journal
 * to `<export>.push-journal.ndjson` beside the report.
 */
export function resolveRunPaths(settings: MigrationSettings, cwd: string): RunPaths {
  const file = settings.file ?? '';
  const sourcePath = resolveSourceLocation(file, cwd);
  const reportPath = resolve(cwd, settings.report ?? defaultReportName(file));
  const journalPath = resolve(cwd, settings.journal ?? join(dirname(reportPath), defaultJournalName(file)));
  const inputs: NamedFile[] = [];
  const add = (role: FileRole, path: string | undefined): void => {
    if (path !== undefined) inputs.push({ role, path: resolve(cwd, path) });
  };
  add('auth0PasswordFile', settings.auth0PasswordFile);
  add('hashConfig', settings.hashConfig);
  add('mapping', settings.mapping);
  add('rolesFile', settings.rolesFile);
  add('credentials', settings.verifyCredentials);
  add('apiKeyFile', settings.apiKeyFile);
  add('caFile', settings.caFile);
  const loginTime = settings.loginTime;
  const loginTimeStore = loginTime === undefined ? undefined : resolveStoreLocation(loginTime, cwd);
  return { sourcePath, reportPath, journalPath, loginTimeStore, inputs };
}

/** The file a setting names, when it names one. */
export function roleOfSetting(key: SettingKey): FileRole | undefined {
  return fileRoles.find((role) => settingOfRole(role) === key);
}
