import { inspect } from 'node:util';

const MASK = '***';

/**
 * A value that must never be shown: api-key, signer key, a password typed for a check.
 * Every way JavaScript turns a value into text prints `***`; only `reveal()` gives the value,
 * so each place that needs the real value is easy to find and review.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  get isEmpty(): boolean {
    return this.#value.length === 0;
  }

  /** Redacts this secret's value wherever it appears in a text (e.g. an error message from elsewhere). */
  redact(text: string): string {
    return this.#value.length === 0 ? text : text.split(this.#value).join(MASK);
  }

  toString(): string {
    return MASK;
  }

  toJSON(): string {
    return MASK;
  }

  [Symbol.toPrimitive](): string {
    return MASK;
  }

  [inspect.custom](): string {
    return `Secret(${MASK})`;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}
