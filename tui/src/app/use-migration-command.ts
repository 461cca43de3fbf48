import { useEffect } from 'react';
import { migrationCommandOf } from 'core-client/run';
import { afterPause, type BackgroundWorkContext } from './background-work.js';
import { settingsDespiteProblems } from './problems.js';
import type { AppState } from './state.js';

/** Push or sync: a journal of another export's users makes the export a newer one, and the run a sync. */
export function useMigrationCommand(state: AppState, { current, dispatch, cwd }: BackgroundWorkContext): void {
  const commandKey = JSON.stringify([state.draft.file, state.draft.journal, state.draft.report, state.draft.auth0PasswordFile]);
  useEffect(
    () =>
      afterPause(150, async (signal) => {
        const command = await migrationCommandOf(settingsDespiteProblems(current()), cwd);
        if (!signal.aborted) dispatch({ type: 'command', command });
      }),
    [commandKey, cwd, current, dispatch],
  );
}
