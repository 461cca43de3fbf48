import { useCallback, useReducer, useRef } from 'react';
import { initialWalkState, walkReducer, type WalkAction, type WalkDefaults, type WalkState } from '../screens/walk-state.js';

export interface Walk {
  /** The state React rendered last. */
  state: WalkState;
  /**
   * The state after every action dispatched so far, even those React has not rendered yet. Key handlers read
   * this one: keys can arrive faster than React re-renders (a paste, tmux send-keys, a loaded machine), and a
   * handler that read the rendered state would type into a field that has already lost the focus.
   */
  current: () => WalkState;
  dispatch: (action: WalkAction) => void;
}

export function useWalk(initial: () => WalkState = () => initialWalkState()): Walk {
  const [state, reactDispatch] = useReducer(walkReducer, undefined, initial);
  const latest = useRef<WalkState | undefined>(undefined);
  if (latest.current === undefined) latest.current = state;
  const dispatch = useCallback((action: WalkAction) => {
    // The reducer is pure, so applying it here and in React gives the same state.
    latest.current = walkReducer(latest.current ?? state, action);
    reactDispatch(action);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const current = useCallback(() => latest.current ?? state, [state]);
  return { state, current, dispatch };
}

export type { WalkDefaults };
