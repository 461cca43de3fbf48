import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LegacyHashFamilySchema } from '../../../../core-client/src/hashes/legacy/registry.js';
import { SaltedDigestSchemeSchema } from '../../../../core-client/src/hashes/legacy/salted-digest.js';

const base = { family: LegacyHashFamilySchema, source: z.string().min(1), password: z.string() };
const VectorSchema = z.union([
  z.object({ ...base, hash: z.string().min(1), expect: z.enum(['match', 'mismatch', 'unusable']).default('match') }),
  z.object({ ...base, credential: z.record(z.string(), z.unknown()) }),
  z.object({ ...base, scheme: SaltedDigestSchemeSchema, digestHex: z.string(), salt: z.string() }),
]);
const VectorFileSchema = z.object({ wrongPassword: z.string().min(1), vectors: z.array(VectorSchema).min(1) });
export type LegacyVector = z.infer<typeof VectorSchema>;

export const LEGACY_VECTOR_FILES = ['django', 'werkzeug', 'passlib', 'crypt', 'keycloak', 'salted-digest', 'better-auth', 'published'] as const;

export function loadLegacyVectors(file: (typeof LEGACY_VECTOR_FILES)[number]): { wrongPassword: string; vectors: LegacyVector[] } {
  const url = new URL(`../../../fixtures/hash-vectors/legacy/${file}.json`, import.meta.url);
  return VectorFileSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
}
