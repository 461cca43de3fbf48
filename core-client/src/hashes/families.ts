import { z } from 'zod';
import { VENDOR_SCRYPT } from '../contract/names.js';

/** The hash families the core can import: the one list every screen, plan and report reads. */
export const HashFamilySchema = z.enum(['bcrypt', 'argon2', 'vendor_scrypt']);
export type HashFamily = z.infer<typeof HashFamilySchema>;

export interface HashFamilyInfo {
  id: HashFamily;
  label: string;
  /** The `hashingAlgorithm` the import body needs, when the contract asks for one. */
  hashingAlgorithm?: typeof VENDOR_SCRYPT;
  example: string;
}

const familyDetails = {
  bcrypt: { label: 'BCrypt', example: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' },
  argon2: { label: 'Argon2', example: '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4' },
  vendor_scrypt: {
    label: 'scrypt variant (vendor_scrypt)',
    hashingAlgorithm: VENDOR_SCRYPT,
    example: '$f_scrypt$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==$42xEC+ixf3L2lw==$m=14$r=8$s=Bw==',
  },
} satisfies Record<HashFamily, Omit<HashFamilyInfo, 'id'>>;

export const hashFamilies: readonly HashFamilyInfo[] = HashFamilySchema.options.map((id) => ({ id, ...familyDetails[id] }));

export function hashFamilyLabel(family: HashFamily): string {
  return familyDetails[family].label;
}

/** Why a hash cannot be imported; every code comes with a sentence an operator can act on. */
export const HashRejectionCodeSchema = z.enum([
  'empty_hash',
  'too_long',
  'unsupported_family',
  'unrecognised_format',
  'malformed_hash',
  'missing_salt',
  'invalid_salt',
  'missing_hash_config',
  'invalid_hash_config',
  'algorithm_mismatch',
  'no_usable_password',
  'cost_too_high',
]);
export type HashRejectionCode = z.infer<typeof HashRejectionCodeSchema>;

export interface PreparedHash {
  ok: true;
  family: HashFamily;
  /** The normalised hash, ready for the import body. */
  passwordHash: string;
  hashingAlgorithm?: typeof VENDOR_SCRYPT;
  warnings: string[];
  /** The wrapper or prefix rule(s) that were stripped, joined with `+` when more than one applied. */
  strippedBy?: string;
}

export interface HashRejection {
  ok: false;
  code: HashRejectionCode;
  /** An operator-actionable sentence; it names the family, rule or field and never contains the hash. */
  reason: string;
}

export type PrepareHashResult = PreparedHash | HashRejection;

/** What a family module answers about one hash: the normalised string and warnings, or a rejection. */
export type FamilyOutcome = { ok: true; passwordHash: string; warnings: string[] } | HashRejection;

export function reject(code: HashRejectionCode, reason: string): HashRejection {
  return { ok: false, code, reason };
}
