import { fieldGroups } from '../plan/field-groups.js';
import { SeenKeys } from '../seen-keys.js';

/** Flags of an account's state, one byte each. */
export const StateFlag = {
  /** This migration created the core user (only then may a sync change its password or email, or remove it). */
  createdHere: 1,
  /** A user that was in the core before the migration, left untouched (`--existing skip`): a sync leaves it too. */
  untouched: 2,
  /** The migration removed it again (disabled, or gone from the old system): a later export that has it creates it anew. */
  removed: 4,
  /** Seen in the export this run reads (not written to the journal). */
  seen: 8,
  /** The first account of its user: one per old id (not written to the journal). */
  firstOfUser: 16,
  /** The sync's first pass met the old id in the newer export (not written to the journal). */
  present: 32,
  /** The sync's first pass met the old id with an email or hash the migration brought over (not written to the journal). */
  recognised: 64,
} as const;

/** The flags a run keeps in memory only: a state line read or written never changes them. */
const IN_MEMORY_FLAGS = StateFlag.seen | StateFlag.firstOfUser | StateFlag.present | StateFlag.recognised;

const GROUPS = fieldGroups.length;
const NO_NEXT = -1;

/**
 * What the journal says the migration last brought over, per account of an old user (its password login, each
 * third-party account): a 32-bit digest per field group (and of a password's credential as exported), flags, and where its latest state line is in the journal
 * (for the ids, read only for the few accounts a sync changes or removes). Accounts are found by old id and role
 * through 64-bit digests (`SeenKeys`), never through strings: about 95 to 115 bytes an account (`npm run bench`).
 */
export class UserStates {
  readonly #accounts = new SeenKeys(1 << 12);
  readonly #firstOfUser = new SeenKeys(1 << 12);
  #next = new Int32Array(1 << 12);
  #digests = new Uint32Array((1 << 12) * GROUPS);
  #flags = new Uint8Array(1 << 12);
  #offsets = new Float64Array(1 << 12);
  #wholes = new Uint32Array(1 << 12);
  #exported = new Uint32Array(1 << 12);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get bytesUsed(): number {
    return (
      this.#accounts.bytesUsed +
      this.#firstOfUser.bytesUsed +
      this.#next.byteLength +
      this.#digests.byteLength +
      this.#flags.byteLength +
      this.#offsets.byteLength +
      this.#wholes.byteLength +
      this.#exported.byteLength
    );
  }

  /** The account's index, or undefined when the journal has no state of it. */
  find(sourceId: string, role: string): number | undefined {
    return this.#accounts.positionOf(accountKey(sourceId, role))?.position;
  }

  /** Every account of an old user the journal has a state of. */
  accountsOf(sourceId: string): number[] {
    const first = this.#firstOfUser.positionOf(sourceId);
    return first === undefined ? [] : this.accountsFrom(first.position);
  }

  /** Records (or replaces) an account's latest state; returns its index. */
  remember(sourceId: string, role: string, digests: readonly number[], whole: number, flags: number, offset: number, exported = 0): number {
    const key = accountKey(sourceId, role);
    const known = this.#accounts.positionOf(key);
    const index = known?.position ?? this.#add(key, sourceId);
    for (let group = 0; group < GROUPS; group += 1) this.#digests[index * GROUPS + group] = digests[group] ?? 0;
    this.#flags[index] = (flags & ~IN_MEMORY_FLAGS) | ((this.#flags[index] ?? 0) & IN_MEMORY_FLAGS);
    this.#offsets[index] = offset;
    this.#wholes[index] = whole;
    this.#exported[index] = exported;
    return index;
  }

  digest(index: number, group: number): number {
    return this.#digests[index * GROUPS + group] ?? 0;
  }

  /** The digest of every group together, or 0 when some group was not brought over. */
  whole(index: number): number {
    return this.#wholes[index] ?? 0;
  }

  /** The digest of the credential as the export held it when its hash was last brought over, or 0 when unknown. */
  exported(index: number): number {
    return this.#exported[index] ?? 0;
  }

  flags(index: number): number {
    return this.#flags[index] ?? 0;
  }

  has(index: number, flag: number): boolean {
    return ((this.#flags[index] ?? 0) & flag) !== 0;
  }

  markSeen(index: number): void {
    this.mark(index, StateFlag.seen);
  }

  /** Sets one of the in-memory flags (`seen`, `present`, `recognised`). */
  mark(index: number, flag: number): void {
    this.#flags[index] = (this.#flags[index] ?? 0) | (flag & IN_MEMORY_FLAGS);
  }

  /** The first account of each old user, one index per user. */
  *users(): Generator<number> {
    for (let index = 0; index < this.#size; index += 1) if (this.has(index, StateFlag.firstOfUser)) yield index;
  }

  /** Every account of the user whose first account this is (`users()`). */
  accountsFrom(first: number): number[] {
    const found: number[] = [];
    for (let at = first; at !== NO_NEXT; at = this.#next[at] ?? NO_NEXT) found.push(at);
    return found;
  }

  /** Where the account's latest state line starts in the journal. */
  offset(index: number): number {
    return this.#offsets[index] ?? 0;
  }

  /** Accounts still in the core that the export being read did not have, first account of each user first. */
  *unseen(): Generator<number> {
    for (let index = 0; index < this.#size; index += 1) {
      const flags = this.#flags[index] ?? 0;
      if ((flags & (StateFlag.seen | StateFlag.removed)) === 0) yield index;
    }
  }

  #add(key: string, sourceId: string): number {
    const index = this.#size;
    if (index === this.#flags.length) this.#grow();
    this.#accounts.recordLatest(key, { position: index, source: 0 });
    const first = this.#firstOfUser.positionOf(sourceId);
    if (first === undefined) {
      this.#firstOfUser.recordLatest(sourceId, { position: index, source: 0 });
      this.#next[index] = NO_NEXT;
      this.#flags[index] = StateFlag.firstOfUser;
    } else {
      // Linked after the first: a user has one or a few accounts.
      this.#next[index] = this.#next[first.position] ?? NO_NEXT;
      this.#next[first.position] = index;
    }
    this.#size += 1;
    return index;
  }

  #grow(): void {
    const capacity = this.#flags.length * 2;
    const next = new Int32Array(capacity);
    next.set(this.#next);
    this.#next = next;
    const digests = new Uint32Array(capacity * GROUPS);
    digests.set(this.#digests);
    this.#digests = digests;
    const flags = new Uint8Array(capacity);
    flags.set(this.#flags);
    this.#flags = flags;
    const offsets = new Float64Array(capacity);
    offsets.set(this.#offsets);
    this.#offsets = offsets;
    const wholes = new Uint32Array(capacity);
    wholes.set(this.#wholes);
    this.#wholes = wholes;
    const exported = new Uint32Array(capacity);
    exported.set(this.#exported);
    this.#exported = exported;
  }
}

function accountKey(sourceId: string, role: string): string {
  return `${sourceId}\u0000${role}`;
}
