import { useEffect } from 'react';
import { listPulumiStacks } from 'core-client';
import { describeProblem, optional } from 'core-client/settings';
import type { AppAction } from './state.js';

/** The Pulumi stacks, listed once (when the CLI is there). */
export function usePulumiStacks(dispatch: (action: AppAction) => void, pulumiBinary: string | undefined): void {
  useEffect(() => {
    let live = true;
    void listPulumiStacks(optional('pulumiBinary', pulumiBinary)).then((result) => {
      if (!live) return;
      if (result instanceof Error) {
        const reason = result.code === 'pulumiMissing' ? 'no Pulumi CLI: type the core below' : describeProblem(result, 'app');
        dispatch({ type: 'stacks', stacks: { state: 'unavailable', reason } });
      } else
        dispatch({
          type: 'stacks',
          stacks: result.length === 0 ? { state: 'unavailable', reason: 'no Pulumi stacks here' } : { state: 'listed', names: result },
        });
    });
    return () => {
      live = false;
    };
  }, [pulumiBinary, dispatch]);
}
