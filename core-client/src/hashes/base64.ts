/**
 * Strict base64 checks. Node's decoder skips characters it does not know, so every check here decodes and
 * re-encodes: a string is accepted only when it is exactly what an encoder would have written.
 */

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const WEB_SAFE_ONLY = /[-_]/;
const STANDARD_ONLY = /[+/]/;

export type Base64Outcome = { ok: true; value: string; bytes: Buffer; convertedFromWebSafe: boolean; paddingAdded: boolean } | { ok: false; problem: string };

/**
 * Accepts standard base64 (padded or not) or its web-safe alphabet, and returns the canonical padded standard
 * form. Anything else (mixed alphabets, stray characters, impossible lengths, non-canonical trailing bits) fails.
 */
export function toStandardBase64(text: string): Base64Outcome {
  if (text.length === 0) return { ok: false, problem: 'is empty' };
  const webSafe = WEB_SAFE_ONLY.test(text);
  if (webSafe && STANDARD_ONLY.test(text)) return { ok: false, problem: 'mixes the standard and web-safe base64 alphabets' };
  const standard = webSafe ? text.replace(/-/g, '+').replace(/_/g, '/') : text;
  if (!STANDARD.test(standard)) return { ok: false, problem: 'has characters outside the base64 alphabet' };
  const unpadded = standard.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return { ok: false, problem: 'has a length no base64 encoder produces (truncated?)' };
  const padded = unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4);
  if (standard !== unpadded && standard !== padded) return { ok: false, problem: 'has the wrong amount of "=" padding' };
  const bytes = Buffer.from(padded, 'base64');
  if (bytes.toString('base64') !== padded) return { ok: false, problem: 'is not canonical base64 (corrupted last character?)' };
  return { ok: true, value: padded, bytes, convertedFromWebSafe: webSafe, paddingAdded: standard !== padded };
}

/** Decodes the unpadded standard base64 of PHC strings (Argon2); `undefined` when it is not exactly that. */
export function decodeUnpaddedBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+$/.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64').replace(/=+$/, '') === text ? bytes : undefined;
}

export function isAscii(text: string): boolean {
  return /^\p{ASCII}*$/u.test(text);
}
