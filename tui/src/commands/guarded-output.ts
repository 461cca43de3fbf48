import { printableLines } from 'core-client/printable';
import type { CommandIO } from '../io.js';

/**
 * Standard output that may be closed under the push (`push ... | head`): the EPIPE is caught, stops the push as a
 * Ctrl-C would (what was sent is journalled), and nothing more is written to it. Every line goes through
 * `printableLines`, so no value from an export reaches the terminal raw.
 */
export class GuardedOutput {
  readonly #io: CommandIO;
  #closed = false;
  #onClosed: (() => void) | undefined;
  readonly #onError = (error: NodeJS.ErrnoException): void => {
    if (this.#closed) return;
    this.#closed = true;
    const code = error.code ?? 'error';
    this.#io.stderr.write(
      `core-migrate push: the standard output was closed (${code}); nothing more is printed and the push stops as on Ctrl-C ` +
        '(operations in flight finish and are journalled). Run the same command again to resume.\n',
    );
    this.#onClosed?.();
  };

  constructor(io: CommandIO) {
    this.#io = io;
    io.stdout.on('error', this.#onError);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Called once when standard output goes away (at most one listener: the running push). */
  onClosed(listener: (() => void) | undefined): void {
    this.#onClosed = listener;
  }

  write(text: string): void {
    if (this.#closed || this.#io.stdout.destroyed) return;
    this.#io.stdout.write(printableLines(text));
  }

  /** Cursor controls of the progress line, which must not be escaped. */
  writeRaw(text: string): void {
    if (this.#closed || this.#io.stdout.destroyed) return;
    this.#io.stdout.write(text);
  }

  release(): void {
    this.#onClosed = undefined;
    // Left attached: a write still queued when the reader went away must not crash the process after the push.
    if (!this.#closed) this.#io.stdout.removeListener('error', this.#onError);
  }
}
