import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { HASH_COST_LIMITS } from '../cost-limits.js';
import { normaliseBcrypt, verifyBcrypt } from '../bcrypt.js';
import { type LegacyFamilyRules } from './family.js';
import { unusable } from './outcome.js';
import { digest } from './primitives.js';

/**
 * How each family turns the password into what bcrypt hashes: Django, the hex SHA-256; passlib version 1, the base64
 * SHA-256; passlib version 2, the base64 HMAC-SHA256 keyed by the 22-character bcrypt salt.
 */
export const PreHashSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hex-sha256') }),
  z.object({ kind: z.literal('base64-sha256') }),
  z.object({ kind: z.literal('base64-hmac-sha256'), key: z.string() }),
]);
export type PreHash = z.infer<typeof PreHashSchema>;

/** A bcrypt hash of a pre-hashed password: the inner bcrypt string, its cost, and the family's pre-hash. */
export const BcryptOfPreHashSchema = z.object({ bcryptHash: z.string(), cost: z.number().int(), preHash: PreHashSchema });
export type BcryptOfPreHash = z.infer<typeof BcryptOfPreHashSchema>;

function preHashed(password: Buffer, preHash: PreHash): string {
  switch (preHash.kind) {
    case 'hex-sha256':
      return digest('sha256', password).toString('hex');
    case 'base64-sha256':
      return digest('sha256', password).toString('base64');
    case 'base64-hmac-sha256':
      return createHmac('sha256', preHash.key).update(password).digest('base64');
  }
}

interface BcryptSha256Variant {
  label: string;
  prefix: string;
  shape: string;
  /** The inner bcrypt string and the family's pre-hash, or undefined when the outer form is not the family's. */
  read(hash: string): { bcryptHash: string; preHash: PreHash } | undefined;
}

const BCRYPT_COST = /^\$2[a-z]?\$(\d\d)\$/;

/** Django's and passlib's bcrypt-sha256 differ only in their outer form and pre-hash; the bcrypt inside is read by the import's own rules. */
export function bcryptSha256Rules(variant: BcryptSha256Variant): LegacyFamilyRules<BcryptOfPreHash> {
  return {
    detect: (hash) => hash.startsWith(variant.prefix),
    parse(hash) {
      const read = variant.read(hash);
      if (read === undefined) return unusable('malformed_hash', `malformed ${variant.label} hash: it must be ${variant.shape}`);
      const inner = normaliseBcrypt(read.bcryptHash);
      // The cost is judged by costProblem, with this family's words; every other refusal of the bcrypt rules stands.
      if (!inner.ok && inner.code !== 'cost_too_high') return unusable('malformed_hash', `malformed ${variant.label} hash: ${inner.reason}`);
      return { ...read, cost: Number(BCRYPT_COST.exec(read.bcryptHash)?.[1] ?? 0) };
    },
    parameters: (parsed) => `bcrypt cost ${parsed.cost} (2^${parsed.cost} rounds) of the password's SHA-256`,
    costProblem: (parsed) =>
      parsed.cost > HASH_COST_LIMITS.bcryptMaxCost
        ? `the ${variant.label} cost ${parsed.cost} is above ${HASH_COST_LIMITS.bcryptMaxCost}: checking it would stall a login-time migration — needs a password reset`
        : undefined,
    async verify(password, parsed) {
      return (await verifyBcrypt(preHashed(password, parsed.preHash), parsed.bcryptHash)).match;
    },
  };
}
