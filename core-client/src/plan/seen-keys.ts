import { hash } from 'node:crypto';

/**
 * Remembers which keys (normalised emails, provider accounts) were seen, and where, in 17 to 35 bytes per key:
 * keys are kept as 64-bit digests in an open-addressing table, never as strings. Two different keys share a digest
 * with a probability of about n²/2^65 (≈ 3·10⁻⁶ at ten million users), which is accepted and documented.
 */
export class SeenKeys {
  #digestsHigh: Uint32Array;
  #digestsLow: Uint32Array;
  #positions: Uint32Array;
  #sources: Uint8Array;
  #size = 0;

  constructor(initialCapacity = 1 << 16) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity <<= 1;
    this.#digestsHigh = new Uint32Array(capacity);
    this.#digestsLow = new Uint32Array(capacity);
    this.#positions = new Uint32Array(capacity);
    this.#sources = new Uint8Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  get bytesUsed(): number {
    return this.#digestsHigh.byteLength * 3 + this.#sources.byteLength;
  }

  /** Where the key was first recorded, or undefined when it is new (and is now recorded at `at`). */
  firstSeenOrRecord(key: string, at: KeyPosition): KeyPosition | undefined {
    const slot = this.#find(key);
    if (slot.found) return this.#positionAt(slot.index);
    this.#store(slot.index, slot.high, slot.low, at);
    return undefined;
  }

  /** Records the key at `at`, replacing any earlier position (a first pass for "last wins"). */
  recordLatest(key: string, at: KeyPosition): void {
    const slot = this.#find(key);
    if (slot.found) {
      this.#positions[slot.index] = at.position;
      this.#sources[slot.index] = at.source;
      return;
    }
    this.#store(slot.index, slot.high, slot.low, at);
  }

  positionOf(key: string): KeyPosition | undefined {
    const slot = this.#find(key);
    return slot.found ? this.#positionAt(slot.index) : undefined;
  }

  #positionAt(index: number): KeyPosition {
    return { position: this.#positions[index] ?? 0, source: this.#sources[index] ?? 0 };
  }

  #store(index: number, high: number, low: number, at: KeyPosition): void {
    this.#digestsHigh[index] = high;
    this.#digestsLow[index] = low;
    this.#positions[index] = at.position;
    this.#sources[index] = at.source;
    this.#size += 1;
    // Linear probing stays quick up to three quarters full; growing later keeps the table near 13·4/3 bytes a key.
    if (this.#size * 4 > this.#digestsHigh.length * 3) this.#grow();
  }

  #find(key: string): { found: boolean; index: number; high: number; low: number } {
    // The one-shot hash costs half a Hash object's create-update-digest, and gives the same bytes.
    const digest = hash('sha256', key, 'buffer');
    // A zero digest marks an empty slot, so the high word is never allowed to be zero.
    const high = digest.readUInt32LE(0) || 1;
    const low = digest.readUInt32LE(4);
    const mask = this.#digestsHigh.length - 1;
    let index = slotOf(high, low) & mask;
    for (;;) {
      const slotHigh = this.#digestsHigh[index];
      if (slotHigh === 0) return { found: false, index, high, low };
      if (slotHigh === high && this.#digestsLow[index] === low) return { found: true, index, high, low };
      index = (index + 1) & mask;
    }
  }

  #grow(): void {
    const oldHigh = this.#digestsHigh;
    const oldLow = this.#digestsLow;
    const oldPositions = this.#positions;
    const oldSources = this.#sources;
    const capacity = oldHigh.length * 2;
    this.#digestsHigh = new Uint32Array(capacity);
    this.#digestsLow = new Uint32Array(capacity);
    this.#positions = new Uint32Array(capacity);
    this.#sources = new Uint8Array(capacity);
    const mask = capacity - 1;
    for (let old = 0; old < oldHigh.length; old += 1) {
      const high = oldHigh[old] ?? 0;
      if (high === 0) continue;
      let index = slotOf(high, oldLow[old] ?? 0) & mask;
      while ((this.#digestsHigh[index] ?? 0) !== 0) index = (index + 1) & mask;
      this.#digestsHigh[index] = high;
      this.#digestsLow[index] = oldLow[old] ?? 0;
      this.#positions[index] = oldPositions[old] ?? 0;
      this.#sources[index] = oldSources[old] ?? 0;
    }
  }
}

export interface KeyPosition {
  /** Line or record index in the source. */
  position: number;
  /** Which input file (a small ordinal: an Auth0 export has two). */
  source: number;
}

/** The home slot of a digest; lookups and growth must agree on it. */
function slotOf(high: number, low: number): number {
  return (Math.imul(high ^ (low >>> 16), 0x45d9f3b) ^ low) >>> 0;
}
