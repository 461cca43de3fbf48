import { z } from 'zod';
import { decodeStrictBase64, type Base64Padding } from '../base64.js';
import { decodeAdaptedBase64, decodeHex, parseDecimal } from './encodings.js';
import { unusable, type LegacyUnusable } from './outcome.js';

/** Field schemas for the parts of a hash: each takes the text as written and gives the value, or says what is wrong. */

export function decimalField(name: string, min = 1) {
  return z.string().transform((text, context) => {
    const value = parseDecimal(text);
    if (value === undefined || value < min) {
      context.addIssue({ code: 'custom', message: `the ${name} must be a whole number from ${min}, without leading zeros` });
      return z.NEVER;
    }
    return value;
  });
}

type Decoder = (text: string) => Buffer | undefined;

function bytesField(decode: Decoder, encoding: string, name: string, lengths?: { min?: number; exact?: number }) {
  return z.string().transform((text, context) => {
    const bytes = decode(text);
    if (bytes === undefined) {
      context.addIssue({ code: 'custom', message: `the ${name} is not ${encoding}` });
      return z.NEVER;
    }
    // Zero bytes only where the family allows them (passlib's scrypt salt); elsewhere an empty part is a cut hash.
    if (bytes.length === 0 && (lengths?.min ?? 1) > 0) {
      context.addIssue({ code: 'custom', message: `the ${name} is empty` });
      return z.NEVER;
    }
    if (lengths?.exact !== undefined && bytes.length !== lengths.exact) {
      context.addIssue({ code: 'custom', message: `the ${name} is ${bytes.length} bytes instead of ${lengths.exact} (truncated?)` });
      return z.NEVER;
    }
    if (lengths?.min !== undefined && bytes.length < lengths.min) {
      context.addIssue({ code: 'custom', message: `the ${name} is ${bytes.length} bytes, fewer than ${lengths.min} (truncated?)` });
      return z.NEVER;
    }
    return bytes;
  });
}

export const hexField = (name: string, lengths?: { min?: number; exact?: number }) => bytesField(decodeHex, 'hexadecimal', name, lengths);
/** Standard base64, with "=" padding where the family's reference wants it. */
export const base64Field = (name: string, padding: Base64Padding, lengths?: { min?: number; exact?: number }) =>
  bytesField((text) => decodeStrictBase64(text, padding), padding === 'required' ? 'padded base64' : 'base64', name, lengths);
export const adaptedBase64Field = (name: string, lengths?: { min?: number; exact?: number }) =>
  bytesField(decodeAdaptedBase64, "passlib's adapted base64", name, lengths);

/** A salt kept as text by its family (Django, Werkzeug): hashed as its UTF-8 bytes. */
export function textSaltField() {
  return z
    .string()
    .min(1, { message: 'the salt is empty' })
    .transform((text) => Buffer.from(text, 'utf8'));
}

export const bufferSchema = z.instanceof(Buffer);

/** Runs a family's schema over the parts of a hash; the first problem becomes the reason, prefixed by the family. */
export function parseParts<Schema extends z.ZodType>(schema: Schema, parts: unknown, label: string): z.output<Schema> | LegacyUnusable {
  const parsed = schema.safeParse(parts);
  if (parsed.success) return parsed.data;
  return unusable('malformed_hash', `malformed ${label} hash: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
}

/** Matches a hash against its family's shape; a miss is a malformed hash of that family, described by `shape`. */
export function matchShape(hash: string, pattern: RegExp, label: string, shape: string): RegExpExecArray | LegacyUnusable {
  return pattern.exec(hash) ?? unusable('malformed_hash', `malformed ${label} hash: it must be ${shape}`);
}
