import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/**
 * Hashes of known passwords made with other libraries than the double verifies with (bcryptjs, @node-rs/argon2),
 * at tiny costs to keep tests fast, plus the vendor's public scrypt-variant vector (core-behaviour.md).
 */
export const VENDOR_SCRYPT_VECTOR = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
  salt: '42xEC+ixf3L2lw==',
  password: 'user1password',
  hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
} as const;

export const vendorScryptHashString = (v = VENDOR_SCRYPT_VECTOR): string => `$f_scrypt$${v.hash}$${v.salt}$m=${v.memCost}$r=${v.rounds}$s=${v.saltSeparator}`;

export async function bcryptHashOf(password: string, prefix: '2a' | '2b' | '2y' = '2b'): Promise<string> {
  const hashed = await bcrypt.hash(password, 4);
  return `$${prefix}$${hashed.slice(4)}`;
}

/** Argon2 variant numbers of @node-rs/argon2 (its `Algorithm` is a const enum, unusable under isolatedModules). */
const ARGON2_VARIANT = { argon2d: 0, argon2i: 1, argon2id: 2 } as const;

export function argon2HashOf(password: string, variant: keyof typeof ARGON2_VARIANT = 'argon2id'): Promise<string> {
  return argon2Hash(password, { algorithm: ARGON2_VARIANT[variant], memoryCost: 256, timeCost: 1, parallelism: 1 });
}
