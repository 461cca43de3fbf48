import { z } from 'zod';
import { Problem } from '../problem.js';
import { Secret } from '../secret.js';
import { toStandardBase64 } from './base64.js';
import { VENDOR_SCRYPT_MINIMUMS, vendorScryptCostProblem } from './cost-limits.js';

function wholeNumberFrom(field: string, min: number) {
  const message = `${field} must be a whole number of at least ${min}`;
  return z.union([z.number(), z.string()], { error: (issue) => (issue.input === undefined ? `${field} is missing` : message) }).transform((value, context) => {
    const number = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min) {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return number;
  });
}

function base64Field(field: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? `${field} is missing` : `${field} must be base64 text`) }).transform((value, context) => {
    const decoded = toStandardBase64(value.trim());
    if (!decoded.ok) {
      context.addIssue({ code: 'custom', message: `${field} ${decoded.problem}` });
      return z.NEVER;
    }
    return decoded.value;
  });
}

/**
 * The provider's hashing parameters under the names operators see (console `hash_config` block, or JSON),
 * turned into the shape the hash modules use. The signer key becomes a `Secret` at once.
 */
export const HashConfigSchema = z
  .object({
    algorithm: z
      .string({ error: 'algorithm must be text (SCRYPT)' })
      .refine((value) => value.trim().toUpperCase() === 'SCRYPT', {
        message: 'algorithm must be SCRYPT: only the vendor scrypt variant takes these parameters',
      })
      .optional(),
    base64_signer_key: base64Field('base64_signer_key').optional(),
    base64_salt_separator: base64Field('base64_salt_separator'),
    rounds: wholeNumberFrom('rounds', VENDOR_SCRYPT_MINIMUMS.rounds),
    mem_cost: wholeNumberFrom('mem_cost', VENDOR_SCRYPT_MINIMUMS.memCost),
  })
  .superRefine((config, context) => {
    // Bounded by what a check costs, as bcrypt and Argon2 are, not by one provider's defaults (rounds 8, mem_cost 14).
    const problem = vendorScryptCostProblem(config.mem_cost, config.rounds, 'check rounds and mem_cost (the provider shows them with the export)');
    if (problem !== undefined) context.addIssue({ code: 'custom', path: ['mem_cost'], message: problem });
  })
  .transform((config) => ({
    memCost: config.mem_cost,
    rounds: config.rounds,
    saltSeparator: config.base64_salt_separator,
    ...(config.base64_signer_key !== undefined && { signerKey: new Secret(config.base64_signer_key) }),
  }));
export type HashConfig = z.output<typeof HashConfigSchema>;

/** A hash config that cannot be used; `field` names the setting at fault, and the message never holds a value. */
export class HashConfigError extends Problem<'hashConfig', 'hashConfigInvalid'> {
  override readonly name = 'HashConfigError';
  constructor(
    words: string,
    readonly field?: string,
  ) {
    super('hashConfigInvalid', 'setting', 'hashConfig', words);
  }
}

type CanonicalField = 'algorithm' | 'base64_signer_key' | 'base64_salt_separator' | 'rounds' | 'mem_cost';

/** Other spellings of the same settings (Admin SDK and REST answers use camelCase), lower-cased. */
const FIELD_ALIASES: Record<string, CanonicalField> = {
  algorithm: 'algorithm',
  base64_signer_key: 'base64_signer_key',
  signer_key: 'base64_signer_key',
  signerkey: 'base64_signer_key',
  base64_salt_separator: 'base64_salt_separator',
  salt_separator: 'base64_salt_separator',
  saltseparator: 'base64_salt_separator',
  rounds: 'rounds',
  mem_cost: 'mem_cost',
  memcost: 'mem_cost',
  memorycost: 'mem_cost',
  memory_cost: 'mem_cost',
};

/**
 * Reads the provider's hashing parameters from the console block as pasted
 * (`hash_config { algorithm: SCRYPT, base64_signer_key: ..., rounds: 8, mem_cost: 14, }`, any spacing,
 * trailing commas) or from a JSON object with the same names (optionally nested under `hash_config`/`hashConfig`).
 */
export function parseHashConfig(text: string): HashConfig | HashConfigError {
  const entries = readEntries(text.replace(/^\uFEFF/, '').trim());
  if (entries instanceof HashConfigError) return entries;
  const fields: Partial<Record<CanonicalField, unknown>> = {};
  for (const [name, value] of entries) {
    const field = FIELD_ALIASES[name.toLowerCase()];
    if (field === undefined) {
      return new HashConfigError(
        `unknown setting "${name.slice(0, 40)}" in the hash config (expected algorithm, base64_signer_key, base64_salt_separator, rounds, mem_cost)`,
        name,
      );
    }
    if (field in fields) return new HashConfigError(`${field} appears twice in the hash config`, field);
    fields[field] = value;
  }
  const parsed = HashConfigSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  return new HashConfigError(issue?.message ?? 'the hash config is not valid', typeof field === 'string' ? field : undefined);
}

function readEntries(text: string): Array<[string, unknown]> | HashConfigError {
  if (text.length === 0) return new HashConfigError('the hash config is empty');
  if (text.startsWith('{')) {
    const json = readJson(text);
    if (json !== undefined) return json;
  }
  return readConsoleBlock(text);
}

function readJson(text: string): Array<[string, unknown]> | HashConfigError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the console block also starts with `{` when pasted without its name
  }
  if (!isPlainObject(value)) return new HashConfigError('the hash config JSON must be an object');
  const nested = value['hash_config'] ?? value['hashConfig'];
  const object = isPlainObject(nested) ? nested : value;
  return Object.entries(object);
}

function readConsoleBlock(text: string): Array<[string, unknown]> | HashConfigError {
  const block = /^(?:[A-Za-z_]\w*\s*[:=]?\s*)?\{([\s\S]*)\}\s*$/.exec(text);
  const body = block === null ? text : (block[1] ?? '');
  const entries: Array<[string, unknown]> = [];
  const pieces = body
    .split(/[,\n;]/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
  for (const [index, piece] of pieces.entries()) {
    const entry = /^["']?([A-Za-z_][\w-]*)["']?\s*[:=]\s*(.*)$/.exec(piece);
    if (entry === null) {
      return new HashConfigError(`entry ${index + 1} of the hash config is not "name: value"`);
    }
    const [, name = '', rawValue = ''] = entry;
    entries.push([name, rawValue.trim().replace(/^(["'])(.*)\1$/, '$2')]);
  }
  return entries;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
