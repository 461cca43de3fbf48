import { hash } from 'node:crypto';

export interface KeyPosition {
  /** Line or record index in the source, at most MAX_KEY_POSITION. */
  position: number;
  /** Which input file: 0 or 1 (an Auth0 export has two). */
  source: number;
}

/** Positions share a 32-bit word with the source's bit. */
export const MAX_KEY_POSITION = 0x7fffffff;
const SOURCE_BIT = 0x80000000;

// The table is split by the digest's top bits, so that growing copies one small part at a time: one big table would
// hold its old and its new array at once while it grows, half again its size at the worst moment.
const SHARD_BITS = 6;
const SHARDS = 1 << SHARD_BITS;
// Three words a slot: digest high, digest low, position with the source's bit.
const STRIDE = 3;
// Linear probing stays short enough up to this (about 23 probes for a key not there); each growth adds a quarter.
const MAX_LOAD = 0.85;
const GROWTH = 1.25;
const MIN_SHARD_SLOTS = 16;

// The digest of the key last looked up; module state rather than an object per lookup, which would cost more.
let digestHigh = 0;
let digestLow = 0;

function digestOf(key: string): void {
  // SHA-256 as a "binary" (latin1) string, a character per byte, costs a fifth of a Buffer of it, which is mostly allocation.
  const digest = hash('sha256', key, 'binary');
  const high = ((digest.charCodeAt(0) << 24) | (digest.charCodeAt(1) << 16) | (digest.charCodeAt(2) << 8) | digest.charCodeAt(3)) >>> 0;
  // A zero high word marks an empty slot, so it is never allowed to be zero.
  digestHigh = high === 0 ? 1 : high;
  digestLow = ((digest.charCodeAt(4) << 24) | (digest.charCodeAt(5) << 16) | (digest.charCodeAt(6) << 8) | digest.charCodeAt(7)) >>> 0;
}

/** A digest's home slot in a shard of `slots` slots (any count, not only powers of two). */
function homeSlot(low: number, slots: number): number {
  return Math.floor((low / 0x100000000) * slots);
}

/**
 * Remembers which keys (normalised emails, provider accounts, journal entries) were seen, and where, in 12 bytes a
 * slot, 14 to 18 bytes a key: keys are kept as 64-bit digests in open-addressing tables, never as strings. Two
 * different keys share a digest with a probability of about n²/2^65 (≈ 3·10⁻⁶ at ten million users), which is
 * accepted and documented.
 */
export class SeenKeys {
  readonly #shards: Uint32Array[] = [];
  readonly #counts = new Int32Array(SHARDS);
  #size = 0;

  constructor(initialCapacity = 1 << 16) {
    const slots = Math.max(MIN_SHARD_SLOTS, Math.ceil(initialCapacity / SHARDS / MAX_LOAD));
    for (let shard = 0; shard < SHARDS; shard += 1) this.#shards.push(new Uint32Array(slots * STRIDE));
  }

  get size(): number {
    return this.#size;
  }

  get bytesUsed(): number {
    return this.#shards.reduce((total, table) => total + table.byteLength, 0);
  }

  /** Where the key was first recorded, or undefined when it is new (and is now recorded at `at`). */
  firstSeenOrRecord(key: string, at: KeyPosition): KeyPosition | undefined {
    const word = packed(at);
    digestOf(key);
    const slot = this.#find();
    const table = this.#tableOfDigest();
    if (slot >= 0) return unpacked(table[slot * STRIDE + 2] ?? 0);
    this.#store(-slot - 1, word);
    return undefined;
  }

  /** Records the key at `at`, replacing any earlier position (a first pass for "last wins"). */
  recordLatest(key: string, at: KeyPosition): void {
    const word = packed(at);
    digestOf(key);
    const slot = this.#find();
    if (slot >= 0) this.#tableOfDigest()[slot * STRIDE + 2] = word;
    else this.#store(-slot - 1, word);
  }

  positionOf(key: string): KeyPosition | undefined {
    digestOf(key);
    const slot = this.#find();
    return slot >= 0 ? unpacked(this.#tableOfDigest()[slot * STRIDE + 2] ?? 0) : undefined;
  }

  #tableOfDigest(): Uint32Array {
    return this.#shards[digestHigh >>> (32 - SHARD_BITS)] as Uint32Array;
  }

  /** The slot holding the current digest, or -(slot + 1) for the empty slot where it would go. */
  #find(): number {
    const table = this.#tableOfDigest();
    const slots = table.length / STRIDE;
    let slot = homeSlot(digestLow, slots);
    for (;;) {
      const high = table[slot * STRIDE] ?? 0;
      if (high === 0) return -slot - 1;
      if (high === digestHigh && table[slot * STRIDE + 1] === digestLow) return slot;
      slot = slot + 1 === slots ? 0 : slot + 1;
    }
  }

  #store(slot: number, word: number): void {
    const shard = digestHigh >>> (32 - SHARD_BITS);
    let table = this.#shards[shard] as Uint32Array;
    let at = slot;
    const count = (this.#counts[shard] ?? 0) + 1;
    if (count > (table.length / STRIDE) * MAX_LOAD) {
      table = this.#grow(shard);
      at = -this.#find() - 1;
    }
    table[at * STRIDE] = digestHigh;
    table[at * STRIDE + 1] = digestLow;
    table[at * STRIDE + 2] = word;
    this.#counts[shard] = count;
    this.#size += 1;
  }

  #grow(shard: number): Uint32Array {
    const old = this.#shards[shard] as Uint32Array;
    const slots = Math.ceil((old.length / STRIDE) * GROWTH);
    const table = new Uint32Array(slots * STRIDE);
    for (let from = 0; from < old.length; from += STRIDE) {
      const high = old[from] ?? 0;
      if (high === 0) continue;
      const low = old[from + 1] ?? 0;
      let slot = homeSlot(low, slots);
      while ((table[slot * STRIDE] ?? 0) !== 0) slot = slot + 1 === slots ? 0 : slot + 1;
      table[slot * STRIDE] = high;
      table[slot * STRIDE + 1] = low;
      table[slot * STRIDE + 2] = old[from + 2] ?? 0;
    }
    this.#shards[shard] = table;
    return table;
  }
}

function packed(at: KeyPosition): number {
  if (!Number.isInteger(at.position) || at.position < 0 || at.position > MAX_KEY_POSITION || (at.source !== 0 && at.source !== 1)) {
    throw new RangeError(`a key position must be a whole number from 0 to ${MAX_KEY_POSITION} in source 0 or 1, not ${at.position} in ${at.source}`);
  }
  return (at.position | (at.source === 1 ? SOURCE_BIT : 0)) >>> 0;
}

function unpacked(word: number): KeyPosition {
  return { position: word & MAX_KEY_POSITION, source: word >>> 31 };
}
