/** The files a run reads or writes, by identifier; a sentence names each by its words in `fileRoleWords`. */
export const fileRoles = [
  'export',
  'auth0PasswordFile',
  'hashConfig',
  'mapping',
  'rolesFile',
  'credentials',
  'apiKeyFile',
  'caFile',
  'report',
  'journal',
  'journalLock',
  'rolesRecord',
  'rollbackRecord',
  'savedHashParameters',
  'waitingList',
  'waitingStore',
] as const;
export type FileRole = (typeof fileRoles)[number];

/** The setting each file a setting names comes from (keys of the settings table), so a refusal leads to the fix. */
export const settingOfFile = {
  export: 'file',
  auth0PasswordFile: 'auth0PasswordFile',
  hashConfig: 'hashConfig',
  mapping: 'mapping',
  rolesFile: 'rolesFile',
  credentials: 'verifyCredentials',
  apiKeyFile: 'apiKeyFile',
  caFile: 'caFile',
  report: 'report',
  journal: 'journal',
} as const satisfies Partial<Record<FileRole, string>>;
export type FileSetting = (typeof settingOfFile)[keyof typeof settingOfFile];

const settingOfEveryRole: Partial<Record<FileRole, FileSetting>> = settingOfFile;

/** The setting behind a file, when the file is one a setting names. */
export function settingOfRole(role: FileRole | undefined): FileSetting | undefined {
  return role === undefined ? undefined : settingOfEveryRole[role];
}

export const fileRoleWords: Record<FileRole, string> = {
  export: 'the export',
  auth0PasswordFile: 'the Auth0 password-hash file',
  hashConfig: 'the hash-config file',
  mapping: 'the mapping file',
  rolesFile: 'the roles file',
  credentials: 'the credentials file',
  apiKeyFile: 'the api-key file',
  caFile: 'the CA file',
  report: 'the report',
  journal: 'the journal',
  journalLock: 'the journal lock',
  rolesRecord: 'the roles record',
  rollbackRecord: 'the rollback record',
  savedHashParameters: 'the saved hash parameters',
  waitingList: 'the waiting list',
  waitingStore: 'the waiting store',
};
