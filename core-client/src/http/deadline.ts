/**
 * One deadline for a whole request, headers and body together, joined with the caller's signal. undici's own
 * timeouts restart with every byte, so a body that trickles one byte at a time would otherwise never end; aborting
 * the request's signal also destroys a body being read.
 */
export class RequestDeadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | undefined;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#caller?.reason);
  #expired = false;

  constructor(ms: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      this.#controller.abort(new Error(`deadline of ${ms} ms passed`));
    }, ms);
    // The deadline must not keep a process alive on its own.
    this.#timer.unref();
    if (caller?.aborted === true) this.#onCallerAbort();
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True when the deadline (not the caller) ended the request. */
  get expired(): boolean {
    return this.#expired && this.#caller?.aborted !== true;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
