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
] as const;
export type SourceFormat = (typeof sourceFormats)[number];

export function isSourceFormat(value: string): value is SourceFormat {
  return (sourceFormats as readonly string[]).includes(value);
}
