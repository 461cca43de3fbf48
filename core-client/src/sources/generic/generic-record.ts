import type { RecordLocation } from '../../location.js';
import type { LinkedProvider, SourceRecord } from '../source-user.js';
import type { FieldMapping, MappedField } from './field-mapping.js';
import { optional, optionalFrom } from '../../optional.js';

/** Reads the value a mapped column or key holds in one record (undefined when absent). */
export type FieldLookup = (column: string) => unknown;

class FieldProblem {
  constructor(
    readonly field: MappedField,
    readonly column: string,
    readonly problem: string,
  ) {}
}

const verifiedWords = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
]);

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function readText(value: unknown, field: MappedField, column: string, allowNumber: boolean): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return value;
  if (allowNumber && typeof value === 'number' && Number.isFinite(value)) return String(value);
  // The value itself is not repeated: it could be a hash or a salt.
  throw new FieldProblem(field, column, `must be text, found ${typeName(value)}`);
}

function readVerified(value: unknown, column: string): boolean | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    const word = verifiedWords.get(value.trim().toLowerCase());
    if (word !== undefined) return word;
    throw new FieldProblem('isVerified', column, `must be true or false, found "${value.slice(0, 20)}"`);
  }
  throw new FieldProblem('isVerified', column, `must be true or false, found ${typeName(value)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds a SourceUser from a record of a generic format through the field mapping. An email given as the
 * contract's third-party shape `{ id, isVerified }` is read as such.
 */
export function mapGenericRecord(lookup: FieldLookup, mapping: FieldMapping, location: RecordLocation): SourceRecord {
  try {
    const rawEmail = lookup(mapping.email);
    const contractEmail = isPlainObject(rawEmail) ? rawEmail : undefined;
    const email = readText(contractEmail ? contractEmail.id : rawEmail, 'email', mapping.email, false);
    const explicitVerified = readVerified(lookup(mapping.isVerified), mapping.isVerified);
    const emailVerified = explicitVerified ?? readVerified(contractEmail?.isVerified, `${mapping.email}.isVerified`);
    const providerId = readText(lookup(mapping.thirdPartyId), 'thirdPartyId', mapping.thirdPartyId, false);
    const providerUserId = readText(lookup(mapping.thirdPartyUserId), 'thirdPartyUserId', mapping.thirdPartyUserId, true);
    if ((providerId === undefined) !== (providerUserId === undefined)) {
      const [missing, column] =
        providerId === undefined ? (['thirdPartyId', mapping.thirdPartyId] as const) : (['thirdPartyUserId', mapping.thirdPartyUserId] as const);
      throw new FieldProblem(missing, column, 'is missing: a third-party account needs both the provider id and the user id at that provider');
    }
    const providers: LinkedProvider[] =
      providerId !== undefined && providerUserId !== undefined ? [{ providerId, providerUserId, ...optional('email', email) }] : [];
    const fields = {
      sourceId: readText(lookup(mapping.sourceId), 'sourceId', mapping.sourceId, true),
      email,
      emailVerified,
      passwordHash: readText(lookup(mapping.passwordHash), 'passwordHash', mapping.passwordHash, false),
      salt: readText(lookup(mapping.salt), 'salt', mapping.salt, false),
      hashingAlgorithm: readText(lookup(mapping.hashingAlgorithm), 'hashingAlgorithm', mapping.hashingAlgorithm, false),
      phoneNumber: readText(lookup(mapping.phoneNumber), 'phoneNumber', mapping.phoneNumber, true),
      // Read as it is: what makes it roles (and which are unreadable) is the plan's, and only with --roles-from.
      roles: isAbsent(lookup(mapping.roles)) ? undefined : lookup(mapping.roles),
    };
    return { kind: 'user', location, ...dropUndefined(fields), ...optionalFrom('system', fields.sourceId, () => 'generic export'), providers };
  } catch (error) {
    if (!(error instanceof FieldProblem)) throw error;
    const named = error.column === error.field ? `"${error.column}"` : `"${error.column}" (mapped to ${error.field})`;
    return {
      kind: 'malformed',
      location: { ...location, field: error.column },
      ...optional('sourceId', error.field === 'sourceId' ? undefined : oldIdIn(lookup(mapping.sourceId))),
      reason: `field ${named} ${error.problem}`,
    };
  }
}

/**
 * The old id a record that cannot be read still names: a non-empty text (or a number, as ids are read) at its id
 * field, so the report line of a broken record says whose it is.
 */
export function oldIdIn(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `oldIdIn` of one key of a JSON value, when the value is an object. */
export function oldIdAt(value: unknown, key: string): string | undefined {
  return isPlainObject(value) ? oldIdIn(value[key]) : undefined;
}

export function dropUndefined<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  // A plain loop: this runs a few times per record, and entries/filter/fromEntries cost several arrays each time.
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value !== undefined) kept[key] = value;
  }
  return kept as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** Looks a key up in a JSON record: the exact key first, then a dotted path into nested objects. */
export function jsonLookup(record: Record<string, unknown>): FieldLookup {
  return (column) => {
    if (Object.hasOwn(record, column)) return record[column];
    if (!column.includes('.')) return undefined;
    let value: unknown = record;
    for (const part of column.split('.')) {
      if (!isPlainObject(value) || !Object.hasOwn(value, part)) return undefined;
      value = value[part];
    }
    return value;
  };
}

export { isPlainObject };
