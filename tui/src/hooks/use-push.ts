import { useCallback, useRef } from 'react';
import { PushControl } from 'core-client/push/control';
import { concurrencyLimitsFor } from 'core-client/push/aimd';
import { readCredentials } from 'core-client/push/credentials';
import { runMigration } from 'core-client/push/migration';
import type { PushEvent } from 'core-client/push/events';
import type { Secret } from 'core-client/secret';
import type { ResolvedCore, WalkAction } from '../screens/walk-state.js';
import type { PlanRequest } from './plan-request.js';
import { clientFor } from './preflight.js';
import { foldPushEvent, initialPushView, type PushProgressView } from './push-progress.js';

export interface PushSettings {
  request: PlanRequest;
  core: ResolvedCore;
  total: number;
  concurrency: number;
  dryRun: boolean;
  journalPath: string;
  reportPath: string;
  /** Known accounts (email, whitespace, password per line) to check before and sign in after the push. */
  credentialsPath?: string;
}

export interface PushHandle {
  start: (settings: PushSettings) => void;
  togglePause: () => void;
  /** First call: stop taking new operations and flush the journal; a second call abandons requests in flight. */
  stop: () => void;
}

function redactBoth(text: string, apiKey: Secret, signerKey: Secret | undefined): string {
  const clean = apiKey.redact(text);
  return signerKey === undefined ? clean : signerKey.redact(clean);
}

/** Runs core-client's push engine and turns its events into actions; the engine decides everything. */
export function usePush(dispatch: (action: WalkAction) => void): PushHandle {
  const running = useRef<{ stop: AbortController; abandon: AbortController; control: PushControl; view: PushProgressView } | undefined>(undefined);

  const start = useCallback(
    (settings: PushSettings) => {
      if (running.current !== undefined) return;
      const run = { stop: new AbortController(), abandon: new AbortController(), control: new PushControl(), view: initialPushView() };
      running.current = run;
      const onEvent = (event: PushEvent) => {
        run.view = { ...foldPushEvent(run.view, event), paused: run.control.paused };
        dispatch({ type: 'pushProgress', view: run.view });
      };
      dispatch({ type: 'goTo', step: 'push' });
      void (async () => {
        const signerKey = settings.request.options.hashConfig?.signerKey;
        const client = clientFor(settings.core, Math.max(settings.concurrency, 1), signerKey);
        try {
          const credentials = settings.credentialsPath === undefined ? undefined : await readCredentials(settings.credentialsPath);
          if (credentials instanceof Error) throw credentials;
          const summary = await runMigration({
            sourcePath: settings.request.path,
            planOptions: settings.request.options,
            total: settings.total,
            client,
            journalPath: settings.journalPath,
            reportPath: settings.reportPath,
            concurrency: concurrencyLimitsFor(settings.concurrency),
            dryRun: settings.dryRun,
            signal: run.stop.signal,
            abandonSignal: run.abandon.signal,
            control: run.control,
            onEvent,
            ...(credentials === undefined ? {} : { credentials }),
            // No output may overwrite the credentials file either (runMigration checks the export and its own outputs).
            ...(settings.credentialsPath === undefined ? {} : { inputFiles: [{ role: 'the credentials file', path: settings.credentialsPath }] }),
          });
          dispatch({ type: 'pushFinished', summary });
        } catch (error) {
          dispatch({ type: 'pushFailed', message: error instanceof Error ? redactBoth(error.message, settings.core.apiKey, signerKey) : String(error) });
        } finally {
          await client.close();
        }
      })();
    },
    [dispatch],
  );

  const togglePause = useCallback(() => {
    const run = running.current;
    if (run === undefined) return;
    if (run.control.paused) run.control.resume();
    else run.control.pause();
    run.view = { ...run.view, paused: run.control.paused };
    dispatch({ type: 'pushProgress', view: run.view });
  }, [dispatch]);

  const stop = useCallback(() => {
    const run = running.current;
    if (run === undefined) return;
    if (run.stop.signal.aborted) run.abandon.abort();
    else run.stop.abort();
    run.control.resume();
  }, []);

  return { start, togglePause, stop };
}
