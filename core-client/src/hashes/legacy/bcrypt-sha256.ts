import { HASH_COST_LIMITS } from '../cost-limits.js';
import { normaliseBcrypt, verifyBcrypt } from '../bcrypt.js';
import { type LegacyFamilyRules } from './family.js';
import { unusable } from './outcome.js';

/** A bcrypt hash of a pre-hashed password: the bcrypt string (as the import's own bcrypt rules read it) and the pre-hash. */
export interface BcryptOfPreHash {
  /** The inner bcrypt hash, normalised to `$2a$` by the same rules as an imported one. */
  bcryptHash: string;
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

/** Django's and passlib's bcrypt-sha256 differ only in their outer form and pre-hash; the bcrypt inside is checked as an import's. */
export function bcryptSha256Rules(variant: BcryptSha256Variant): LegacyFamilyRules<BcryptOfPreHash> {
  return {
    detect: (hash) => hash.startsWith(variant.prefix),
    parse(hash) {
      const read = variant.read(hash);
      if (read === undefined) return unusable('malformed_hash', `malformed ${variant.label} hash: it must be ${variant.shape}`);
      const cost = Number(BCRYPT_COST.exec(read.bcryptHash)?.[1] ?? 0);
      if (cost > HASH_COST_LIMITS.bcryptMaxCost) {
        return unusable(
          'cost_too_high',
          `the ${variant.label} cost ${cost} is above ${HASH_COST_LIMITS.bcryptMaxCost}: checking it would stall a login-time migration — needs a password reset`,
        );
      }
      const inner = normaliseBcrypt(read.bcryptHash);
      if (!inner.ok) return unusable('malformed_hash', `malformed ${variant.label} hash: ${inner.reason}`);
      return { bcryptHash: inner.passwordHash, preHash: read.preHash };
    },
    // The cost is bounded while parsing: the inner bcrypt rules refuse an over-cost hash before anything else.
    costProblem: () => undefined,
    async verify(password, parsed) {
      return (await verifyBcrypt(parsed.preHash(password).toString('utf8'), parsed.bcryptHash)).match;
    },
  };
}
