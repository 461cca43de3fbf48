import { argon2Verify, bcryptVerify } from 'hash-wasm';
import { VENDOR_SCRYPT_HASH_PREFIX } from '../../core-client/src/contract/names.js';
import { makeVendorScryptHash } from '../support/vendor-scrypt-maker.js';

/*
 * Password verification for `POST /recipe/signin`, written on hash-wasm so that it is independent of
 * core-client's own hashing code (bcryptjs, @node-rs/argon2): a bug shared by both cannot hide itself.
 */

export interface VendorScryptHash {
  hash: string;
  salt: string;
  memCost: number;
  rounds: number;
  saltSeparator: string;
}

/** `$f_scrypt$<hash>$<salt>$m=<mem_cost>$r=<rounds>$s=<separator>`, the m/r/s parts in any order. */
export function parseVendorScryptHash(text: string): VendorScryptHash | undefined {
  if (!text.startsWith(VENDOR_SCRYPT_HASH_PREFIX)) return undefined;
  const parts = text.split('$');
  if (parts.length !== 7) return undefined;
  const [, , hash, salt, ...params] = parts;
  if (!hash || !salt) return undefined;
  const named = new Map<string, string>();
  for (const param of params) {
    const match = /^([mrs])=(.+)$/.exec(param);
    if (!match?.[1] || match[2] === undefined || named.has(match[1])) return undefined;
    named.set(match[1], match[2]);
  }
  const memCost = Number(named.get('m'));
  const rounds = Number(named.get('r'));
  const saltSeparator = named.get('s');
  if (!Number.isInteger(memCost) || !Number.isInteger(rounds) || saltSeparator === undefined) return undefined;
  return { hash, salt, memCost, rounds, saltSeparator };
}

export const isBcryptHash = (hash: string): boolean => /^\$2[abxy]\$/.test(hash);
export const isArgon2Hash = (hash: string): boolean => /^\$argon2(id|i|d)\$/.test(hash);

/** Above this the double refuses to spend the memory (2^20 * 128 * r bytes); real exports use 14. */
const MAX_MEM_COST = 20;
const MAX_ROUNDS = 32;
const BCRYPT_MAX_PASSWORD_BYTES = 72;

/** The core reads scrypt-variant passwords as ASCII: every other character becomes `?`, as Java's encoder does. */
function asciiBytes(password: string): Uint8Array {
  return Uint8Array.from(Array.from(password), (char) => {
    const code = char.codePointAt(0) ?? 0x3f;
    return code < 0x80 ? code : 0x3f;
  });
}

export async function verifyVendorScrypt(password: string, parsed: VendorScryptHash, signerKey: string): Promise<boolean> {
  if (parsed.memCost < 1 || parsed.memCost > MAX_MEM_COST || parsed.rounds < 1 || parsed.rounds > MAX_ROUNDS) return false;
  const expected = await makeVendorScryptHash({
    password: asciiBytes(password),
    salt: Buffer.from(parsed.salt, 'base64'),
    saltSeparator: Buffer.from(parsed.saltSeparator, 'base64'),
    signerKey: Buffer.from(signerKey, 'base64'),
    memCost: parsed.memCost,
    rounds: parsed.rounds,
  });
  return expected === parsed.hash;
}

async function verifyBcrypt(password: string, hash: string): Promise<boolean> {
  // The core verifies with the prefix rewritten to $2a, and bcrypt only ever reads the first 72 bytes.
  const normalised = `$2a$${hash.slice(4)}`;
  const bytes = Buffer.from(password, 'utf8').subarray(0, BCRYPT_MAX_PASSWORD_BYTES);
  return bcryptVerify({ password: bytes, hash: normalised });
}

/**
 * True when `password` matches the stored hash. A malformed hash, or an scrypt-variant hash without a signer
 * key, never matches (the core answers WRONG_CREDENTIALS_ERROR for all of these alike).
 */
export async function verifyPassword(password: string, storedHash: string, signerKey: string | undefined): Promise<boolean> {
  try {
    if (isBcryptHash(storedHash)) return await verifyBcrypt(password, storedHash);
    if (isArgon2Hash(storedHash)) return await argon2Verify({ password, hash: storedHash });
    const scryptHash = parseVendorScryptHash(storedHash);
    if (scryptHash !== undefined && signerKey !== undefined) return await verifyVendorScrypt(password, scryptHash, signerKey);
    return false;
  } catch {
    return false;
  }
}
