import { useCallback, useEffect, useRef, useState } from 'react';
import { resolve } from 'node:path';
import { useApp, useInput } from 'ink';
import { Secret } from 'core-client/secret';
import { detectFormat } from 'core-client/sources/detect-format';
import type { PushSummary } from 'core-client/push/summary';
import { ThemeProvider } from './components/theme.js';
import { checkKnownPassword, findPasswordEmails } from './hooks/password-check.js';
import { hashConfigFromForm, planRequestFrom } from './hooks/plan-request.js';
import { checkConnection, describeCore } from './hooks/preflight.js';
import { initialPushView } from './hooks/push-progress.js';
import { resumeCommandFor, saveHashParameters } from './hooks/resume-command.js';
import { usePlan } from './hooks/use-plan.js';
import { usePush } from './hooks/use-push.js';
import { useStacks } from './hooks/use-stacks.js';
import { useWalk } from './hooks/use-walk.js';
import { ConnectScreen } from './screens/connect-screen.js';
import { HashFamiliesScreen } from './screens/hash-families-screen.js';
import { PushScreen } from './screens/push-screen.js';
import { ReviewScreen } from './screens/review-screen.js';
import { SourceScreen } from './screens/source-screen.js';
import { SummaryScreen } from './screens/summary-screen.js';
import { initialWalkState, type WalkDefaults } from './screens/walk-state.js';

export interface AppProps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  colour: boolean;
  defaults?: WalkDefaults;
  pulumiBinary?: string;
  /** Called once when the operator leaves, with the push's summary if one ran. */
  onDone?: (summary: PushSummary | undefined) => void;
}

