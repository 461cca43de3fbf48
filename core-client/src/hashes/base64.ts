/**
 * Strict base64 checks. Node's decoder skips characters it does not know, so nothing here trusts it: a string is
 * accepted only when it is exactly what an encoder would have written.
 */

export type Base64Outcome =
  { ok: true; value: string; byteLength: number; convertedFromWebSafe: boolean; paddingAdded: boolean } | { ok: false; problem: string };

// What each ASCII character is to base64; every other character is outside the alphabet.
const OUTSIDE = 0;
const COMMON = 1;
const STANDARD_ONLY = 2;
const WEB_SAFE_ONLY = 3;
const PAD = 4;
const classes = new Uint8Array(128);
const sextets = new Uint8Array(128);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('').forEach((character, value) => {
  classes[character.charCodeAt(0)] = COMMON;
  sextets[character.charCodeAt(0)] = value;
});
for (const [character, kind, value] of [
  ['+', STANDARD_ONLY, 62],
  ['/', STANDARD_ONLY, 63],
  ['-', WEB_SAFE_ONLY, 62],
  ['_', WEB_SAFE_ONLY, 63],
  ['=', PAD, 0],
] as const) {
  classes[character.charCodeAt(0)] = kind;
  sextets[character.charCodeAt(0)] = value;
}

/**
 * Accepts standard base64 (padded or not) or its web-safe alphabet, and returns the canonical padded standard
 * form. Anything else (mixed alphabets, stray characters, impossible lengths, non-canonical trailing bits) fails.
 * One pass over the characters, no decoding: this runs for every hash and salt of an export.
 */
export function toStandardBase64(text: string): Base64Outcome {
  if (text.length === 0) return { ok: false, problem: 'is empty' };
  let webSafe = false;
  let standard = false;
  let outside = false;
  let dataLength = text.length;
  let padding = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    const kind = code < 128 ? (classes[code] ?? OUTSIDE) : OUTSIDE;
    if (kind === PAD) {
      if (padding === 0) dataLength = at;
      padding += 1;
      continue;
    }
    // Data after "=" puts the padding in the middle: not an encoder's output.
    if (kind === OUTSIDE || padding > 0) outside = true;
    if (kind === STANDARD_ONLY) standard = true;
    else if (kind === WEB_SAFE_ONLY) webSafe = true;
  }
  if (webSafe && standard) return { ok: false, problem: 'mixes the standard and web-safe base64 alphabets' };
  if (outside || padding > 2) return { ok: false, problem: 'has characters outside the base64 alphabet' };
  if (dataLength % 4 === 1) return { ok: false, problem: 'has a length no base64 encoder produces (truncated?)' };
  const needed = (4 - (dataLength % 4)) % 4;
  if (padding !== 0 && padding !== needed) return { ok: false, problem: 'has the wrong amount of "=" padding' };
  // The last character's bits past the final whole byte are zero in what an encoder writes.
  const unusedBits = dataLength % 4 === 2 ? 0x0f : dataLength % 4 === 3 ? 0x03 : 0;
  if ((sextets[text.charCodeAt(dataLength - 1)] ?? 0) & unusedBits) return { ok: false, problem: 'is not canonical base64 (corrupted last character?)' };
  const converted = webSafe ? text.replace(/-/g, '+').replace(/_/g, '/') : text;
  const value = padding === needed ? converted : converted + '='.repeat(needed);
  return { ok: true, value, byteLength: Math.floor((dataLength * 3) / 4), convertedFromWebSafe: webSafe, paddingAdded: padding !== needed };
}

/** Where a family's encoder puts "=" padding: always (RFC 4648), never (PHC strings, passlib), or either is met. */
export type Base64Padding = 'required' | 'absent' | 'optional';

/**
 * The one strict decoder of standard base64 for hashes: the bytes only when `text` is exactly what an encoder with
 * that padding writes, else `undefined`. With padding required, input that ends mid-group is refused, as OpenLDAP's
 * decoder does: a cut-short hash is malformed, never read as a shorter one. Empty text is zero bytes; whether zero
 * bytes will do is the caller's to say.
 */
export function decodeStrictBase64(text: string, padding: Base64Padding): Buffer | undefined {
  if (text === '') return Buffer.alloc(0);
  const decoded = toStandardBase64(text);
  if (!decoded.ok || decoded.convertedFromWebSafe) return undefined;
  if (padding === 'required' && decoded.paddingAdded) return undefined;
  if (padding === 'absent' && text.endsWith('=')) return undefined;
  return Buffer.from(decoded.value, 'base64');
}

export function isAscii(text: string): boolean {
  return /^\p{ASCII}*$/u.test(text);
}
