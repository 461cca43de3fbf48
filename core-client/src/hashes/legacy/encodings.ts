import { decodeStrictBase64 } from '../base64.js';

/**
 * Strict decoders: each accepts only what the family's own encoder writes, so a corrupted hash is caught here. Standard
 * base64 has one decoder, `decodeStrictBase64` (`../base64.ts`), told by each family where its encoder puts padding.
 */

export function decodeHex(text: string): Buffer | undefined {
  return text.length > 0 && text.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(text) ? Buffer.from(text, 'hex') : undefined;
}

/** passlib's "adapted base64": standard base64 with `.` for `+` and no padding. */
export function decodeAdaptedBase64(text: string): Buffer | undefined {
  if (text.includes('+')) return undefined;
  return decodeStrictBase64(text.replace(/\./g, '+'), 'absent');
}

/** A decimal without sign or leading zeros, within the safe integers. */
export function parseDecimal(text: string): number | undefined {
  return /^(0|[1-9]\d{0,14})$/.test(text) ? Number(text) : undefined;
}

/** The crypt(3) alphabet: `./0-9A-Za-z`, each character six bits, least significant first. */
export const CRYPT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Encodes groups of three bytes, chosen by index, as four crypt(3) characters (fewer for a short last group). */
export function cryptBase64(bytes: Buffer, groups: readonly (readonly number[])[]): string {
  let text = '';
  for (const group of groups) {
    let value = 0;
    for (const index of group) value = (value << 8) | (bytes[index] ?? 0);
    const characters = group.length + 1;
    for (let at = 0; at < characters; at += 1) {
      text += CRYPT_ALPHABET[value & 0x3f];
      value >>>= 6;
    }
  }
  return text;
}
