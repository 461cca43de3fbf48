/** Every export format a reader exists for; `--format` takes one of these names. */
export const sourceFormats = [
  'firebase-json',
  'firebase-csv',
  'auth0',
  'ndjson',
  'json-array',
  'csv',
  'cognito-json',
  'cognito-csv',
  'clerk',
  'keycloak',
  'okta',
  /** Supabase's `auth.users` (and `auth.identities`): its database by URL, or a CSV or JSON file of the rows. */
  'supabase',
  /** Better Auth's user and account tables: its database by URL, or a SQLite file. */
  'better-auth',
] as const;
export type SourceFormat = (typeof sourceFormats)[number];

export function isSourceFormat(value: string): value is SourceFormat {
  return (sourceFormats as readonly string[]).includes(value);
}
