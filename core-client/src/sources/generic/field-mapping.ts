import { z } from 'zod';
import { SourceError } from '../source-error.js';

const columnName = z.string().trim().min(1, 'a column name cannot be empty');

/**
 * Which column (CSV header) or key (JSON; `a.b` reaches into nested objects) holds each field. The defaults are
 * the contract's own names, so a file already in the contract's shape needs no mapping.
 */
export const FieldMappingSchema = z.strictObject({
  email: columnName.default('email'),
  passwordHash: columnName.default('passwordHash'),
  salt: columnName.default('salt'),
  hashingAlgorithm: columnName.default('hashingAlgorithm'),
  isVerified: columnName.default('isVerified'),
  thirdPartyId: columnName.default('thirdPartyId'),
  thirdPartyUserId: columnName.default('thirdPartyUserId'),
  /** The old system's id: kept as the user's id (--no-keep-ids turns it off), and named in the report. */
  sourceId: columnName.default('id'),
  /** The user's roles (a string, a list or an object of booleans; in a CSV, names separated by commas). */
  roles: columnName.default('roles'),
  /** The number the user signs in with (a code by SMS): the user becomes a passwordless user of the core. */
  phoneNumber: columnName.default('phoneNumber'),
});
export type FieldMapping = z.infer<typeof FieldMappingSchema>;
export type FieldMappingInput = z.input<typeof FieldMappingSchema>;
export type MappedField = keyof FieldMapping;

export const mappedFields = Object.keys(FieldMappingSchema.shape) as MappedField[];
export const defaultFieldMapping: FieldMapping = FieldMappingSchema.parse({});

/** `key = column` or `key: column` lines, `#` comments: the small-file form, besides a JSON object. */
function parseMappingLines(text: string, origin: string): Record<string, string> | SourceError {
  const entries: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const separator = line.search(/[=:]/);
    if (separator <= 0) {
      return new SourceError('bad-mapping', { file: origin, line: index + 1 }, 'expected "field = column", e.g. "email = mail"');
    }
    entries[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return entries;
}

/**
 * Reads a field mapping from a small file's text (a JSON object, or `field = column` lines) or from flags
 * (undefined flags are ignored). Unknown field names are refused, so a typo cannot silently do nothing.
 */
export function parseFieldMapping(input: string | Readonly<Record<string, string | undefined>>, origin = 'field mapping'): FieldMapping | SourceError {
  let entries: unknown;
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (trimmed.startsWith('{')) {
      try {
        entries = JSON.parse(trimmed);
      } catch (error) {
        return new SourceError('bad-mapping', { file: origin }, `not valid JSON: ${(error as Error).message}`);
      }
    } else {
      const parsed = parseMappingLines(trimmed, origin);
      if (parsed instanceof SourceError) return parsed;
      entries = parsed;
    }
  } else {
    entries = Object.fromEntries(Object.entries(input).filter(([, column]) => column !== undefined));
  }
  const result = FieldMappingSchema.safeParse(entries);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return new SourceError(
      'bad-mapping',
      { file: origin },
      `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')}; the fields are ${mappedFields.join(', ')}`,
    );
  }
  const field = issue?.path.join('.') ?? '';
  return new SourceError('bad-mapping', { file: origin, field }, `${field}: ${issue?.message ?? 'invalid mapping'}`);
}
