import { z } from 'zod';
import { pbkdf2CostProblem } from './cost-limits.js';
import { bufferSchema } from './fields.js';
import { DigestNameSchema, pbkdf2Async, sameBytes } from './primitives.js';

/** What every PBKDF2 family reduces to. The derived key is as long as the stored one, as each family computes it. */
export const Pbkdf2ParametersSchema = z.object({
  digest: DigestNameSchema,
  iterations: z.number().int().min(1),
  salt: bufferSchema,
  key: bufferSchema,
});
export type Pbkdf2Parameters = z.infer<typeof Pbkdf2ParametersSchema>;

export async function verifyPbkdf2(password: Buffer, parameters: Pbkdf2Parameters): Promise<boolean> {
  const computed = await pbkdf2Async(password, parameters.salt, parameters.iterations, parameters.key.length, parameters.digest);
  return sameBytes(computed, parameters.key);
}

export function pbkdf2Cost(label: string) {
  return (parameters: Pbkdf2Parameters): string | undefined => pbkdf2CostProblem(label, parameters.iterations);
}
