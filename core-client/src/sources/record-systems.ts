import type { SourceFormat } from './source-format.js';

/** One system's user record, told by keys only that system writes, and the format that reads it. */
interface RecordShape {
  system: string;
  format: SourceFormat;
  matches(record: Record<string, unknown>): boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const has = (record: Record<string, unknown>, key: string): boolean => Object.hasOwn(record, key);

const shapes: readonly RecordShape[] = [
  { system: 'Firebase', format: 'firebase-json', matches: (record) => has(record, 'localId') },
  { system: 'Auth0', format: 'auth0', matches: (record) => has(record, 'user_id') || (has(record, '_id') && has(record, 'passwordHash')) },
  { system: 'AWS Cognito', format: 'cognito-json', matches: (record) => has(record, 'Username') && (has(record, 'Attributes') || has(record, 'UserStatus')) },
  {
    system: 'Okta',
    format: 'okta',
    matches: (record) => typeof record['status'] === 'string' && isPlainObject(record['profile']) && typeof record['profile']['login'] === 'string',
  },
  {
    system: 'Keycloak',
    format: 'keycloak',
    matches: (record) =>
      typeof record['username'] === 'string' && ['createdTimestamp', 'credentials', 'realmRoles', 'federatedIdentities'].some((key) => has(record, key)),
  },
];

/** The system a JSON user record is of, when its keys tell (never from its values): for a sentence about a wrong file. */
export function systemOfRecord(value: unknown): { system: string; format: SourceFormat } | undefined {
  if (!isPlainObject(value)) return undefined;
  const shape = shapes.find((candidate) => candidate.matches(value));
  return shape === undefined ? undefined : { system: shape.system, format: shape.format };
}

/**
 * The sentence for a record of another system than the reader's: which it looks like, and the format that reads it.
 * Undefined when the record looks like no system's (it is then refused for its first missing field).
 */
export function otherSystemReason(value: unknown, reader: string): string | undefined {
  const other = systemOfRecord(value);
  if (other === undefined || other.system === reader) return undefined;
  return `this is ${withArticle(other.system)} user, not ${withArticle(reader)} one (read ${other.system} exports with --format ${other.format})`;
}

const withArticle = (name: string): string => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
