import { verify as argon2Verify } from '@node-rs/argon2';
import { decodeStrictBase64 } from './base64.js';
import { argon2CostProblem } from './cost-limits.js';
import { reject, type FamilyOutcome } from './families.js';

/** The reference implementation's limits (argon2.h) and what a password hash plausibly carries. */
const LIMITS = {
  maxMemoryKiB: 2 ** 32 - 1,
  maxIterations: 2 ** 32 - 1,
  maxParallelism: 2 ** 24 - 1,
  minSaltBytes: 8,
  maxSaltBytes: 64,
  minHashBytes: 12,
  maxHashBytes: 64,
} as const;

const CONTRACT_VARIANTS = ['argon2id', 'argon2d'] as const;
const ACCEPTED_VARIANTS = [...CONTRACT_VARIANTS, 'argon2i'] as const;
const DECIMAL = /^(0|[1-9]\d{0,9})$/;

export function looksLikeArgon2(hash: string): boolean {
  return hash.startsWith('$argon2');
}

/**
 * Full check of an encoded Argon2 string: variant, optional version, m/t/p within the algorithm's limits, and a
 * salt and hash in unpadded base64 of plausible length. The version the reference library assumes when it is
 * missing (16) is written out, so the result has the contract's shape.
 */
export function normaliseArgon2(hash: string): FamilyOutcome {
  const parts = hash.split('$');
  const variant = parts[1] ?? '';
  if (!(ACCEPTED_VARIANTS as readonly string[]).includes(variant)) {
    return reject(
      'unsupported_family',
      `unsupported family: the Argon2 variant "${variant.slice(0, 12)}" is not argon2id, argon2d or argon2i — needs a password reset or login-time migration`,
    );
  }
  const warnings: string[] = [];
  if (variant === 'argon2i') {
    warnings.push("argon2i is not one of the contract's Argon2 variants (argon2id, argon2d): the core may refuse it");
  }
  let rest = parts.slice(2);
  let version = '16';
  if (rest[0]?.startsWith('v=')) {
    version = rest[0].slice(2);
    if (version !== '16' && version !== '19') return malformed('the version must be v=16 or v=19');
    rest = rest.slice(1);
  } else {
    warnings.push('the hash has no version: v=16 was written out, as the reference implementation assumes');
  }
  if (rest.length !== 3) return malformed('it must be $<variant>$v=<version>$m=<memory>,t=<iterations>,p=<parallelism>$<salt>$<hash>');
  const [parameterText = '', saltText = '', digestText = ''] = rest;

  const parameters = parseParameters(parameterText);
  if (typeof parameters === 'string') return malformed(parameters);
  const { m, t, p } = parameters;
  if (p < 1 || p > LIMITS.maxParallelism) return malformed(`the parallelism p=${p} is outside 1–${LIMITS.maxParallelism}`);
  if (t < 1 || t > LIMITS.maxIterations) return malformed(`the iterations t=${t} are outside 1–${LIMITS.maxIterations}`);
  if (m < 8 * p || m > LIMITS.maxMemoryKiB) return malformed(`the memory m=${m} KiB is outside ${8 * p} (8 × p) to ${LIMITS.maxMemoryKiB}`);

  const salt = decodeBase64Part(saltText, 'salt', LIMITS.minSaltBytes, LIMITS.maxSaltBytes, warnings);
  if ('problem' in salt) return malformed(salt.problem);
  const digest = decodeBase64Part(digestText, 'hash', LIMITS.minHashBytes, LIMITS.maxHashBytes, warnings);
  if ('problem' in digest) return malformed(digest.problem);
  const costProblem = argon2CostProblem(m, t, p);
  if (costProblem !== undefined) return reject('cost_too_high', costProblem);

  return {
    ok: true,
    passwordHash: `$${variant}$v=${version}$m=${m},t=${t},p=${p}$${salt.value}$${digest.value}`,
    warnings,
  };
}

function parseParameters(text: string): { m: number; t: number; p: number } | string {
  const values = new Map<string, number>();
  for (const pair of text.split(',')) {
    const [name = '', value, extra] = pair.split('=');
    if (value === undefined || extra !== undefined) return 'the parameters must read m=<memory>,t=<iterations>,p=<parallelism>';
    if (name === 'keyid' || name === 'data') return `the ${name}= parameter is not supported by the core`;
    if (!['m', 't', 'p'].includes(name)) return `unknown parameter "${name.slice(0, 8)}" (only m, t and p)`;
    if (values.has(name)) return `the parameter ${name} appears twice`;
    if (!DECIMAL.test(value)) return `the parameter ${name} must be a decimal integer without leading zeros`;
    values.set(name, Number(value));
  }
  const [m, t, p] = [values.get('m'), values.get('t'), values.get('p')];
  if (m === undefined || t === undefined || p === undefined) return 'the parameters m, t and p must all be present';
  if (text !== `m=${m},t=${t},p=${p}`) return 'the parameters must come in the order m, t, p';
  return { m, t, p };
}

function decodeBase64Part(text: string, name: 'salt' | 'hash', min: number, max: number, warnings: string[]): { value: string } | { problem: string } {
  let unpadded = text;
  if (/^[^=]+=+$/.test(text)) {
    unpadded = text.replace(/=+$/, '');
    warnings.push(`the ${name} had "=" padding, which encoded Argon2 strings leave out: it was removed`);
  }
  const bytes = decodeStrictBase64(unpadded, 'absent');
  if (bytes === undefined) return { problem: `the ${name} is not unpadded standard base64` };
  if (bytes.length < min || bytes.length > max) {
    return { problem: `the ${name} decodes to ${bytes.length} bytes, outside the plausible ${min}–${max} (truncated?)` };
  }
  return { value: unpadded };
}

/**
 * Verifies with the reference algorithm on the encoded string, as the core does (all three variants). The signal
 * cancels a check still waiting for a thread; one already running ends within the cost limits' few seconds.
 */
export async function verifyArgon2(password: string, normalisedHash: string, signal?: AbortSignal): Promise<boolean> {
  return argon2Verify(normalisedHash, Buffer.from(password, 'utf8'), undefined, signal);
}

function malformed(problem: string): FamilyOutcome {
  return reject('malformed_hash', `malformed Argon2 hash: ${problem}`);
}
