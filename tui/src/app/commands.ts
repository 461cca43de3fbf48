import { resolve } from 'node:path';
import {
  runPreflight,
  probeIdentityFeatures,
  readReportGroups,
  type ReportGroups,
  type PlanSummary,
  type RollbackSummary,
  checkKnownPassword,
  PushControl,
} from 'core-client';
import {
  clientOf,
  connectionOf,
  describeConnectionSources,
  planOptionsOf,
  prepareMigration,
  resumeCommandLine,
  rollbackWithSettings,
  runPrepared,
  saveHashParameters,
} from 'core-client/run';
import { isProblem, Problem as CoreProblem, optional } from 'core-client/settings';
import { apiKeyTyped } from './origins.js';
import { foldPushEvent, initialPushView, type PushProgressView } from './push-progress.js';
import { appProblemOf, describeFailure, settingsOrProblem } from './problems.js';
import { typedHashForPlan } from './plan-status.js';
import type { AppAction, AppState, PreflightView, Problem } from './state.js';
import { SyncDeltaCollector } from './sync-delta.js';

export interface CommandEnvironment {
  current: () => AppState;
  dispatch: (action: AppAction) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  pulumiBinary?: string;
}

function connectionContext(environment: CommandEnvironment, state: AppState) {
  return {
    cwd: environment.cwd,
    env: environment.env,
    ...(state.apiKey.isEmpty ? {} : { apiKey: state.apiKey }),
    ...optional('pulumiBinary', environment.pulumiBinary),
  };
}

/** The pre-flight of the Connect fields, as `core-migrate check` runs it, with the identity features. */
export async function checkConnection(environment: CommandEnvironment): Promise<PreflightView | Problem> {
  const state = environment.current();
  const wanted = settingsOrProblem(state);
  if ('problem' in wanted) return wanted.problem;
  const { settings } = wanted;
  const connection = await connectionOf(settings, connectionContext(environment, state));
  if (connection instanceof CoreProblem) return appProblemOf(connection);
  const client = clientOf(connection, { giveUpAfter: settings.giveUpAfter });
  if (client instanceof CoreProblem) return appProblemOf(client);
  try {
    const report = await runPreflight(client);
    const support = report.ok
      ? await probeIdentityFeatures(client).catch((error: unknown) => {
          // As `core-migrate check`: a probe the core answered oddly leaves the features unknown.
          if (isProblem(error)) return undefined;
          throw error;
        })
      : undefined;
    const sources = describeConnectionSources(connection, settings.stack, { apiKeyTyped: apiKeyTyped(state) });
    return {
      target: report.target,
      report,
      ...optional('support', support),
      ...optional('signerKeyConfigured', connection.signerKeyConfigured),
      sources,
    };
  } finally {
    await client.close();
  }
}

/** The known account's password against its planned hash (the typed signer key, or the hash_config file's). */
export async function checkPassword(environment: CommandEnvironment, signal?: AbortSignal): Promise<{ match: boolean; sentence: string } | Problem> {
  const state = environment.current();
  const wanted = settingsOrProblem(state);
  if ('problem' in wanted) return wanted.problem;
  const { settings } = wanted;
  const typed = typedHashForPlan(state);
  const options = await planOptionsOf(settings, { cwd: environment.cwd, ...optional('hashConfig', typed) });
  if (options instanceof CoreProblem) return appProblemOf(options);
  return checkKnownPassword(resolve(environment.cwd, settings.file ?? ''), options, state.checkEmail, state.checkPassword, signal);
}

export interface RunningPush {
  stop: AbortController;
  abandon: AbortController;
  control: PushControl;
  view: PushProgressView;
}

/**
 * Exactly what `core-migrate push` with these settings runs: core-client's checks before sending, then the push.
 * Results arrive as actions; the returned handle pauses and stops it.
 */
export function startPush(environment: CommandEnvironment, onDone: () => void): RunningPush {
  const { dispatch } = environment;
  const run: RunningPush = { stop: new AbortController(), abandon: new AbortController(), control: new PushControl(), view: initialPushView() };
  dispatch({ type: 'runPreparing', note: 'checking the settings, the core and the journal…' });
  void (async () => {
    try {
      const state = environment.current();
      const wanted = settingsOrProblem(state);
      if ('problem' in wanted) return dispatch({ type: 'runFailed', problem: wanted.problem });
      let { settings } = wanted;
      const typed = typedHashForPlan(state);
      if (typed !== undefined) {
        const saved = await saveHashParameters(typed, settings, environment.cwd);
        if (isProblem(saved)) return dispatch({ type: 'runFailed', problem: appProblemOf(saved) });
        settings = { ...settings, hashConfig: saved };
      }
      const prepared = await prepareMigration(settings, {
        command: state.command,
        face: 'app',
        ...connectionContext(environment, state),
        ...optional('hashConfig', typed),
        ...optional('counted', state.plan?.counted),
        signal: run.stop.signal,
        onCountProgress: ({ records }) => dispatch({ type: 'runPreparing', note: `counting the plan: ${records.toLocaleString('en-US')} records…` }),
        onMessage: ({ level, text }) => {
          if (level === 'warning') dispatch({ type: 'runPreparing', note: text });
        },
      });
      if (prepared instanceof CoreProblem) return dispatch({ type: 'runFailed', problem: appProblemOf(prepared) });
      try {
        const summary = await runPrepared(prepared, {
          signal: run.stop.signal,
          abandonSignal: run.abandon.signal,
          control: run.control,
          onEvent: (event) => {
            run.view = { ...foldPushEvent(run.view, event), paused: run.control.paused };
            dispatch({ type: 'runProgress', progress: run.view });
          },
        });
        if (summary instanceof CoreProblem) return dispatch({ type: 'runFailed', problem: appProblemOf(summary) });
        dispatch({ type: 'runFinished', summary, commandLine: resumeCommandLine(prepared) });
      } finally {
        await prepared.client.close();
      }
    } catch (error) {
      dispatch({ type: 'runFailed', problem: { message: environment.current().apiKey.redact(describeFailure(error)) } });
    } finally {
      onDone();
    }
  })();
  return run;
}

