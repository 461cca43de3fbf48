/** A stack of booleans at one bit each (which containers are open: object or array), grown by doubling. */
export class BitStack {
  #bits = new Uint8Array(64);
  #depth = 0;

  get depth(): number {
    return this.#depth;
  }

  push(value: boolean): void {
    const byte = this.#depth >>> 3;
    if (byte === this.#bits.length) {
      const grown = new Uint8Array(this.#bits.length * 2);
      grown.set(this.#bits);
      this.#bits = grown;
    }
    const mask = 1 << (this.#depth & 7);
    this.#bits[byte] = value ? (this.#bits[byte] ?? 0) | mask : (this.#bits[byte] ?? 0) & ~mask;
    this.#depth += 1;
  }

  pop(): void {
    this.#depth -= 1;
  }

  /** The value on top; false on an empty stack. */
  top(): boolean {
    if (this.#depth === 0) return false;
    const top = this.#depth - 1;
    return (((this.#bits[top >>> 3] ?? 0) >>> (top & 7)) & 1) === 1;
  }
}
