/**
 * Lets a face pause and resume a running push (the terminal app's `p` key). Pausing stops new operations from
 * starting; operations already sent finish normally.
 */
export class PushControl {
  #paused = false;
  readonly #listeners = new Set<() => void>();

  get paused(): boolean {
    return this.#paused;
  }

  pause(): void {
    this.#set(true);
  }

  resume(): void {
    this.#set(false);
  }

  /** Called on every change; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(paused: boolean): void {
    if (this.#paused === paused) return;
    this.#paused = paused;
    for (const listener of this.#listeners) listener();
  }
}

/** A one-shot wake-up shared by everyone waiting for "something changed" (a slot freed, a stop, a resume). */
export class ChangeNotifier {
  #waiters: (() => void)[] = [];

  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
