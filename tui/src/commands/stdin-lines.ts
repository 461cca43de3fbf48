import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Standard input read one line at a time, each line only when asked for: `hash verify` may take the hash, the salt
 * and the password from it, in that order. What arrived after a line is kept for the next one; between lines the
 * stream is paused, so a prompt can take it over.
 */
export class StdinLines {
  readonly #input: Readable;
  readonly #decoder = new StringDecoder('utf8');
  #buffered = '';
  #ended = false;

  constructor(input: Readable) {
    this.#input = input;
  }

  /** The next line without its line ending; the rest of the input when it has no newline; undefined at the end. */
  next(): Promise<string | undefined> {
    if (this.#input.readableEnded) this.#ended = true;
    const ready = this.#take();
    if (ready !== null) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const detach = (): void => {
        this.#input.off('data', onData).off('end', onEnd).off('error', onError);
        this.#input.pause();
      };
      const onData = (chunk: Buffer | string): void => {
        this.#buffered += typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
        const line = this.#take();
        if (line === null) return;
        detach();
        resolve(line);
      };
      const onEnd = (): void => {
        this.#buffered += this.#decoder.end();
        this.#ended = true;
        detach();
        resolve(this.#take() ?? undefined);
      };
      const onError = (error: Error): void => {
        detach();
        reject(error);
      };
      this.#input.on('data', onData).once('end', onEnd).once('error', onError);
      this.#input.resume();
    });
  }

  /** A complete line, or what is left at the end (undefined when nothing is); null when more input is needed. */
  #take(): string | undefined | null {
    const newline = this.#buffered.indexOf('\n');
    if (newline >= 0) {
      const line = this.#buffered.slice(0, newline);
      this.#buffered = this.#buffered.slice(newline + 1);
      return line.replace(/\r$/, '');
    }
    if (!this.#ended) return null;
    const rest = this.#buffered;
    this.#buffered = '';
    return rest.length > 0 ? rest.replace(/\r$/, '') : undefined;
  }
}
