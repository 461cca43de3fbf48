import { readCsvRows } from '../csv/csv-rows.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { optional } from '../../optional.js';
import { type FirebaseProviderInfo, firebaseSourceUser } from './firebase-user.js';

/** Profile columns as the Firebase CLI documents its CSV; disabled state and custom claims are JSON-only. */
const column = {
  localId: 0,
  email: 1,
  emailVerified: 2,
  passwordHash: 3,
  salt: 4,
  displayName: 5,
  photoUrl: 6,
  createdAt: 23,
  lastSignedInAt: 24,
  phoneNumber: 25,
} as const;

/** Each provider has four columns (rawId, email, displayName, photoUrl), at a fixed place. */
const providerColumns: readonly (readonly [providerId: string, firstColumn: number])[] = [
  ['google.com', 7],
  ['facebook.com', 11],
  ['twitter.com', 15],
  ['github.com', 19],
  // Newer exports only:
  ['apple.com', 28],
  ['microsoft.com', 32],
  ['gc.apple.com', 36],
  ['playgames.google.com', 40],
  ['linkedin.com', 44],
  ['yahoo.com', 48],
];

const OLD_WIDTH = 28;
const NEW_WIDTH = 52;

/** Column count without the trailing comma every exported line ends with; undefined when it fits neither width. */
export function firebaseCsvWidth(fields: readonly string[]): number | undefined {
  const count = fields.length;
  if (count === OLD_WIDTH || count === NEW_WIDTH) return count;
  if ((count === OLD_WIDTH + 1 || count === NEW_WIDTH + 1) && fields[count - 1] === '') return count - 1;
  return undefined;
}

type RowResult = { ok: true; record: SourceRecord } | { ok: false; reason: string; field?: string; sourceId?: string };

function readRow(fields: readonly string[], file: string, line: number): RowResult {
  const width = firebaseCsvWidth(fields);
  if (width === undefined) {
    return { ok: false, reason: `the row has ${fields.length} columns; a Firebase CSV row has ${OLD_WIDTH} or ${NEW_WIDTH}, plus a trailing comma` };
  }
  const text = (index: number): string => fields[index] ?? '';
  const localId = text(column.localId);
  if (localId === '') return { ok: false, reason: 'column 1 (localId) is empty', field: 'localId' };
  const verified = text(column.emailVerified);
  if (verified !== '' && verified !== 'true' && verified !== 'false') {
    return { ok: false, reason: `column 3 (emailVerified) must be true or false, found "${verified.slice(0, 20)}"`, field: 'emailVerified', sourceId: localId };
  }
  const infos: FirebaseProviderInfo[] = providerColumns
    .filter(([, first]) => first < width && text(first) !== '')
    .map(([providerId, first]) => ({ providerId, rawId: text(first), ...(text(first + 1) === '' ? {} : { email: text(first + 1) }) }));
  const user = firebaseSourceUser(
    {
      localId,
      email: text(column.email),
      ...(verified === '' ? {} : { emailVerified: verified === 'true' }),
      passwordHash: text(column.passwordHash),
      salt: text(column.salt),
      providerUserInfo: infos,
      displayName: text(column.displayName),
      photoUrl: text(column.photoUrl),
      createdAt: text(column.createdAt),
      lastSignedInAt: text(column.lastSignedInAt),
      phoneNumber: text(column.phoneNumber),
    },
    { file, line },
  );
  return { ok: true, record: user };
}

/** Firebase `auth:export` CSV: no header, columns by position, old (28) and new (52) widths. */
export async function* readFirebaseCsv(file: string): AsyncGenerator<SourceRecord> {
  let first = true;
  for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
    const result: RowResult = row.kind === 'row' ? readRow(row.fields, file, row.line) : { ok: false, reason: row.reason };
    // The first row's width decides whether this is a Firebase export at all (a header row would fail here).
    if (first && row.kind === 'row' && firebaseCsvWidth(row.fields) === undefined && !result.ok) {
      throw new SourceError('wrong-format', { file, line: row.line }, `this is not a Firebase CSV export: ${result.reason}`);
    }
    first = false;
    if (result.ok) yield result.record;
    else {
      const location = { file, line: row.line, ...optional('field', result.field) };
      yield { kind: 'malformed', location, ...optional('sourceId', result.sourceId), reason: result.reason };
    }
  }
}
