import { hash } from 'node:crypto';
import { fieldGroups, fieldGroupTexts, type FieldGroup } from '../plan/field-groups.js';
import type { ImportOperation, LoginTimeWait } from '../plan/operation.js';
import type { OpenJournalOptions } from './journal-types.js';

const DIGEST_CHECK_TEXT = 'core-migrate journal digest check';

/**
 * The journal's keyed digests: of an operation's body (a changed record is sent again), of each field group and of
 * the whole account (what a sync compares), of a password's exported credential. The key comes from the api-key and
 * the journal's salt and is never written, so the journal alone confirms no guessed email.
 */
export class JournalDigests {
  readonly #key: string;
  readonly #bodies = new WeakMap<ImportOperation | LoginTimeWait, string>();

  constructor(options: Pick<OpenJournalOptions, 'digestKey'>, salt: string) {
    // The digest key as text: derived from the api-key (HKDF inside `digestKey`) and the journal's salt.
    this.#key = options.digestKey(salt).toString('base64');
  }

  /** A digest of a fixed text, kept in the header: tells "another api-key" from "every record changed". */
  get check(): string {
    return keyedDigest(this.#key, DIGEST_CHECK_TEXT);
  }

  /** The keyed digest of an operation's body: a changed record gets another digest and is sent again. */
  body(operation: ImportOperation | LoginTimeWait): string {
    // Asked several times per operation (lookup, step lines, outcome line): computed once.
    let digest = this.#bodies.get(operation);
    if (digest === undefined) {
      digest = keyedDigest(this.#key, `${operation.operationKey}\n${JSON.stringify(bodyOf(operation))}`);
      this.#bodies.set(operation, digest);
    }
    return digest;
  }

  /** The keyed 32-bit digest of each field group of an operation, in `fieldGroups` order (see JournalStateEntrySchema). */
  groups(operation: ImportOperation): number[] {
    const texts = fieldGroupTexts(operation);
    return fieldGroups.map((group) => this.#group(group, texts[group]));
  }

  /** The digest of one field group, as `groups` has it (a sync's first pass compares the email alone). */
  group(operation: ImportOperation, group: FieldGroup): number {
    return this.#group(group, fieldGroupTexts(operation)[group]);
  }

  #group(group: FieldGroup, text: string): number {
    return Number.parseInt(hash('sha256', `${this.#key}\n${group}\n${text}`, 'hex').slice(0, 8), 16);
  }

  /**
   * One keyed 32-bit digest of all the groups of an operation: equal to the journalled one, the account is unchanged
   * without the six group digests (a sync's delta reads mostly unchanged users).
   */
  whole(operation: ImportOperation): number {
    const texts = fieldGroupTexts(operation);
    const all = fieldGroups.map((group) => `${group}\n${texts[group]}`).join('\n');
    return Number.parseInt(hash('sha256', `${this.#key}\nwhole\n${all}`, 'hex').slice(0, 8), 16);
  }

  /**
   * A keyed 32-bit digest of a password account's credential as the export holds it (before hash parameters and
   * wrappers); 0 for a third-party account, which has none.
   */
  exported(operation: ImportOperation): number {
    if (operation.kind !== 'passwordImport') return 0;
    return Number.parseInt(hash('sha256', `${this.#key}\nexported\n${operation.exportedCredential}`, 'hex').slice(0, 8), 16);
  }
}

/**
 * A key-prefixed one-shot SHA-256 rather than an HMAC: the same property here (the key is fixed-length and the
 * digest only compared, never extended), at a fraction of the cost per operation. 64 bits are kept.
 */
function keyedDigest(key: string, text: string): string {
  return hash('sha256', `${key}\n${text}`, 'base64url').slice(0, 11);
}

/** What a parked user's digest covers: all the store holds of it, so a changed record is parked again. */
function bodyOf(operation: ImportOperation | LoginTimeWait): unknown {
  if (operation.kind !== 'loginTimeWait') return operation.body;
  const { email, identity } = operation;
  return 'oldSystem' in operation ? { email, oldSystem: operation.oldSystem, identity } : { email, legacyHash: operation.legacyHash, identity };
}
