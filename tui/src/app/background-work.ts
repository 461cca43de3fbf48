import type { AppAction, AppState } from './state.js';

/** What every piece of the app's background work reads and reports to. */
export interface BackgroundWorkContext {
  /** The state after every action dispatched so far: the work reads it when it starts, not when it was scheduled. */
  current: () => AppState;
  dispatch: (action: AppAction) => void;
  cwd: string;
}

/**
 * Starts `work` once the operator has paused for `delayMs`, and returns the effect's cleanup: a change before then
 * cancels it, and a change while it runs aborts its signal, so a stale answer is never dispatched.
 */
export function afterPause(delayMs: number, work: (signal: AbortSignal) => Promise<void>): () => void {
  const abort = new AbortController();
  const timer = setTimeout(() => void work(abort.signal), delayMs);
  return () => {
    abort.abort();
    clearTimeout(timer);
  };
}
