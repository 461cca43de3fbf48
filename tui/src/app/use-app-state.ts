import { useCallback, useReducer, useRef } from 'react';
import { appReducer, type AppAction, type AppState } from './state.js';

export interface AppStore {
  /** The state React rendered last. */
  state: AppState;
  /**
   * The state after every action dispatched so far, even those React has not rendered yet. The key router reads
   * this one: keys can arrive faster than React re-renders (a paste, a script, a loaded machine), and a key must go
   * to the screen and field the state says are current, never to one that is being left.
   */
  current: () => AppState;
  dispatch: (action: AppAction) => void;
}

export function useAppState(initial: () => AppState): AppStore {
  const [state, reactDispatch] = useReducer(appReducer, undefined, initial);
  const latest = useRef<AppState | undefined>(undefined);
  if (latest.current === undefined) latest.current = state;
  const dispatch = useCallback((action: AppAction) => {
    // The reducer is pure, so applying it here and in React gives the same state.
    latest.current = appReducer(latest.current ?? state, action);
    reactDispatch(action);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Stable, so effects that read the latest state do not run again at every render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const current = useCallback((): AppState => latest.current ?? state, []);
  return { state, current, dispatch };
}
