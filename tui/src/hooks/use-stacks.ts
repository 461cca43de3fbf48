import { useEffect, useState } from 'react';
import { listPulumiStacks } from 'core-client/connection/pulumi-cli';

export type StacksState = { state: 'loading' } | { state: 'listed'; names: string[] } | { state: 'unavailable'; reason: string };

/** The Pulumi stacks the operator can pick, listed once when the Connect screen opens (if the CLI is there). */
export function useStacks(pulumiBinary: string | undefined): StacksState {
  const [stacks, setStacks] = useState<StacksState>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    void listPulumiStacks(pulumiBinary === undefined ? {} : { pulumiBinary }).then((result) => {
      if (!current) return;
      if (result instanceof Error) {
        // The full sentence is written for the command line (flags); here one line says what to do on this screen.
        const reason = result.kind === 'pulumiMissing' ? 'Pulumi CLI not found, so no stacks to list: type the core below.' : result.message;
        setStacks({ state: 'unavailable', reason });
      } else
        setStacks(result.length === 0 ? { state: 'unavailable', reason: 'no Pulumi stacks here: type the core below' } : { state: 'listed', names: result });
    });
    return () => {
      current = false;
    };
  }, [pulumiBinary]);
  return stacks;
}
