import { createCipheriv, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { VENDOR_SCRYPT_HASH_PREFIX } from '../contract/names.js';
import type { Secret } from '../secret.js';
import { toStandardBase64 } from './base64.js';
import { reject, type FamilyOutcome, type HashRejection } from './families.js';
import { VENDOR_SCRYPT_MINIMUMS, vendorScryptCostProblem } from './cost-limits.js';
import type { HashConfig } from './hash-config.js';

/** The parts of a `$f_scrypt$` string, every base64 part in canonical padded standard form. */
export interface VendorScryptParts {
  hash: string;
  salt: string;
  memCost: number;
  rounds: number;
  saltSeparator: string;
}

/** What the core needs to read a `$f_scrypt$` string: exactly seven `$`-separated parts. */
const PART_COUNT = 7;
const KEY_LENGTH = 64;

export function looksLikeVendorScrypt(hash: string): boolean {
  return hash.startsWith(VENDOR_SCRYPT_HASH_PREFIX);
}

/** The hash, salt and m/r/s parts of an `$f_scrypt$` string, missing its prefix (or with a part of it: `$`, `f_scrypt$`). */
const UNPREFIXED_PATTERN = /^\$?(?:f_scrypt\$)?[\w+/=-]+\$[\w+/=-]*(?:\$[mrs]=[^$]*){3}$/;

export function looksLikeUnprefixedVendorScrypt(hash: string): boolean {
  return !looksLikeVendorScrypt(hash) && UNPREFIXED_PATTERN.test(hash);
}

export function formatVendorScrypt(parts: VendorScryptParts): string {
  return `${VENDOR_SCRYPT_HASH_PREFIX}${parts.hash}$${parts.salt}$m=${parts.memCost}$r=${parts.rounds}$s=${parts.saltSeparator}`;
}

/** Builds the contract's `$f_scrypt$` string from an exported hash and salt and the provider's parameters. */
export function buildVendorScrypt(input: { hash: string; salt: string; config: HashConfig }): FamilyOutcome {
  const warnings: string[] = [];
  const config = checkedConfig(input.config);
  if ('problem' in config) return reject('invalid_hash_config', `the vendor scrypt hash config is not usable: ${config.problem}`);
  const hash = standardBase64(input.hash, 'hash', warnings);
  if ('problem' in hash) return reject('malformed_hash', `malformed vendor scrypt hash: the hash ${hash.problem}`);
  if (input.salt.trim().length === 0) return reject('missing_salt', "vendor scrypt needs the user's salt, and the record's salt is empty");
  const salt = standardBase64(input.salt.trim(), 'salt', warnings);
  if ('problem' in salt) return reject('invalid_salt', `the vendor scrypt salt ${salt.problem}`);
  const parts = { hash: hash.value, salt: salt.value, memCost: config.memCost, rounds: config.rounds, saltSeparator: config.saltSeparator };
  const keyProblem = signerKeyMismatch(hash.byteLength, input.config.signerKey);
  if (keyProblem !== undefined) return keyProblem;
  return { ok: true, passwordHash: formatVendorScrypt(parts), warnings };
}

/**
 * Parses an existing `$f_scrypt$` string (the m=, r=, s= parts in any order) into canonical form. When the record
 * also has a salt or the operator gave parameters, a disagreement is reported as a warning: the string wins.
 */
export function normaliseVendorScrypt(text: string, context: { salt?: string; config?: HashConfig } = {}): FamilyOutcome {
  const parsed = parseVendorScrypt(text);
  if (!parsed.ok) return parsed;
  const { parts, warnings } = parsed;
  const givenSalt = context.salt?.trim();
  if (givenSalt !== undefined && givenSalt !== '') {
    const salt = toStandardBase64(givenSalt);
    if (!salt.ok || salt.value !== parts.salt) {
      warnings.push("the record's salt differs from the salt inside the $f_scrypt$ hash; the hash's own salt is used");
    }
  }
  if (context.config !== undefined) {
    const { memCost, rounds, saltSeparator } = context.config;
    if (memCost !== parts.memCost || rounds !== parts.rounds || saltSeparator !== parts.saltSeparator) {
      warnings.push("the $f_scrypt$ hash carries parameters (m, r, s) that differ from --hash-config; the hash's own are used");
    }
    const keyProblem = signerKeyMismatch(Buffer.byteLength(parts.hash, 'base64'), context.config.signerKey);
    if (keyProblem !== undefined) return keyProblem;
  }
  return { ok: true, passwordHash: formatVendorScrypt(parts), warnings };
}

export function parseVendorScrypt(text: string): { ok: true; parts: VendorScryptParts; warnings: string[] } | HashRejection {
  const segments = text.split('$');
  if (segments.length !== PART_COUNT || segments[0] !== '' || segments[1] !== 'f_scrypt') {
    return malformed('it must be $f_scrypt$<hash>$<salt>$m=<mem_cost>$r=<rounds>$s=<salt_separator>');
  }
  const warnings: string[] = [];
  const [, , hashText = '', saltText = '', ...parameterTexts] = segments;
  const hash = standardBase64(hashText, 'hash', warnings);
  if ('problem' in hash) return malformed(`the hash ${hash.problem}`);
  const salt = standardBase64(saltText, 'salt', warnings);
  if ('problem' in salt) return malformed(`the salt ${salt.problem}`);

  const values = new Map<string, string>();
  for (const parameter of parameterTexts) {
    const separatorAt = parameter.indexOf('=');
    const name = separatorAt < 0 ? parameter : parameter.slice(0, separatorAt);
    if (!['m', 'r', 's'].includes(name) || separatorAt < 0) return malformed('the last three parts must be m=, r= and s= (any order)');
    if (values.has(name)) return malformed(`the ${name}= part appears twice`);
    values.set(name, parameter.slice(separatorAt + 1));
  }
  const memCost = wholeNumberFrom(values.get('m') ?? '', VENDOR_SCRYPT_MINIMUMS.memCost);
  if (memCost === undefined) return malformed(`m= (mem_cost) must be a whole number of at least ${VENDOR_SCRYPT_MINIMUMS.memCost}`);
  const rounds = wholeNumberFrom(values.get('r') ?? '', VENDOR_SCRYPT_MINIMUMS.rounds);
  if (rounds === undefined) return malformed(`r= (rounds) must be a whole number of at least ${VENDOR_SCRYPT_MINIMUMS.rounds}`);
  const costProblem = vendorScryptCostProblem(memCost, rounds);
  if (costProblem !== undefined) return reject('cost_too_high', costProblem);
  const saltSeparator = standardBase64(values.get('s') ?? '', 'salt separator', warnings);
  if ('problem' in saltSeparator) return malformed(`s= (the salt separator) ${saltSeparator.problem}`);
  return {
    ok: true,
    parts: { hash: hash.value, salt: salt.value, memCost, rounds, saltSeparator: saltSeparator.value },
    warnings,
  };
}

/**
 * The core's check: key = scrypt(password, salt ‖ separator, N = 2^mem_cost, r = rounds, p = 1, 64 bytes); the
 * password matches when AES-256-CTR (first 32 key bytes, zero IV) of the signer key equals the stored hash.
 */
export async function verifyVendorScrypt(password: Buffer, parts: VendorScryptParts, signerKey: Secret): Promise<boolean> {
  const N = 2 ** parts.memCost;
  const salt = Buffer.concat([Buffer.from(parts.salt, 'base64'), Buffer.from(parts.saltSeparator, 'base64')]);
  const key = await scryptAsync(password, salt, KEY_LENGTH, {
    N,
    r: parts.rounds,
    p: 1,
    // scrypt needs 128·N·r bytes; node refuses above 32 MiB unless told (mem_cost 14, rounds 8 is 16 MiB).
    maxmem: 256 * N * parts.rounds + 1024 * 1024,
  });
  const cipher = createCipheriv('aes-256-ctr', key.subarray(0, 32), Buffer.alloc(16));
  const encrypted = Buffer.concat([cipher.update(Buffer.from(signerKey.reveal(), 'base64')), cipher.final()]);
  const expected = Buffer.from(parts.hash, 'base64');
  return encrypted.length === expected.length && timingSafeEqual(encrypted, expected);
}

function scryptAsync(password: BinaryLike, salt: BinaryLike, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

type ConfigCheck = { memCost: number; rounds: number; saltSeparator: string } | { problem: string };

// A run has one hash config and one signer key: each is checked once, not once per record.
const configChecks = new WeakMap<HashConfig, ConfigCheck>();
const signerKeyLengths = new WeakMap<Secret, number | undefined>();

function checkedConfig(config: HashConfig): ConfigCheck {
  let checked = configChecks.get(config);
  if (checked === undefined) {
    checked = checkConfig(config);
    configChecks.set(config, checked);
  }
  return checked;
}

function checkConfig(config: HashConfig): ConfigCheck {
  if (wholeNumberFrom(String(config.memCost), VENDOR_SCRYPT_MINIMUMS.memCost) === undefined) {
    return { problem: `mem_cost must be a whole number of at least ${VENDOR_SCRYPT_MINIMUMS.memCost}` };
  }
  if (wholeNumberFrom(String(config.rounds), VENDOR_SCRYPT_MINIMUMS.rounds) === undefined) {
    return { problem: `rounds must be a whole number of at least ${VENDOR_SCRYPT_MINIMUMS.rounds}` };
  }
  const costProblem = vendorScryptCostProblem(config.memCost, config.rounds, 'check rounds and mem_cost');
  if (costProblem !== undefined) return { problem: costProblem };
  const separator = toStandardBase64(config.saltSeparator);
  if (!separator.ok) return { problem: `base64_salt_separator ${separator.problem}` };
  return { memCost: config.memCost, rounds: config.rounds, saltSeparator: separator.value };
}

/** The signer key's length in bytes; undefined when it is not base64. */
function signerKeyLength(signerKey: Secret): number | undefined {
  if (!signerKeyLengths.has(signerKey)) {
    const key = toStandardBase64(signerKey.reveal());
    signerKeyLengths.set(signerKey, key.ok ? key.byteLength : undefined);
  }
  return signerKeyLengths.get(signerKey);
}

/** The stored hash is the signer key encrypted, so both have one length; a difference means one of them is wrong. */
function signerKeyMismatch(hashByteLength: number, signerKey: Secret | undefined): HashRejection | undefined {
  if (signerKey === undefined) return undefined;
  const keyByteLength = signerKeyLength(signerKey);
  if (keyByteLength === undefined) return reject('invalid_hash_config', 'the vendor scrypt signer key (base64_signer_key) is not base64');
  if (keyByteLength === hashByteLength) return undefined;
  return reject(
    'malformed_hash',
    `malformed vendor scrypt hash: it decodes to ${hashByteLength} bytes but the signer key to ${keyByteLength}; ` +
      'the hash is truncated or the signer key belongs to another project',
  );
}

function standardBase64(text: string, name: string, warnings: string[]): { value: string; byteLength: number } | { problem: string } {
  const decoded = toStandardBase64(text);
  if (!decoded.ok) return { problem: decoded.problem };
  if (decoded.convertedFromWebSafe) warnings.push(`the ${name} was web-safe base64 and was converted to standard base64`);
  if (decoded.paddingAdded) warnings.push(`the ${name} lacked its "=" padding, which was added`);
  return { value: decoded.value, byteLength: decoded.byteLength };
}

/** A whole number of at least `min` (the cost bound refuses a large one with its own sentence). */
function wholeNumberFrom(text: string, min: number): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min ? value : undefined;
}

function malformed(problem: string): HashRejection {
  return reject('malformed_hash', `malformed vendor scrypt hash: ${problem}`);
}
