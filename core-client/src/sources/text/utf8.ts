// TextDecoder says that a chunk is not UTF-8 but not where; these two helpers find the place, so the
// message can name a byte offset. They run on the failing chunk only (and on a chunk's last 3 bytes).

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The allowed range of the byte after a lead byte (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
function secondByteFits(lead: number, second: number): boolean {
  if (lead === 0xe0) return second >= 0xa0 && second <= 0xbf;
  if (lead === 0xed) return second >= 0x80 && second <= 0x9f;
  if (lead === 0xf0) return second >= 0x90 && second <= 0xbf;
  if (lead === 0xf4) return second >= 0x80 && second <= 0x8f;
  return isContinuation(second);
}

/**
 * Index of the first byte that starts an invalid UTF-8 sequence, or -1. `bytes` must start on a character
 * boundary. A sequence cut short by the end of `bytes` counts as invalid only when `atEnd` is true.
 */
export function firstInvalidUtf8Index(bytes: Uint8Array, atEnd: boolean): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    const length = sequenceLength(lead);
    if (length === 0) return index;
    for (let offset = 1; offset < length; offset += 1) {
      const byte = bytes[index + offset];
      if (byte === undefined) return atEnd ? index : -1;
      const fits = offset === 1 ? secondByteFits(lead, byte) : isContinuation(byte);
      if (!fits) return index;
    }
    index += length;
  }
  return -1;
}

/** How many bytes at the end of a valid chunk belong to a character that continues in the next chunk. */
export function incompleteTailLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if (!isContinuation(byte)) {
      const length = sequenceLength(byte);
      return length > back ? back : 0;
    }
  }
  return 0;
}
