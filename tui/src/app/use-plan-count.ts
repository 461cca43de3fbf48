import { useEffect } from 'react';
import { countPlan, planOptionsOf } from 'core-client/run';
import { optional, Problem, resolveSourceLocation } from 'core-client/settings';
import { afterPause, type BackgroundWorkContext } from './background-work.js';
import { currentPlanKey, typedHashForPlan } from './plan-status.js';
import { appProblemOf, describeFailure, settingsOrProblem } from './problems.js';
import type { AppState } from './state.js';

/**
 * The plan, once asked for, follows every change of what it is read with, and a plan that failed is read again when
 * asked again (`planAttempt`); a change abandons the pass under way.
 */
export function usePlanCount(state: AppState, { current, dispatch, cwd }: BackgroundWorkContext): void {
  const planKey = currentPlanKey(state);
  useEffect(() => {
    if (!state.planRequested) return;
    return afterPause(200, async (signal) => {
      const latest = current();
      const parsed = settingsOrProblem(latest);
      if ('problem' in parsed) return dispatch({ type: 'planFailed', key: planKey, problem: parsed.problem });
      const typed = typedHashForPlan(latest);
      const options = await planOptionsOf(parsed.settings, { cwd, ...optional('hashConfig', typed) });
      if (options instanceof Problem) return dispatch({ type: 'planFailed', key: planKey, problem: appProblemOf(options) });
      dispatch({ type: 'planProgress', key: planKey, records: 0, operations: 0 });
      try {
        const counted = await countPlan(resolveSourceLocation(parsed.settings.file ?? '', cwd), options, {
          signal,
          onProgress: ({ records, operations }) => dispatch({ type: 'planProgress', key: planKey, records, operations }),
        });
        if (signal.aborted) return;
        if (counted instanceof Problem) dispatch({ type: 'planFailed', key: planKey, problem: appProblemOf(counted) });
        else dispatch({ type: 'planFinished', key: planKey, counted });
      } catch (error) {
        if (!signal.aborted) dispatch({ type: 'planFailed', key: planKey, problem: { message: describeFailure(error) } });
      }
    });
  }, [planKey, state.planRequested, state.planAttempt, cwd, current, dispatch]);
}
