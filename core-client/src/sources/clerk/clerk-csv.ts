import type { RecordLocation } from '../../location.js';
import { optional, optionalFrom } from '../../optional.js';
import { isCognitoCsvHeader } from '../cognito/cognito-csv.js';
import { readCsvRows, type CsvRow, type CsvRowError } from '../csv/csv-rows.js';
import { firebaseCsvWidth } from '../firebase/firebase-csv.js';
import { dropUndefined } from '../generic/generic-record.js';
import { SourceError } from '../source-error.js';
import type { SourceRecord, SourceUser } from '../source-user.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { clerkPassword } from './clerk-hashers.js';

/** The columns every Clerk dashboard export has, by which it is told from other CSV. */
const ID = 'id';
const PRIMARY_EMAIL = 'primary_email_address';
/** One of these beside the two above: a header of Clerk's export, not any CSV that happens to have an `id`. */
const CLERK_ONLY = ['password_hasher', 'password_digest', 'verified_email_addresses', 'primary_phone_number', 'totp_secret'];

export function isClerkCsvHeader(header: readonly string[]): boolean {
  const columns = new Set(header.map((column) => column.trim()));
  return columns.has(ID) && columns.has(PRIMARY_EMAIL) && CLERK_ONLY.some((column) => columns.has(column));
}

/** Which export a header that is not Clerk's is, when it tells, for the sentence that refuses it. */
function otherExport(header: readonly string[]): string {
  if (isCognitoCsvHeader(header)) return ' (it is a Cognito user CSV: --format cognito-csv)';
  if (firebaseCsvWidth(header) !== undefined) return ' (it is a Firebase CSV export: --format firebase-csv)';
  return '';
}

/** Clerk writes several addresses or numbers in one field; its own importer splits them at `|` or `,`, as here. */
function listOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[|,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());
const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function displayNameOf(first: string | undefined, last: string | undefined): string | undefined {
  const parts = [first, last].map((part) => part?.trim() ?? '').filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** The first scrypt_firebase row's signer key (as a digest) and line: the core has one key for all of them. */
interface SignerKeySeen {
  digest: string;
  line: number;
}

function malformed(location: RecordLocation, field: string, reason: string, sourceId?: string): SourceRecord {
  return { kind: 'malformed', location: { ...location, field }, ...optional('sourceId', sourceId), reason: `field "${field}": ${reason}` };
}

/** One row of the export as the plan reads every user. The TOTP secret is looked at only for whether there is one. */
function clerkRecord(field: (column: string) => string | undefined, location: RecordLocation, signerKey: { seen?: SignerKeySeen }): SourceRecord {
  const id = nonEmpty(field(ID));
  if (id === undefined) return malformed(location, ID, 'the user id is empty');
  const password = clerkPassword(field('password_hasher') ?? '', field('password_digest') ?? '');
  if (password !== undefined && 'malformed' in password) return malformed(location, password.field, password.malformed, id);
  if (password !== undefined && 'signerKeyDigest' in password && password.signerKeyDigest !== undefined) {
    const seen = signerKey.seen;
    if (seen === undefined) signerKey.seen = { digest: password.signerKeyDigest, line: location.line ?? 0 };
    else if (seen.digest !== password.signerKeyDigest) {
      const reason = `its scrypt_firebase signer key is not the one of line ${seen.line}, the first scrypt_firebase user's: a core verifies these hashes with one signer key`;
      return malformed(location, 'password_digest', reason, id);
    }
  }
  const email = nonEmpty(field(PRIMARY_EMAIL));
  const verifiedEmails = listOf(field('verified_email_addresses'));
  const phone = nonEmpty(field('primary_phone_number'));
  const phoneVerified = phone !== undefined && listOf(field('verified_phone_numbers')).some((number) => sameText(number, phone));
  const profile = dropUndefined({
    displayName: displayNameOf(field('first_name'), field('last_name')),
    username: nonEmpty(field('username')),
    phoneNumber: phone,
    totpEnrolled: nonEmpty(field('totp_secret')) === undefined ? undefined : (true as const),
  });
  const user: SourceUser = {
    kind: 'user',
    location,
    sourceId: id,
    system: 'clerk',
    ...dropUndefined({ email, emailVerified: email === undefined ? undefined : verifiedEmails.some((address) => sameText(address, email)) }),
    ...(password === undefined
      ? {}
      : 'unreadable' in password
        ? { unreadableHash: password.unreadable }
        : dropUndefined({ passwordHash: password.passwordHash, hashingAlgorithm: password.hashingAlgorithm })),
    ...(Object.keys(profile).length === 0 ? {} : { profile }),
    // Clerk's CSV carries no social accounts.
    providers: [],
    // A phone signs in only where it is the user's one login and Clerk verified it (Clerk lets no one in by an unverified number).
    ...optional('phoneNumber', email === undefined && phoneVerified ? phone : undefined),
    ...optionalFrom('signsInByEmailCode', password, () => false),
  };
  return user;
}

/** The last row of a file is cut short when it has fewer fields than the header, or a quote it never closes. */
function cutShort(file: string, row: CsvRow | CsvRowError, width: number): SourceError | undefined {
  if (row.kind === 'row' ? row.fields.length >= width : !row.reason.includes('never closed')) return undefined;
  const what = row.kind === 'row' ? `has ${row.fields.length} of the header's ${width} fields` : 'opens a quote it never closes';
  return new SourceError('truncated', { file, line: row.line }, `the last row (line ${row.line}) ${what}: the file looks cut short; export it again`);
}

/**
 * The CSV the Clerk dashboard exports (Settings → User exports): `id, first_name, last_name, username,
 * primary_email_address, primary_phone_number, verified_email_addresses, unverified_email_addresses,
 * verified_phone_numbers, unverified_phone_numbers, totp_secret, password_digest, password_hasher`, columns found by
 * name. Each row is read when the next one arrives, so the last can be told cut short.
 */
export async function* readClerkCsv(file: string): AsyncGenerator<SourceRecord> {
  let columns: Map<string, number> | undefined;
  let width = 0;
  let held: CsvRow | CsvRowError | undefined;
  const signerKey: { seen?: SignerKeySeen } = {};
  const recordOf = (row: CsvRow | CsvRowError): SourceRecord => {
    const location = { file, line: row.line };
    if (row.kind === 'row-error') return { kind: 'malformed', location, reason: row.reason };
    if (row.fields.length !== width) return { kind: 'malformed', location, reason: `the row has ${row.fields.length} fields, the header has ${width}` };
    const found = columns;
    return clerkRecord((column) => row.fields[found?.get(column) ?? -1], location, signerKey);
  };
  for await (const row of readCsvRows(splitLines(openText(file), { file }))) {
    if (columns === undefined) {
      if (row.kind === 'row-error') throw new SourceError('wrong-format', { file, line: row.line }, `the header row cannot be read: ${row.reason}`);
      const header = row.fields.map((column) => column.trim());
      if (!isClerkCsvHeader(header)) {
        throw new SourceError(
          'wrong-format',
          { file, line: row.line },
          `not a Clerk export: the header row lacks Clerk's columns (${ID}, ${PRIMARY_EMAIL}, password_digest, …)${otherExport(header)}`,
        );
      }
      columns = new Map();
      for (const [position, column] of header.entries()) if (!columns.has(column)) columns.set(column, position);
      width = header.length;
      continue;
    }
    if (held !== undefined) yield recordOf(held);
    held = row;
  }
  if (held === undefined) return;
  const cut = cutShort(file, held, width);
  if (cut !== undefined) throw cut;
  yield recordOf(held);
}
