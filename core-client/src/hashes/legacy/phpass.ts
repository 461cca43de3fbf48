import { z } from 'zod';
import { type LegacyFamilyRules } from './family.js';
import { bufferSchema } from './fields.js';
import { CRYPT_ALPHABET, cryptBase64 } from './encodings.js';
import { phpassCostProblem } from './cost-limits.js';
import { unusable } from './outcome.js';
import { digest, inSlices, sameBytes } from './primitives.js';
import { count } from './parameters.js';

const LABEL = 'phpass';
const SHAPE = /^\$[PH]\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{22})$/;
/** phpass itself refuses a count below 2^7 or above 2^30. */
const MIN_LOG2 = 7;
const MAX_LOG2 = 30;
/** The 16 MD5 bytes in phpass's order: groups of three, least significant first. */
const GROUPS = [[2, 1, 0], [5, 4, 3], [8, 7, 6], [11, 10, 9], [14, 13, 12], [15]] as const;

export const PhpassHashSchema = z.object({ log2: z.number().int(), salt: bufferSchema, encoded: bufferSchema });
type PhpassHash = z.infer<typeof PhpassHashSchema>;

/**
 * phpass portable hashes (`$P$` WordPress, `$H$` phpBB3): MD5 of salt ‖ password, then 2^count times MD5 of the
 * previous digest ‖ password, written in the crypt alphabet.
 */
export const phpass: LegacyFamilyRules<PhpassHash> = {
  detect: (hash) => hash.startsWith('$P$') || hash.startsWith('$H$'),
  parse(hash) {
    const shape = SHAPE.exec(hash);
    if (shape === null)
      return unusable('malformed_hash', `malformed ${LABEL} hash: it must be $P$ (or $H$), a count character, an 8-character salt and 22 characters`);
    const log2 = CRYPT_ALPHABET.indexOf(shape[1] ?? '');
    if (log2 < MIN_LOG2 || log2 > MAX_LOG2)
      return unusable('malformed_hash', `malformed ${LABEL} hash: the count 2^${log2} is outside 2^${MIN_LOG2}–2^${MAX_LOG2}`);
    return { log2, salt: Buffer.from(shape[2] ?? '', 'latin1'), encoded: Buffer.from(shape[3] ?? '', 'latin1') };
  },
  parameters: (parsed) => `2^${parsed.log2} (${count(2 ** parsed.log2)}) MD5 iterations`,
  costProblem: (parsed) => phpassCostProblem(LABEL, parsed.log2),
  async verify(password, parsed) {
    let value = digest('md5', parsed.salt, password);
    await inSlices(2 ** parsed.log2, () => {
      value = digest('md5', value, password);
    });
    return sameBytes(Buffer.from(cryptBase64(value, GROUPS), 'latin1'), parsed.encoded);
  },
};
