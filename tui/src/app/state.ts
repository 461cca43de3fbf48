import {
  type PreflightReport,
  type FeatureSupport,
  type RollbackSummary,
  type ReportGroups,
  type KnownPasswordCheck,
  type PushSummary,
  Secret,
  type SourceFormat,
} from 'core-client';
import { optional, optionalFrom, type ExitCode, type MigrationSettings, type SettingKey } from 'core-client/settings';
import type { CountedPlan, MigrationCommand } from 'core-client/run';
import { initialPushView, type PushProgressView } from './push-progress.js';
import type { SyncDeltaView } from './sync-delta.js';
import { draftFromSettings, type Draft } from './draft.js';
import { initialOrigins, originsAfter, type FieldOrigins } from './origins.js';

/** The walk, in order; the report view and the help are reached from its screens. */
export const walkScreens = ['connect', 'source', 'hashes', 'identity', 'review', 'push', 'summary'] as const;
export type WalkScreen = (typeof walkScreens)[number];
export type ScreenId = WalkScreen | 'report';

export type Outcome<T> = { state: 'idle' } | { state: 'running' } | { state: 'done'; value: T } | { state: 'failed'; message: string; setting?: SettingKey };

/** A problem a field or a step has, in the app's terms, and the setting that fixes it. */
export interface Problem {
  message: string;
  setting?: SettingKey;
  exitCode?: ExitCode;
}

export interface PreflightView {
  target: string;
  report: PreflightReport;
  support?: FeatureSupport;
  signerKeyConfigured?: boolean;
  /** e.g. "core from --core, api-key from CORE_API_KEY". */
  sources: string;
}

/** The vendor scrypt parameters as typed or pasted (used when no hash_config file is named). */
export interface TypedHash {
  memCost: string;
  rounds: string;
  saltSeparator: string;
  signerKey: Secret;
  /** A hash_config block typed without the terminal's paste (it holds the signer key: masked). */
  pasted: Secret;
  /** What became of the last paste: never its content. */
  pasteNote: string;
  pasteFailed: boolean;
}

export interface PlanView {
  /** `planDraftKey` of what it was counted with. */
  key: string;
  records: number;
  operations: number;
  counted?: CountedPlan;
  failure?: Problem;
}

export type RunView =
  | { state: 'idle' }
  | { state: 'preparing'; note: string }
  | { state: 'running'; progress: PushProgressView }
  | { state: 'finished'; summary: PushSummary; commandLine: readonly string[] }
  | { state: 'failed'; problem: Problem };

export interface ReportView {
  /** Where Esc goes back to. */
  from: ScreenId;
  groups: Outcome<ReportGroups>;
  group: number;
  scroll: number;
}

export interface AppState {
  /** How the operator starts core-migrate from here (`core-migrate`, or `npx core-migrate`), for the printed commands. */
  invocation: string;
  screen: ScreenId;
  help: boolean;
  /** Lines of the help scrolled past (a small terminal shows it in parts). */
  helpScroll: number;
  /** Asking y/n before something that cannot be taken back. */
  confirm: 'push' | 'rollback' | undefined;
  draft: Draft;
  /** Where the values the app opened with came from (a flag, the environment), until the operator changes them. */
  origins: FieldOrigins;
  apiKey: Secret;
  apiKeyFromEnvironment: boolean;
  hash: TypedHash;
  newPrefix: string;
  checkEmail: string;
  checkPassword: Secret;
  focus: Record<ScreenId, number>;
  /** The cursor of the focused text field, counted from its end (see `TextEdit`). */
  cursorFromEnd: number;
  /** The Pulumi stacks the operator can pick (listed once, when the CLI is there). */
  stacks: { state: 'loading' } | { state: 'listed'; names: string[] } | { state: 'unavailable'; reason: string };
  preflight: Outcome<PreflightView>;
  /** Enter was pressed on Connect: move on once the pre-flight passes. */
  advanceAfterPreflight: boolean;
  detected: Outcome<SourceFormat>;
  /** Columns or keys of a generic export, offered for the field mapping. */
  exportFields: string[];
  /** Set once the operator asks to read the file; from then on the plan follows every change of its inputs. */
  planRequested: boolean;
  /**
   * Counts the asks to read a plan that failed: a file the plan reads (a roles file, the export) may have been mended
   * outside the app, which no field shows, so Enter reads it again; a plan counted is not counted again.
   */
  planAttempt: number;
  advanceAfterPlan: boolean;
  plan: PlanView | undefined;
  check: Outcome<KnownPasswordCheck>;
  emailCandidates: string[];
  /** A path completion shown after the cursor of a path field, accepted with →. */
  completion: { field: string; text: string } | undefined;
  /** Problems found as fields were typed (a missing input file, an output that cannot be written). */
  fieldProblems: Record<string, string>;
  /** Counts the asks to check the files again: one mended outside the app changes no field, so Enter asks. */
  fileCheckRound: number;
  /** What push would warn of (secret files others can read, a key in clear), shown before anything is sent. */
  warnings: string[];
  /** A sync when the journal holds the states of another export's users (`migrationCommandOf`), else a push. */
  command: MigrationCommand;
  /** The delta a sync would send, from a dry run (nothing sent); worked out again after any change of a setting. */
  syncPreview: Outcome<SyncDeltaView>;
  /** The first user of the delta's list Review shows (PgUp/PgDn). */
  deltaScroll: number;
  run: RunView;
  rollback: Outcome<RollbackSummary>;
  /** What the rollback asked about removes (its own dry run, when asked), for the y/n question. */
  rollbackPreview: RollbackSummary | undefined;
  report: ReportView | undefined;
}

