import { SeenKeys } from '../../seen-keys.js';
import { type Auth0Password, passwordJoinId } from './auth0-records.js';

const PAGE_ENTRIES = 1 << 16;

/** Numbers by entry number, in fixed pages: no copy and no doubling slack as the file grows. */
class NumberPages<Page extends Float64Array | Uint32Array> {
  readonly #pages: Page[] = [];
  readonly #newPage: () => Page;

  constructor(newPage: () => Page) {
    this.#newPage = newPage;
  }

  set(entry: number, value: number): void {
    const page = Math.floor(entry / PAGE_ENTRIES);
    while (this.#pages.length <= page) this.#pages.push(this.#newPage());
    (this.#pages[page] as Page)[entry % PAGE_ENTRIES] = value;
  }

  get(entry: number): number | undefined {
    return this.#pages[Math.floor(entry / PAGE_ENTRIES)]?.[entry % PAGE_ENTRIES];
  }
}

/** One bit per entry number. */
class BitPages {
  readonly #pages: Uint8Array[] = [];

  set(entry: number): void {
    const page = Math.floor(entry / PAGE_ENTRIES);
    while (this.#pages.length <= page) this.#pages.push(new Uint8Array(PAGE_ENTRIES / 8));
    const bits = this.#pages[page] as Uint8Array;
    const at = (entry % PAGE_ENTRIES) >>> 3;
    bits[at] = (bits[at] ?? 0) | (1 << (entry & 7));
  }

  has(entry: number): boolean {
    const byte = this.#pages[Math.floor(entry / PAGE_ENTRIES)]?.[(entry % PAGE_ENTRIES) >>> 3] ?? 0;
    return (byte & (1 << (entry & 7))) !== 0;
  }
}

/** Reads the hash-file entry back from its line; undefined when the line no longer parses. */
export type EntryAt = (byteOffset: number) => Promise<Auth0Password | undefined>;

/**
 * The password-hash file's entries by join id, without keeping ids or hashes: a 64-bit digest of the join id in
 * `SeenKeys` (pointing at an entry number), the line's byte offset and number, and a "claimed by a user" bit —
 * about 27 to 31 bytes an entry, depending on how full the table is. A matched entry is read back from the file.
 * Two ids sharing a digest are told apart by reading the line back; the later one is kept exactly, in a small map.
 */
export class PasswordIndex {
  readonly #keys = new SeenKeys();
  // Float64: offsets past 4 GiB stay exact (to 2^53).
  readonly #offsets = new NumberPages(() => new Float64Array(PAGE_ENTRIES));
  readonly #lines = new NumberPages(() => new Uint32Array(PAGE_ENTRIES));
  readonly #claimed = new BitPages();
  /** Ids whose digest an earlier, different id holds: about 3·10⁻⁶ odds for any at ten million entries. */
  readonly #collided = new Map<string, number>();
  readonly #entryAt: EntryAt;
  readonly #keyOf: (joinId: string) => string;
  #entries = 0;

  /** `keyOf` is a test seam: mapping every id to one key makes every digest collide. */
  constructor(entryAt: EntryAt, keyOf: (joinId: string) => string = (joinId) => joinId) {
    this.#entryAt = entryAt;
    this.#keyOf = keyOf;
  }

  /** Indexes the entry on `line` at `byteOffset`; false when an earlier line has the same join id (the first one wins). */
  async add(joinId: string, byteOffset: number, line: number): Promise<boolean> {
    const entry = this.#entries;
    const earlier = this.#keys.firstSeenOrRecord(this.#keyOf(joinId), { position: entry, source: 0 });
    if (earlier !== undefined) {
      if (this.#collided.has(joinId) || (await this.#joinIdOf(earlier.position)) === joinId) return false;
      this.#collided.set(joinId, entry);
    }
    this.#offsets.set(entry, byteOffset);
    this.#lines.set(entry, line);
    this.#entries += 1;
    return true;
  }

  /**
   * The entry a user's join id matches, read back from the file, the first time it is asked for: a user_id that
   * repeats gets no hash the second time. A digest shared with another id is no match.
   */
  async claim(joinId: string): Promise<Auth0Password | undefined> {
    const found = this.#keys.positionOf(this.#keyOf(joinId));
    if (found === undefined) return undefined;
    let entry = found.position;
    let password = await this.#passwordOf(entry);
    if (password === undefined || passwordJoinId(password) !== joinId) {
      const collided = this.#collided.get(joinId);
      if (collided === undefined) return undefined;
      entry = collided;
      password = await this.#passwordOf(entry);
      if (password === undefined || passwordJoinId(password) !== joinId) return undefined;
    }
    if (this.#claimed.has(entry)) return undefined;
    this.#claimed.set(entry);
    return password;
  }

  /** Where the entries no user claimed are, in file order (duplicate lines were never entries). */
  *unclaimed(): Generator<{ byteOffset: number; line: number }> {
    for (let entry = 0; entry < this.#entries; entry += 1) {
      if (this.#claimed.has(entry)) continue;
      yield { byteOffset: this.#offsets.get(entry) ?? 0, line: this.#lines.get(entry) ?? 0 };
    }
  }

  async #passwordOf(entry: number): Promise<Auth0Password | undefined> {
    const offset = this.#offsets.get(entry);
    return offset === undefined ? undefined : this.#entryAt(offset);
  }

  async #joinIdOf(entry: number): Promise<string | undefined> {
    const password = await this.#passwordOf(entry);
    return password === undefined ? undefined : passwordJoinId(password);
  }
}
