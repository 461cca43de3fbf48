import { readFileSync } from 'node:fs';
import { z } from 'zod';

const VectorSchema = z.object({
  source: z.string().min(1),
  password: z.string(),
  hash: z.string().min(1),
  salt: z.string().optional(),
  hashConfig: z.record(z.string(), z.unknown()).optional(),
  expectedPasswordHash: z.string().optional(),
});
const VectorFileSchema = z.object({ family: z.string(), vectors: z.array(VectorSchema).min(1) });
export type HashVector = z.infer<typeof VectorSchema>;

export function loadVectors(file: 'bcrypt' | 'argon2' | 'vendor-scrypt'): HashVector[] {
  const url = new URL(`../../fixtures/hash-vectors/${file}.json`, import.meta.url);
  return VectorFileSchema.parse(JSON.parse(readFileSync(url, 'utf8'))).vectors;
}
