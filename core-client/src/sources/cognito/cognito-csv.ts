import { optional } from '../../optional.js';
import { readCsvRows } from '../csv/csv-rows.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { cognitoSourceUser } from './cognito-user.js';

/** The column every Cognito user-import CSV has (`get-csv-header`), and by which it is told from other CSV. */
export const COGNITO_USERNAME_COLUMN = 'cognito:username';
/** Not in Cognito's template: the user's groups, comma-separated, where the tool that wrote the file adds them. */
const GROUPS_COLUMN = 'cognito:groups';

export function isCognitoCsvHeader(header: readonly string[]): boolean {
  return header.some((column) => column.trim() === COGNITO_USERNAME_COLUMN);
}

function groupsOf(text: string | undefined): string[] | undefined {
  const groups = (text ?? '')
    .split(',')
    .map((group) => group.trim())
    .filter((group) => group !== '');
  return groups.length === 0 ? undefined : groups;
}

/**
 * The CSV layout of Cognito's user-import template (`aws cognito-idp get-csv-header`: `name`, `given_name`, …,
 * `email`, `email_verified`, `phone_number`, …, `cognito:mfa_enabled`, `cognito:username`, then `custom:*`), which
 * pool backup tools also write, some with a `sub` column.
 */
export async function* readCognitoCsv(file: string): AsyncGenerator<SourceRecord> {
  let header: string[] | undefined;
  for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
    if (header === undefined) {
      if (row.kind === 'row-error') throw new SourceError('wrong-format', { file, line: row.line }, `the header row cannot be read: ${row.reason}`);
      header = row.fields.map((column) => column.trim());
      if (!isCognitoCsvHeader(header)) {
        throw new SourceError('wrong-format', { file, line: row.line }, `the header row has no "${COGNITO_USERNAME_COLUMN}" column: not a Cognito user CSV`);
      }
      continue;
    }
    const location = { file, line: row.line };
    if (row.kind === 'row-error') {
      yield { kind: 'malformed', location, reason: row.reason };
      continue;
    }
    if (row.fields.length !== header.length) {
      yield { kind: 'malformed', location, reason: `the row has ${row.fields.length} fields, the header has ${header.length}` };
      continue;
    }
    const attributes = new Map<string, string>();
    header.forEach((column, position) => {
      if (!attributes.has(column)) attributes.set(column, row.fields[position] ?? '');
    });
    const username = attributes.get(COGNITO_USERNAME_COLUMN)?.trim() ?? '';
    if (username === '') {
      yield {
        kind: 'malformed',
        location: { ...location, field: COGNITO_USERNAME_COLUMN },
        reason: `field "${COGNITO_USERNAME_COLUMN}": the username is empty`,
      };
      continue;
    }
    const groups = groupsOf(attributes.get(GROUPS_COLUMN));
    yield cognitoSourceUser({ username, attributes, fieldOf: (column) => column, ...optional('groups', groups) }, location);
  }
}
