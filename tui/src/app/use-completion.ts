import { useEffect } from 'react';
import { findPasswordEmails } from 'core-client';
import { planOptionsOf } from 'core-client/run';
import { optional, Problem, resolveSourceLocation } from 'core-client/settings';
import { afterPause, type BackgroundWorkContext } from './background-work.js';
import { completePath } from './path-completion.js';
import { typedHashForPlan } from './plan-status.js';
import { settingsOfState } from './problems.js';
import type { FieldSpec } from './screen.js';

/** The completion offered for the focused field: a path's rest, or the one export email a password check's start names. */
export function useCompletion(focused: FieldSpec | undefined, { current, dispatch, cwd }: BackgroundWorkContext): void {
  const completionSource = focused !== undefined && (focused.kind === 'path' || focused.id === 'checkEmail') ? `${focused.id}\u0000${focused.value}` : '';
  useEffect(() => {
    if (completionSource === '') return;
    const [id = '', typed = ''] = completionSource.split('\u0000');
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
      const emails = await findPasswordEmails(resolveSourceLocation(parsed.settings.file ?? '', cwd), options, typed, 5).catch(() => []);
      return emails.length === 1 && emails[0] !== typed ? emails[0] : undefined;
    };
    return afterPause(120, async (signal) => {
      const text = await find();
      if (!signal.aborted) dispatch({ type: 'completion', completion: text === undefined ? undefined : { field: id, text } });
    });
  }, [completionSource, cwd, current, dispatch]);
}
