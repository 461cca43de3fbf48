import { z } from 'zod';
import { scryptCostProblem } from './cost-limits.js';
import { type LegacyFamilyRules } from './family.js';
import { hexField, matchShape, parseParts } from './fields.js';
import { isUnusable } from './outcome.js';
import { count } from './parameters.js';
import { sameBytes, scryptAsync } from './primitives.js';

const LABEL = 'Better Auth scrypt';

/**
 * Better Auth's own scrypt cost (its `crypto/password` module, 1.x): fixed, and not written in the hash. A hash made
 * with other parameters (an app's own `password.hash`) is another string and not of this family.
 */
export const BETTER_AUTH_SCRYPT = { N: 16_384, r: 16, p: 1, keyLength: 64 } as const;

/** 16 random bytes in hex, a colon, the 64-byte key in hex: what Better Auth writes in the `password` column. */
const BETTER_AUTH_FORM = /^[0-9a-fA-F]{32}:[0-9a-fA-F]{128}$/;
/** Better Auth compares the key as the lower-case hex text it writes: an upper-case key matches no password there. */
const LOWER_CASE_KEY = /^[0-9a-f]+$/;

export interface BetterAuthScrypt {
  /** The salt as Better Auth uses it: its hex text, taken as UTF-8 bytes (not the 16 bytes it encodes). */
  salt: Buffer;
  key: Buffer;
}

/**
 * Better Auth's `<salt>:<key>` (the `credential` account's password). The password is NFKC-normalised, then its UTF-8
 * bytes are hashed with scrypt (N = 16384, r = 16, p = 1, 64 bytes) salted with the salt's hex text.
 */
export const betterAuthScrypt: LegacyFamilyRules<BetterAuthScrypt> = {
  detect: (hash) => BETTER_AUTH_FORM.test(hash),
  parse(hash) {
    const shape = matchShape(hash, /^([^:]*):([^:]*)$/, LABEL, '<32 hex salt>:<128 hex key>');
    if (isUnusable(shape)) return shape;
    const schema = z.object({
      salt: z.string().transform((text) => Buffer.from(text, 'utf8')),
      key: z
        .string()
        .regex(LOWER_CASE_KEY, { message: 'the key is not lower-case hex, which is all Better Auth compares a password with' })
        .pipe(hexField('key', { exact: BETTER_AUTH_SCRYPT.keyLength })),
    });
    return parseParts(schema, { salt: shape[1], key: shape[2] }, LABEL);
  },
  parameters: () => {
    const { N, r, p } = BETTER_AUTH_SCRYPT;
    return `scrypt N = ${count(N)}, r = ${r}, p = ${p} (${(128 * N * r) / 2 ** 20} MiB), NFKC-normalised password`;
  },
  costProblem: () => scryptCostProblem(LABEL, BETTER_AUTH_SCRYPT),
  async verify(password, parsed) {
    const normalised = Buffer.from(password.toString('utf8').normalize('NFKC'), 'utf8');
    const computed = await scryptAsync(normalised, parsed.salt, parsed.key.length, BETTER_AUTH_SCRYPT);
    return sameBytes(computed, parsed.key);
  },
};
