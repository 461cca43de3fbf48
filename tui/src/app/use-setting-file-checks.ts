import { useEffect } from 'react';
import { afterPause, type BackgroundWorkContext } from './background-work.js';
import { checkedSettings, checkSettingFiles } from './field-checks.js';
import { settingsDespiteProblems } from './problems.js';
import type { AppState } from './state.js';

/**
 * Files checked as they are entered, and again when asked (`fileCheckRound`): a missing input, an output that cannot be
 * written, at the field that names it.
 */
export function useSettingFileChecks(state: AppState, { current, dispatch, cwd }: BackgroundWorkContext): void {
  const checkedKey = JSON.stringify([
    ...checkedSettings.map((key) => state.draft[key as keyof typeof state.draft]),
    state.draft.dryRun,
    state.draft.core,
    state.fileCheckRound,
  ]);
  useEffect(
    () =>
      afterPause(200, async (signal) => {
        const { problems, warnings } = await checkSettingFiles(settingsDespiteProblems(current()), cwd);
        if (signal.aborted) return;
        for (const setting of checkedSettings) dispatch({ type: 'fieldProblem', field: setting, problem: problems[setting] });
        dispatch({ type: 'warnings', warnings });
      }),
    [checkedKey, cwd, current, dispatch],
  );
}