export type AppAction =
  | { type: 'draft'; patch: Partial<Draft> }
  | { type: 'hash'; patch: Partial<TypedHash> }
  | { type: 'form'; patch: Partial<Pick<AppState, 'apiKey' | 'newPrefix' | 'checkEmail' | 'checkPassword'>> }
  | { type: 'focus'; index: number }
  | { type: 'cursor'; cursorFromEnd: number }
  | { type: 'goTo'; screen: ScreenId; focus?: number }
  | { type: 'help'; open: boolean; scroll?: number }
  | { type: 'confirm'; what: AppState['confirm'] }
  | { type: 'stacks'; stacks: AppState['stacks'] }
  | { type: 'preflightStarted'; advance: boolean }
  | { type: 'preflightFinished'; result: PreflightView | Problem }
  | { type: 'detected'; file: string; result: SourceFormat | Problem; fields: string[] }
  | { type: 'requestPlan'; advance: boolean }
  | { type: 'planProgress'; key: string; records: number; operations: number }
  | { type: 'planFinished'; key: string; counted: CountedPlan }
  | { type: 'planFailed'; key: string; problem: Problem }
  | { type: 'checkStarted' }
  | { type: 'checkFinished'; result: KnownPasswordCheck | Problem }
  | { type: 'emailCandidates'; emails: string[] }
  | { type: 'completion'; completion: AppState['completion'] }
  | { type: 'fieldProblem'; field: string; problem: string | undefined }
  | { type: 'recheckFiles' }
  | { type: 'warnings'; warnings: string[] }
  | { type: 'command'; command: MigrationCommand }
  | { type: 'syncPreviewStarted' }
  | { type: 'syncPreviewFinished'; result: SyncDeltaView | Problem }
  | { type: 'deltaScrolled'; scroll: number }
  | { type: 'runPreparing'; note: string }
  | { type: 'runProgress'; progress: PushProgressView }
  | { type: 'runFinished'; summary: PushSummary; commandLine: readonly string[] }
  | { type: 'runFailed'; problem: Problem }
  | { type: 'rollbackAsked'; preview: RollbackSummary }
  | { type: 'rollbackStarted' }
  | { type: 'rollbackFinished'; result: RollbackSummary | Problem }
  | { type: 'reportOpened'; from: ScreenId }
  | { type: 'reportLoaded'; result: ReportGroups | Problem }
  | { type: 'reportMoved'; group: number; scroll: number };

export interface InitialState {
  settings: MigrationSettings;
  /** The environment the connection reads (CORE_URL): what it gives is shown in the fields. */
  env?: NodeJS.ProcessEnv;
  invocation: string;
  apiKey?: Secret;
  apiKeyFromEnvironment?: boolean;
}

const noFocus: Record<ScreenId, number> = { connect: 0, source: 0, hashes: 0, identity: 0, review: 0, push: 0, summary: 0, report: 0 };

