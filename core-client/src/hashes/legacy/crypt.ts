import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { bufferSchema } from './fields.js';
import { cryptBase64 } from './encodings.js';
import { shaCryptCostProblem } from './cost-limits.js';
import { unusable } from './outcome.js';
import { digest, inSlices, sameBytes, type DigestName } from './primitives.js';
import { count, digestName as digestNameOf } from './parameters.js';

/**
 * crypt(3)'s MD5 and SHA schemes, written from their published descriptions (Poul-Henning Kamp's MD5-crypt, Ulrich
 * Drepper's "Unix crypt using SHA-256 and SHA-512"): digests of the password and salt mixed in a fixed pattern, then
 * re-digested 1,000 times (MD5) or `rounds` times (SHA, 5,000 unless the hash says). No maintained npm package does
 * this without blocking the event loop (see docs/hashes.md), so the loop here runs in slices.
 */

export const CryptHashSchema = z.object({ salt: bufferSchema, rounds: z.number().int(), encoded: bufferSchema });
type CryptHash = z.infer<typeof CryptHashSchema>;

const MD5_CRYPT_ROUNDS = 1000;
const MD5_GROUPS = [[0, 6, 12], [1, 7, 13], [2, 8, 14], [3, 9, 15], [4, 10, 5], [11]] as const;

const SALT_CHARS = '[^$:\\n]';

/** `$1$<salt of up to 8>$<22 characters>`. */
export const md5Crypt: LegacyFamilyRules<CryptHash> = {
  detect: (hash) => hash.startsWith('$1$'),
  parse(hash) {
    const shape = new RegExp(`^\\$1\\$(${SALT_CHARS}{0,8})\\$([./0-9A-Za-z]{22})$`).exec(hash);
    if (shape === null) return unusable('malformed_hash', 'malformed MD5-crypt hash: it must be $1$<salt of up to 8 characters>$<22 characters>');
    return { salt: Buffer.from(shape[1] ?? '', 'utf8'), rounds: MD5_CRYPT_ROUNDS, encoded: Buffer.from(shape[2] ?? '', 'latin1') };
  },
  parameters: (parsed) => `${count(parsed.rounds)} MD5 rounds (fixed), ${parsed.salt.length}-character salt`,
  costProblem: () => undefined,
  async verify(password, parsed) {
    const { salt } = parsed;
    const alternate = digest('md5', password, salt, password);
    const parts: Buffer[] = [password, Buffer.from('$1$'), salt, repeatTo(alternate, password.length)];
    for (let bits = password.length; bits > 0; bits >>= 1) parts.push(bits & 1 ? Buffer.alloc(1) : password.subarray(0, 1));
    let result = digest('md5', ...parts);
    await inSlices(MD5_CRYPT_ROUNDS, (round) => {
      result = digest('md5', ...mixRound(round, result, password, salt));
    });
    return sameBytes(Buffer.from(cryptBase64(result, MD5_GROUPS), 'latin1'), parsed.encoded);
  },
};

/** One round of both schemes: which of the previous result, password and salt go in, by the round's number. */
function mixRound(round: number, previous: Buffer, password: Buffer, salt: Buffer): Buffer[] {
  const parts = [round & 1 ? password : previous];
  if (round % 3 !== 0) parts.push(salt);
  if (round % 7 !== 0) parts.push(password);
  parts.push(round & 1 ? previous : password);
  return parts;
}

function repeatTo(block: Buffer, length: number): Buffer {
  const copies = Math.ceil(length / block.length);
  return Buffer.concat(Array.from({ length: copies }, () => block)).subarray(0, length);
}

const SHA256_GROUPS = [
  [0, 10, 20],
  [21, 1, 11],
  [12, 22, 2],
  [3, 13, 23],
  [24, 4, 14],
  [15, 25, 5],
  [6, 16, 26],
  [27, 7, 17],
  [18, 28, 8],
  [9, 19, 29],
  [31, 30],
] as const;
const SHA512_GROUPS = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
  [63],
] as const;

const SHA_CRYPT_DEFAULT_ROUNDS = 5000;
const SHA_CRYPT_MIN_ROUNDS = 1000;
const SHA_CRYPT_MAX_ROUNDS = 999_999_999;

function shaCrypt(id: '5' | '6', name: DigestName, encodedLength: number, groups: readonly (readonly number[])[], label: string): LegacyFamilyRules<CryptHash> {
  const pattern = new RegExp(`^\\$${id}\\$(?:rounds=(\\d{1,10})\\$)?(${SALT_CHARS}{0,16})\\$([./0-9A-Za-z]{${encodedLength}})$`);
  return {
    detect: (hash) => hash.startsWith(`$${id}$`),
    parse(hash) {
      const shape = pattern.exec(hash);
      if (shape === null) {
        return unusable(
          'malformed_hash',
          `malformed ${label} hash: it must be $${id}$[rounds=<n>$]<salt of up to 16 characters>$<${encodedLength} characters>`,
        );
      }
      const rounds = shape[1] === undefined ? SHA_CRYPT_DEFAULT_ROUNDS : Number(shape[1]);
      // An implementation writes rounds= only within its range (it clamps a request outside it before writing).
      if (rounds < SHA_CRYPT_MIN_ROUNDS || rounds > SHA_CRYPT_MAX_ROUNDS || (shape[1] ?? '').startsWith('0')) {
        return unusable('malformed_hash', `malformed ${label} hash: rounds=${rounds} is outside 1,000–999,999,999`);
      }
      return { salt: Buffer.from(shape[2] ?? '', 'utf8'), rounds, encoded: Buffer.from(shape[3] ?? '', 'latin1') };
    },
    parameters: (parsed) => `${count(parsed.rounds)} ${digestNameOf(name)} rounds, ${parsed.salt.length}-character salt`,
    costProblem: (parsed) => shaCryptCostProblem(label, parsed.rounds),
    async verify(password, parsed) {
      const { salt } = parsed;
      const alternate = digest(name, password, salt, password);
      const parts: Buffer[] = [password, salt, repeatTo(alternate, password.length)];
      for (let bits = password.length; bits > 0; bits >>= 1) parts.push(bits & 1 ? alternate : password);
      const first = digest(name, ...parts);
      const passwordSequence = repeatTo(digest(name, ...Array.from({ length: password.length }, () => password)), password.length);
      const saltSequence = repeatTo(digest(name, ...Array.from({ length: 16 + (first[0] ?? 0) }, () => salt)), salt.length);
      let result = first;
      await inSlices(parsed.rounds, (round) => {
        result = digest(name, ...mixRound(round, result, passwordSequence, saltSequence));
      });
      return sameBytes(Buffer.from(cryptBase64(result, groups), 'latin1'), parsed.encoded);
    },
  };
}

export const sha256Crypt = shaCrypt('5', 'sha256', 43, SHA256_GROUPS, 'SHA256-crypt');
export const sha512Crypt = shaCrypt('6', 'sha512', 86, SHA512_GROUPS, 'SHA512-crypt');
