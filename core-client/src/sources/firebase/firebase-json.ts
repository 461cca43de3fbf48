import { readJsonArrayItems } from '../json/json-array-items.js';
import { JsonArrayScanner, JsonScanError } from '../json/json-array-scanner.js';
import type { SourceRecord } from '../source-user.js';
import { openText } from '../text/open-text.js';
import { oldIdAt } from '../generic/generic-record.js';
import { optional } from '../../optional.js';
import { FirebaseJsonUserSchema, firebaseSourceUser } from './firebase-user.js';

/** The key of a Firebase export's array of users, wherever it stands among the top-level keys. */
const USERS_KEY = 'users';

/**
 * What a file that starts with `{` is, read as one JSON object: a Firebase export (its `users` key holds an array),
 * one object of another shape (the object ends the file and has no `users` key), or not one object at all (a second
 * value follows, as in NDJSON, or the JSON is broken).
 */
export type ObjectFileShape = 'firebase' | 'other-object' | 'not-one-object';

/**
 * Takes a file's text as it is read until it shows the file's shape: `auth:export` writes `users` first, the account
 * API (`accounts:batchGet`, the Auth emulator's `emulators:export`) writes `kind` first and all of it on one line. The
 * shape is known at the first user, or at the second line of NDJSON; no more than one user's text is held.
 */
export class FirebaseShapeProbe {
  readonly #scanner = new JsonArrayScanner({ arrayKey: USERS_KEY });
  #shape: ObjectFileShape | undefined;
  #firstUser: string | undefined;

  /** The text of the array's first user, once read: other systems keep a `users` array too (a Keycloak realm). */
  get firstUser(): string | undefined {
    return this.#firstUser;
  }

  /** The next piece of the text; returns the shape once the text so far settles it. */
  feed(chunk: string): ObjectFileShape | undefined {
    if (this.#shape !== undefined) return this.#shape;
    try {
      this.#scanner.scan(chunk);
      if (this.#tookUser()) this.#shape = 'firebase';
    } catch (error) {
      if (!(error instanceof JsonScanError)) throw error;
      // A user too long is still a user of the array: the reader names it.
      this.#shape = this.#tookUser() || error.kind === 'record-too-long' ? 'firebase' : 'not-one-object';
    }
    return this.#shape;
  }

  #tookUser(): boolean {
    const [first] = this.#scanner.take();
    if (first === undefined) return false;
    if ('text' in first) this.#firstUser = first.text;
    return true;
  }

  /** The text has ended. */
  end(): ObjectFileShape {
    if (this.#shape !== undefined) return this.#shape;
    try {
      this.#scanner.end();
      this.#shape = 'firebase';
    } catch (error) {
      if (!(error instanceof JsonScanError)) throw error;
      // The scanner refuses a whole object without the key as the wrong format; anything else is an unfinished text.
      this.#shape = error.kind === 'wrong-format' ? 'other-object' : 'not-one-object';
    }
    return this.#shape;
  }
}

/** Streams the file until its shape is known (FirebaseShapeProbe). */
export async function firebaseShapeOf(file: string): Promise<ObjectFileShape> {
  const probe = new FirebaseShapeProbe();
  for await (const chunk of openText(file)) {
    const shape = probe.feed(chunk);
    if (shape !== undefined) return shape;
  }
  return probe.end();
}

/** Firebase JSON: `{"users": [...]}` from `auth:export`, or the account API's shape; streamed one user at a time. */
export async function* readFirebaseJson(file: string): AsyncGenerator<SourceRecord> {
  for await (const item of readJsonArrayItems(file, openText(file), { arrayKey: USERS_KEY })) {
    const { index } = item;
    if ('problem' in item) {
      yield { kind: 'malformed', location: { file, index }, reason: item.problem };
      continue;
    }
    const parsed = FirebaseJsonUserSchema.safeParse(item.value);
    if (parsed.success) {
      yield firebaseSourceUser(parsed.data, { file, index });
      continue;
    }
    const issue = parsed.error.issues[0];
    const field =
      issue?.path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        .join('')
        .replace(/^\./, '') || 'user';
    // zod's messages describe types, never the received value, so no hash or salt can leak into the reason.
    yield {
      kind: 'malformed',
      location: { file, index, field },
      ...optional('sourceId', field === 'localId' ? undefined : oldIdAt(item.value, 'localId')),
      reason: `field "${field}": ${issue?.message ?? 'invalid'}`,
    };
  }
}
