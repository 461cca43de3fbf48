import { useEffect } from 'react';
import { resolve } from 'node:path';
import { listPulumiStacks, findPasswordEmails, detectFormat, exportFields } from 'core-client';
import { countPlan, migrationCommandOf, planOptionsOf } from 'core-client/run';
import { describeProblem, Problem, optional } from 'core-client/settings';
import { checkedSettings, checkSettingFiles } from './field-checks.js';
import type { FieldSpec } from './screen.js';
import { completePath } from './path-completion.js';
import { currentPlanKey, typedHashForPlan } from './plan-status.js';
import { appProblemOf, settingsDespiteProblems, settingsOfState, settingsOrProblem } from './problems.js';
import type { AppAction, AppState } from './state.js';

export interface BackgroundWorkProps {
  state: AppState;
  current: () => AppState;
  dispatch: (action: AppAction) => void;
  cwd: string;
  focused: FieldSpec | undefined;
  pulumiBinary?: string;
}

/**
 * The work the app does as the operator types, each piece started (and a stale one abandoned) when what it depends
 * on changes: the Pulumi stacks, the export's format and columns, the files the settings name, the plan once asked
 * for, and the completion of the focused path or email.
 */
export function useBackgroundWork({ state, current, dispatch, cwd, focused, pulumiBinary }: BackgroundWorkProps): void {
  // The Pulumi stacks, listed once (when the CLI is there).
  useEffect(() => {
    let live = true;
    void listPulumiStacks(optional('pulumiBinary', pulumiBinary)).then((result) => {
      if (!live) return;
      if (result instanceof Error) {
        const reason = result.code === 'pulumiMissing' ? 'no Pulumi CLI: type the core below' : result.message;
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

  // The export's format (and a generic export's columns), as the path is typed.
  const file = state.draft.file.trim();
  useEffect(() => {
    if (file === '') return;
    let live = true;
    const timer = setTimeout(() => {
      void (async () => {
        const path = resolve(cwd, file);
        const detected = await detectFormat(path);
        const format = current().draft.format === 'auto' ? detected : current().draft.format;
        const fields = format === 'ndjson' || format === 'json-array' || format === 'csv' ? await exportFields(path, format).catch(() => []) : [];
        if (live)
          dispatch({
            type: 'detected',
            file: current().draft.file,
            result: detected instanceof Error ? { message: describeProblem(detected, 'app'), setting: 'format' } : detected,
            fields,
          });
      })();
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [file, state.draft.format, cwd, current, dispatch]);

  // Files checked as they are entered: a missing input, an output that cannot be written, at the field that names it.
  const checkedKey = JSON.stringify([...checkedSettings.map((key) => state.draft[key as keyof typeof state.draft]), state.draft.dryRun, state.draft.core]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void checkSettingFiles(settingsDespiteProblems(current()), cwd).then(({ problems, warnings }) => {
        if (!live) return;
        for (const setting of checkedSettings) dispatch({ type: 'fieldProblem', field: setting, problem: problems[setting] });
        dispatch({ type: 'warnings', warnings });
      });
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [checkedKey, cwd, current, dispatch]);

  // Push or sync: a journal of another export's users makes the export a newer one, and the run a sync.
  const commandKey = JSON.stringify([state.draft.file, state.draft.journal, state.draft.report, state.draft.auth0PasswordFile]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void migrationCommandOf(settingsDespiteProblems(current()), cwd).then((command) => {
        if (live) dispatch({ type: 'command', command });
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [commandKey, cwd, current, dispatch]);

  // The plan, once asked for, follows every change of what it is read with; a change abandons the pass under way.
  const planKey = currentPlanKey(state);
  useEffect(() => {
    if (!state.planRequested) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      void (async () => {
        const latest = current();
        const parsed = settingsOrProblem(latest);
        if ('problem' in parsed) return dispatch({ type: 'planFailed', key: planKey, problem: parsed.problem });
        const typed = typedHashForPlan(latest);
        const options = await planOptionsOf(parsed.settings, { cwd, ...optional('hashConfig', typed) });
        if (options instanceof Problem) return dispatch({ type: 'planFailed', key: planKey, problem: appProblemOf(options) });
        dispatch({ type: 'planProgress', key: planKey, records: 0, operations: 0 });
        try {
          const counted = await countPlan(resolve(cwd, parsed.settings.file ?? ''), options, {
            signal: abort.signal,
            onProgress: ({ records, operations }) => dispatch({ type: 'planProgress', key: planKey, records, operations }),
          });
          if (abort.signal.aborted) return;
          if (counted instanceof Problem) dispatch({ type: 'planFailed', key: planKey, problem: appProblemOf(counted) });
          else dispatch({ type: 'planFinished', key: planKey, counted });
        } catch (error) {
          if (!abort.signal.aborted)
            dispatch({ type: 'planFailed', key: planKey, problem: { message: error instanceof Error ? error.message : String(error) } });
        }
      })();
    }, 200);
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [planKey, state.planRequested, cwd, current, dispatch]);

  const completionSource = focused !== undefined && (focused.kind === 'path' || focused.id === 'checkEmail') ? `${focused.id}\u0000${focused.value}` : '';
  useEffect(() => {
    if (completionSource === '') return;
    const [id = '', typed = ''] = completionSource.split('\u0000');
    let live = true;
    const find = async (): Promise<string | undefined> => {
      if (id !== 'checkEmail') {
        if (typed === '') return undefined;
        const completed = await completePath(typed, cwd);
        return completed.completed.length > typed.length ? completed.completed : undefined;
      }
      const latest = current();
      const parsed = settingsOfState(latest);
      if (typed.trim() === '' || !('settings' in parsed)) return undefined;
      const typedHash = typedHashForPlan(latest);
      const options = await planOptionsOf(parsed.settings, { cwd, ...optional('hashConfig', typedHash) });
      if (options instanceof Problem) return undefined;
      const emails = await findPasswordEmails(resolve(cwd, parsed.settings.file ?? ''), options, typed, 5).catch(() => []);
      return emails.length === 1 && emails[0] !== typed ? emails[0] : undefined;
    };
    const timer = setTimeout(() => {
      void find().then((text) => {
        if (live) dispatch({ type: 'completion', completion: text === undefined ? undefined : { field: id, text } });
      });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [completionSource, cwd, current, dispatch]);
}