export function initialAppState({ settings, env, invocation, apiKey, apiKeyFromEnvironment }: InitialState): AppState {
  const given = initialOrigins(settings, env ?? {});
  return {
    invocation,
    screen: 'connect',
    help: false,
    helpScroll: 0,
    confirm: undefined,
    draft: { ...draftFromSettings(settings), ...given.patch },
    origins: given.origins,
    apiKey: apiKey ?? new Secret(''),
    apiKeyFromEnvironment: apiKeyFromEnvironment ?? false,
    hash: { memCost: '', rounds: '', saltSeparator: '', signerKey: new Secret(''), pasted: new Secret(''), pasteNote: '', pasteFailed: false },
    newPrefix: '',
    checkEmail: '',
    checkPassword: new Secret(''),
    focus: { ...noFocus },
    cursorFromEnd: 0,
    stacks: { state: 'loading' },
    preflight: { state: 'idle' },
    advanceAfterPreflight: false,
    detected: { state: 'idle' },
    exportFields: [],
    planRequested: false,
    planAttempt: 0,
    advanceAfterPlan: false,
    plan: undefined,
    check: { state: 'idle' },
    emailCandidates: [],
    completion: undefined,
    fieldProblems: {},
    fileCheckRound: 0,
    warnings: [],
    command: 'push',
    syncPreview: { state: 'idle' },
    rollbackPreview: undefined,
    deltaScroll: 0,
    run: { state: 'idle' },
    rollback: { state: 'idle' },
    report: undefined,
  };
}

const connectionFields: readonly (keyof Draft)[] = ['core', 'moreCores', 'stack', 'tenant', 'app', 'apiKeyFile', 'caFile'];

function changed<T extends object>(before: T, after: T, keys: readonly (keyof T)[]): boolean {
  return keys.some((key) => {
    const [was, is] = [before[key], after[key]];
    if (was instanceof Secret && is instanceof Secret) return was.reveal() !== is.reveal();
    return JSON.stringify(was) !== JSON.stringify(is);
  });
}

function failed(problem: Problem): Outcome<never> {
  return { state: 'failed', message: problem.message, ...optional('setting', problem.setting) };
}

function isProblem(value: object): value is Problem {
  return 'message' in value && typeof (value as Problem).message === 'string' && !('report' in value);
}

