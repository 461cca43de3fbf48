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
] as const;
export type FileRole = (typeof fileRoles)[number];

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
};