/** The walk: Connect → Source → Hashes → Review → Push → Summary. Screens collect settings; core-client decides. */
export function App({ env, cwd, colour, defaults, pulumiBinary, onDone }: AppProps) {
  const { exit } = useApp();
  const { state, current, dispatch } = useWalk(() => {
    const apiKey = env['CORE_API_KEY'];
    return initialWalkState({
      ...defaults,
      connect: { ...(apiKey === undefined || apiKey === '' ? {} : { apiKey: new Secret(apiKey) }), coreUrl: env['CORE_URL'] ?? '', ...defaults?.connect },
    });
  });
  const [emailCandidates, setEmailCandidates] = useState<string[]>([]);
  const stacks = useStacks(pulumiBinary);
  const planRequest = planRequestFrom(state, cwd);
  usePlan(planRequest, dispatch);
  const push = usePush(dispatch);
  const pushStarted = useRef(false);

  /** Aborted when the app quits: a known-password check under way stops with it (item 12 of issue 11). */
  const checks = useRef(new AbortController());
  const quit = useCallback(() => {
    checks.current.abort(new Error('the app was closed'));
    onDone?.(current().pushSummary);
    exit();
  }, [exit, onDone, current]);

  useInput((input, key) => {
    // During a push Ctrl-C is the safe stop (the push screen handles it); anywhere else it leaves.
    if (key.ctrl && input === 'c' && current().step !== 'push') quit();
  });

  const path = state.source.path.trim();
  useEffect(() => {
    if (path === '') return;
    let live = true;
    const timer = setTimeout(() => {
      void detectFormat(resolve(cwd, path)).then((result) => {
        if (live) dispatch({ type: 'formatDetected', result });
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, cwd, dispatch]);

  const planCurrent = planRequest !== undefined && state.plan?.optionsKey === planRequest.key;
  const core = state.preflight.state === 'done' ? state.preflight.value.core : undefined;
  const target = core === undefined ? '(not connected)' : describeCore(core);
  const journalPath = resolve(cwd, state.review.journalPath.trim());
  const reportPath = resolve(cwd, state.review.reportPath.trim());

  const checkCore = () => {
    dispatch({ type: 'preflightStarted' });
    void checkConnection(current().connect, env, pulumiBinary).then((result) => dispatch({ type: 'preflightFinished', result }));
  };
  const completeEmail = () => {
    const request = planRequestFrom(current(), cwd);
    if (request === undefined) return;
    void findPasswordEmails(request, current().hashes.checkEmail, 5).then((found) => {
      setEmailCandidates(found);
      const only = found.length === 1 ? found[0] : undefined;
      if (only !== undefined) dispatch({ type: 'editHashes', patch: { checkEmail: only, cursorFromEnd: 0 } });
    });
  };
  const checkPassword = () => {
    const latest = current();
    const request = planRequestFrom(latest, cwd);
    if (request === undefined) return;
    const config = hashConfigFromForm(latest.hashes);
    dispatch({ type: 'checkStarted' });
    checkKnownPassword(
      request,
      latest.hashes.checkEmail,
      latest.hashes.checkPassword,
      config.state === 'parsed' ? config.config.signerKey : undefined,
      checks.current.signal,
    ).then(
      (result) => dispatch({ type: 'checkFinished', result }),
      (error: unknown) => dispatch({ type: 'checkFinished', result: error instanceof Error ? error : new Error(String(error)) }),
    );
  };
  const startPush = () => {
    const latest = current();
    const request = planRequestFrom(latest, cwd);
    const summary = latest.plan?.summary;
    if (request === undefined || core === undefined || summary === undefined || pushStarted.current) return;
    pushStarted.current = true;
    const config = hashConfigFromForm(latest.hashes);
    const credentialsPath = latest.review.credentialsPath.trim();
    const credentials = credentialsPath === '' ? [] : [{ role: 'the credentials file', path: resolve(cwd, credentialsPath) }];
    const outputs = [{ role: 'the report', path: reportPath }, ...(latest.review.dryRun ? [] : [{ role: 'the journal', path: journalPath }])];
    void saveHashParameters(config, journalPath, { sourcePath: request.path, planOptions: request.options, inputFiles: credentials, outputs }).then(
      (refused) => {
        if (refused !== undefined) {
          // Nothing was opened or sent; the push screen shows the sentence.
          dispatch({ type: 'goTo', step: 'push' });
          dispatch({ type: 'pushFailed', message: refused.message });
          return;
        }
        push.start({
          request,
          core,
          total: summary.operations,
          concurrency: Number(latest.review.concurrency.trim()),
          dryRun: latest.review.dryRun,
          journalPath,
          reportPath,
          ...(credentialsPath === '' ? {} : { credentialsPath: resolve(cwd, credentialsPath) }),
        });
      },
    );
  };

  const screen = (() => {
    switch (state.step) {
      case 'connect':
        return (
          <ConnectScreen
            state={state}
            current={current}
            stacks={stacks}
            apiKeyFromEnvironment={!state.connect.apiKey.isEmpty && state.connect.apiKey.reveal() === env['CORE_API_KEY']}
            dispatch={dispatch}
            onCheck={checkCore}
            onQuit={quit}
          />
        );
      case 'source':
        return <SourceScreen state={state} current={current} cwd={cwd} planCurrent={planCurrent} dispatch={dispatch} />;
      case 'hashes':
        return (
          <HashFamiliesScreen
            state={state}
            current={current}
            planCurrent={planCurrent}
            emailCandidates={emailCandidates}
            dispatch={dispatch}
            onCompleteEmail={completeEmail}
            onCheck={checkPassword}
          />
        );
      case 'review':
        return <ReviewScreen state={state} current={current} planCurrent={planCurrent} target={target} dispatch={dispatch} onStart={startPush} />;
      case 'push':
        return (
          <PushScreen
            view={state.push ?? { ...initialPushView(), dryRun: state.review.dryRun, note: 'starting: pre-flight of the journal and the credentials…' }}
            target={target}
            failure={state.pushFailure}
            onPauseToggle={push.togglePause}
            onStop={push.stop}
            onQuit={quit}
          />
        );
      case 'summary':
        return state.pushSummary === undefined ? null : (
          <SummaryScreen
            summary={state.pushSummary}
            resumeCommand={resumeCommandFor(state, hashConfigFromForm(state.hashes), journalPath, reportPath, planRequest?.path ?? path)}
            onQuit={quit}
          />
        );
    }
  })();
  return <ThemeProvider colour={colour}>{screen}</ThemeProvider>;
}