/** Every change of the app's state; pure, so the key router can apply it ahead of React (see useAppState). */
export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'draft': {
      const draft = { ...state.draft, ...action.patch };
      const touchesCore = changed(state.draft, draft, connectionFields);
      const touchesFile = draft.file !== state.draft.file;
      const touchesHash = changed(state.draft, draft, ['hashConfig', 'stripPrefix', 'file', 'format', 'auth0PasswordFile']);
      return {
        ...state,
        draft,
        ...(state.syncPreview.state === 'idle' ? {} : { syncPreview: { state: 'idle' } as const }),
        origins: originsAfter(state.origins, state.draft, draft),
        ...(touchesCore ? { preflight: { state: 'idle' } as const, advanceAfterPreflight: false } : {}),
        ...(touchesFile ? { detected: { state: 'idle' } as const, exportFields: [] } : {}),
        ...(touchesHash ? { check: { state: 'idle' } as const } : {}),
      };
    }
    case 'hash':
      return { ...state, hash: { ...state.hash, ...action.patch }, check: { state: 'idle' } };
    case 'form': {
      const next = { ...state, ...action.patch };
      const touchesCore = action.patch.apiKey !== undefined && action.patch.apiKey.reveal() !== state.apiKey.reveal();
      const touchesCheck = changed(state, next, ['checkEmail', 'checkPassword']);
      return {
        ...next,
        ...(touchesCore ? { preflight: { state: 'idle' } as const, apiKeyFromEnvironment: false } : {}),
        ...(touchesCheck ? { check: { state: 'idle' } as const } : {}),
      };
    }
    case 'focus':
      return action.index === state.focus[state.screen]
        ? state
        : { ...state, focus: { ...state.focus, [state.screen]: action.index }, cursorFromEnd: 0, completion: undefined };
    case 'cursor':
      return { ...state, cursorFromEnd: action.cursorFromEnd };
    case 'goTo':
      return {
        ...state,
        screen: action.screen,
        confirm: undefined,
        cursorFromEnd: 0,
        completion: undefined,
        ...optionalFrom('focus', action.focus, (focus) => ({ ...state.focus, [action.screen]: focus })),
      };
    case 'help':
      return { ...state, help: action.open, helpScroll: Math.max(0, action.scroll ?? 0) };
    case 'confirm':
      return { ...state, confirm: action.what };
    case 'stacks':
      return { ...state, stacks: action.stacks };
    case 'preflightStarted':
      return { ...state, preflight: { state: 'running' }, advanceAfterPreflight: action.advance };
    case 'preflightFinished': {
      if (isProblem(action.result)) return { ...state, preflight: failed(action.result), advanceAfterPreflight: false };
      const ok = action.result.report.ok;
      const advance = ok && state.advanceAfterPreflight && state.screen === 'connect';
      return { ...state, preflight: { state: 'done', value: action.result }, advanceAfterPreflight: false, ...(advance ? moveTo(state, 'source') : {}) };
    }
    case 'detected':
      if (action.file !== state.draft.file) return state;
      return {
        ...state,
        detected: typeof action.result === 'string' ? { state: 'done', value: action.result } : failed(action.result),
        exportFields: action.fields,
      };
    case 'requestPlan':
      return {
        ...state,
        planRequested: true,
        planAttempt: state.plan?.failure === undefined ? state.planAttempt : state.planAttempt + 1,
        fileCheckRound: Object.keys(state.fieldProblems).length === 0 ? state.fileCheckRound : state.fileCheckRound + 1,
        advanceAfterPlan: action.advance,
      };
    case 'planProgress':
      return { ...state, plan: { key: action.key, records: action.records, operations: action.operations } };
    case 'planFinished': {
      // Providers without a short name are fixed on Source: stay there to give them one (Enter again goes on).
      const unmapped = Object.keys(action.counted.summary.unmappedProviders).length > 0;
      const advance = state.advanceAfterPlan && state.screen === 'source' && action.counted.summary.records > 0 && !unmapped;
      return {
        ...state,
        plan: { key: action.key, records: action.counted.summary.records, operations: action.counted.summary.operations, counted: action.counted },
        advanceAfterPlan: false,
        ...(advance ? moveTo(state, 'hashes') : {}),
      };
    }
    case 'planFailed':
      return {
        ...state,
        plan: { key: action.key, records: state.plan?.records ?? 0, operations: state.plan?.operations ?? 0, failure: action.problem },
        advanceAfterPlan: false,
      };
    case 'checkStarted':
      return { ...state, check: { state: 'running' } };
    case 'checkFinished':
      return { ...state, check: 'match' in action.result ? { state: 'done', value: action.result } : failed(action.result) };
    case 'emailCandidates':
      return { ...state, emailCandidates: action.emails };
    case 'completion':
      return { ...state, completion: action.completion };
    case 'recheckFiles':
      return { ...state, fileCheckRound: state.fileCheckRound + 1 };
    case 'fieldProblem': {
      if (state.fieldProblems[action.field] === action.problem) return state;
      const fieldProblems = { ...state.fieldProblems };
      if (action.problem === undefined) delete fieldProblems[action.field];
      else fieldProblems[action.field] = action.problem;
      return { ...state, fieldProblems };
    }
    case 'warnings':
      return JSON.stringify(action.warnings) === JSON.stringify(state.warnings) ? state : { ...state, warnings: action.warnings };
    case 'command':
      return state.command === action.command ? state : { ...state, command: action.command, syncPreview: { state: 'idle' } };
    case 'syncPreviewStarted':
      return { ...state, syncPreview: { state: 'running' } };
    case 'syncPreviewFinished':
      return {
        ...state,
        deltaScroll: 0,
        syncPreview: isProblem(action.result) ? failed(action.result) : { state: 'done', value: action.result },
      };
    case 'deltaScrolled':
      return { ...state, deltaScroll: Math.max(0, action.scroll) };
    case 'runPreparing':
      return { ...state, run: { state: 'preparing', note: action.note }, ...moveTo(state, 'push') };
    case 'runProgress':
      return { ...state, run: { state: 'running', progress: action.progress } };
    case 'runFinished':
      return {
        ...state,
        run: { state: 'finished', summary: action.summary, commandLine: action.commandLine },
        rollback: { state: 'idle' },
        ...moveTo(state, 'summary'),
      };
    case 'runFailed':
      return { ...state, run: { state: 'failed', problem: action.problem } };
    case 'rollbackAsked':
      return { ...state, confirm: 'rollback', rollbackPreview: action.preview };
    case 'rollbackStarted':
      return { ...state, rollback: { state: 'running' }, confirm: undefined };
    case 'rollbackFinished':
      return { ...state, rollback: 'created' in action.result ? { state: 'done', value: action.result } : failed(action.result) };
    case 'reportOpened':
      return { ...state, report: { from: action.from, groups: { state: 'running' }, group: 0, scroll: 0 }, ...moveTo(state, 'report') };
    case 'reportLoaded':
      if (state.report === undefined) return state;
      return { ...state, report: { ...state.report, groups: 'groups' in action.result ? { state: 'done', value: action.result } : failed(action.result) } };
    case 'reportMoved':
      return state.report === undefined ? state : { ...state, report: { ...state.report, group: action.group, scroll: action.scroll } };
  }
}

function moveTo(_state: AppState, screen: ScreenId): Pick<AppState, 'screen' | 'cursorFromEnd' | 'completion' | 'confirm'> {
  return { screen, cursorFromEnd: 0, completion: undefined, confirm: undefined };
}

export { initialPushView };
