import { HASH_COST_LIMITS } from '../cost-limits.js';
import { normaliseBcrypt, verifyBcrypt } from '../bcrypt.js';
import { type LegacyFamilyRules } from './family.js';
import { unusable } from './outcome.js';

/** A bcrypt hash of a pre-hashed password: the inner bcrypt string, its cost, and the family's pre-hash. */
export interface BcryptOfPreHash {
  bcryptHash: string;
  cost: number;
  preHash: (password: Buffer) => Buffer;
}

interface BcryptSha256Variant {
  label: string;
  prefix: string;
  shape: string;
  /** The inner bcrypt string and the family's pre-hash, or undefined when the outer form is not the family's. */
  read(hash: string): { bcryptHash: string; preHash: (password: Buffer) => Buffer } | undefined;
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
    costProblem: (parsed) =>
      parsed.cost > HASH_COST_LIMITS.bcryptMaxCost
        ? `the ${variant.label} cost ${parsed.cost} is above ${HASH_COST_LIMITS.bcryptMaxCost}: checking it would stall a login-time migration — needs a password reset`
        : undefined,
    async verify(password, parsed) {
      return (await verifyBcrypt(parsed.preHash(password).toString('utf8'), parsed.bcryptHash)).match;
    },
  };
}