/**
 * The delta a sync would send, worked out as `core-migrate sync --dry-run` does: the core is checked and the newer
 * export compared with the journal, and nothing is written anywhere (not even the journal).
 */
export async function previewSync(environment: CommandEnvironment): Promise<AppAction> {
  const state = environment.current();
  const wanted = settingsOrProblem(state);
  if ('problem' in wanted) return { type: 'syncPreviewFinished', result: wanted.problem };
  const typed = typedHashForPlan(state);
  const prepared = await prepareMigration(
    { ...wanted.settings, dryRun: true },
    { command: 'sync', ...connectionContext(environment, state), ...optional('hashConfig', typed) },
  );
  if (prepared instanceof CoreProblem) return { type: 'syncPreviewFinished', result: appProblemOf(prepared) };
  try {
    const delta = new SyncDeltaCollector();
    const summary = await runPrepared(prepared, { onEvent: delta.onEvent });
    if (summary instanceof CoreProblem) return { type: 'syncPreviewFinished', result: appProblemOf(summary) };
    if (summary.sync === undefined) return { type: 'syncPreviewFinished', result: { message: 'the dry run found no delta' } };
    return { type: 'syncPreviewFinished', result: delta.view(summary.sync, summary.syncGuard) };
  } finally {
    await prepared.client.close();
  }
}

/**
 * Before the y/n of a rollback: what it removes, by the rollback's own dry run (the journal and, with a login-time
 * store, its arrivals and waiting users counted; nothing is removed or written).
 */
export async function askRollback(environment: CommandEnvironment): Promise<AppAction> {
  const preview = await rollbackOfRun(environment, true);
  return 'created' in preview ? { type: 'rollbackAsked', preview } : { type: 'rollbackFinished', result: preview };
}

/** Removes the users the finished push created, by its journal (as `core-migrate rollback` does). */
export async function rollBack(environment: CommandEnvironment): Promise<AppAction> {
  return { type: 'rollbackFinished', result: await rollbackOfRun(environment, false) };
}

async function rollbackOfRun(environment: CommandEnvironment, dryRun: boolean): Promise<RollbackSummary | Problem> {
  const state = environment.current();
  const journalPath = state.run.state === 'finished' ? state.run.summary.journalPath : undefined;
  if (journalPath === undefined) return { message: 'this run wrote no journal, so there is nothing to roll back' };
  const wanted = settingsOrProblem(state);
  if ('problem' in wanted) return wanted.problem;
  const result = await rollbackWithSettings({ ...wanted.settings, dryRun }, connectionContext(environment, state), { journalPath });
  return result instanceof CoreProblem ? appProblemOf(result) : result;
}

/** The plan's refusals grouped by reason, for the report view before any push. */
export function planReportGroups(summary: PlanSummary): ReportGroups {
  const groups = new Map<string, ReportGroups['groups'][number]>();
  for (const listed of summary.rejections) {
    const group = groups.get(listed.code) ?? { code: listed.code, note: false, count: 0, entries: [] };
    group.entries.push({ stage: 'plan', location: listed.location, code: listed.code, reason: listed.reason });
    groups.set(listed.code, group);
  }
  for (const byCode of summary.rejectionsByCode) {
    const group = groups.get(byCode.code);
    if (group !== undefined) group.count = byCode.count;
  }
  return { groups: [...groups.values()].sort((a, b) => b.count - a.count), total: summary.rejected, notImported: summary.rejected };
}

/** The report of the finished push (its last run), grouped by reason. */
export async function pushReportGroups(state: AppState): Promise<ReportGroups | Problem> {
  const path = state.run.state === 'finished' ? state.run.summary.reportPath : undefined;
  if (path === undefined) return { message: 'this run wrote no report' };
  try {
    return await readReportGroups(path);
  } catch (error) {
    return { message: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, setting: 'report' };
  }
}
