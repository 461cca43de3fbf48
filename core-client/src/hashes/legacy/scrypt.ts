import { z } from 'zod';
import { scryptCostProblem } from './cost-limits.js';
import { bufferSchema } from './fields.js';
import { type LegacyFamilyRules } from './family.js';
import { isUnusable, unusable, type LegacyUnusable } from './outcome.js';
import { sameBytes, scryptAsync } from './primitives.js';
import { count } from './parameters.js';

/** What the standard-scrypt families reduce to; the key is as long as the stored one. */
export const ScryptParametersSchema = z.object({
  N: z.number().int(),
  r: z.number().int().min(1),
  p: z.number().int().min(1),
  salt: bufferSchema,
  key: bufferSchema,
});
export type ScryptParameters = z.infer<typeof ScryptParametersSchema>;

interface ScryptVariant {
  label: string;
  detect(hash: string): boolean;
  read(hash: string): ScryptParameters | LegacyUnusable;
}

export function scryptRules(variant: ScryptVariant): LegacyFamilyRules<ScryptParameters> {
  return {
    detect: variant.detect,
    parse(hash) {
      const parameters = variant.read(hash);
      if (isUnusable(parameters)) return parameters;
      // scrypt needs N a power of two above 1; anything else no implementation wrote.
      if (parameters.N < 2 || !Number.isInteger(Math.log2(parameters.N))) {
        return unusable('malformed_hash', `malformed ${variant.label} hash: N must be a power of two above 1`);
      }
      return parameters;
    },
    parameters: ({ N, r, p }) => `scrypt N = ${count(N)}, r = ${r}, p = ${p} (${(128 * N * r) / 2 ** 20} MiB)`,
    costProblem: (parameters) => scryptCostProblem(variant.label, parameters),
    async verify(password, parameters) {
      const computed = await scryptAsync(password, parameters.salt, parameters.key.length, parameters);
      return sameBytes(computed, parameters.key);
    },
  };
}
