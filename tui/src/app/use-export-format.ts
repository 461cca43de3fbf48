import { useEffect } from 'react';
import { resolve } from 'node:path';
import { detectFormat, exportFields } from 'core-client';
import { describeProblem } from 'core-client/settings';
import { afterPause, type BackgroundWorkContext } from './background-work.js';
import type { AppState } from './state.js';

/** The export's format (and a generic export's columns), as the path is typed. */
export function useExportFormat(state: AppState, { current, dispatch, cwd }: BackgroundWorkContext): void {
  const file = state.draft.file.trim();
  useEffect(() => {
    if (file === '') return;
    return afterPause(150, async (signal) => {
      const path = resolve(cwd, file);
      const detected = await detectFormat(path);
      const format = current().draft.format === 'auto' ? detected : current().draft.format;
      const fields = format === 'ndjson' || format === 'json-array' || format === 'csv' ? await exportFields(path, format).catch(() => []) : [];
      if (!signal.aborted)
        dispatch({
          type: 'detected',
          file: current().draft.file,
          result: detected instanceof Error ? { message: describeProblem(detected, 'app'), setting: 'format' } : detected,
          fields,
        });
    });
  }, [file, state.draft.format, cwd, current, dispatch]);
}
