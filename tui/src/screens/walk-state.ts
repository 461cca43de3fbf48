import { Secret } from 'core-client/secret';
import type { PlanSummary } from 'core-client/plan/summary';
import type { PushSummary } from 'core-client/push/summary';
import type { PreflightReport } from 'core-client/connection/preflight';
import type { SourceFormat } from 'core-client/sources/source-format';
import type { ConnectionError } from 'core-client/connection/errors';
import type { PushProgressView } from '../hooks/push-progress.js';

/**
 * The walk as a reducer over typed actions: every screen's form lives here, so Esc can go back and forward
 * without losing what was typed. Results of long work (pre-flight, plan, push) arrive as actions from hooks.
 */
export const stepOrder = ['connect', 'source', 'hashes', 'review', 'push', 'summary'] as const;
export type StepName = (typeof stepOrder)[number];

export interface ConnectForm {
  stack: string;
  coreUrl: string;
  tenant: string;
  app: string;
  apiKey: Secret;
  focus: number;
  /** The cursor in the focused text field, counted from its end (see `TextEdit`). */
  cursorFromEnd: number;
}

export type FormatChoice = SourceFormat | 'auto';

export interface SourceForm {
  path: string;
  format: FormatChoice;
  focus: number;
  /** The cursor in the focused text field, counted from its end (see `TextEdit`). */
  cursorFromEnd: number;
}

export interface HashForm {
  pasted: Secret;
  /** What became of the last paste (never its content). */
  pasteNote: string;
  memCost: string;
  rounds: string;
  saltSeparator: string;
  signerKey: Secret;
  newPrefix: string;
  prefixRules: string[];
  /** What became of the last prefix added (or why it was refused). */
  prefixNote: string;
  checkEmail: string;
  checkPassword: Secret;
  focus: number;
  /** The cursor in the focused text field, counted from its end (see `TextEdit`). */
  cursorFromEnd: number;
}

export interface ReviewForm {
  concurrency: string;
  dryRun: boolean;
  journalPath: string;
  reportPath: string;
  credentialsPath: string;
  focus: number;
  /** The cursor in the focused text field, counted from its end (see `TextEdit`). */
  cursorFromEnd: number;
  /** Asking "send N operations to …? (y/n)": nothing is sent before the answer. */
  confirming: boolean;
}

export type Outcome<T> = { state: 'idle' } | { state: 'running' } | { state: 'done'; value: T } | { state: 'failed'; message: string };

export interface ResolvedCore {
  coreUrl: string;
  apiKey: Secret;
  tenantId?: string;
  appId?: string;
  signerKeyConfigured?: boolean;
}

export interface PreflightView {
  core: ResolvedCore;
  report: PreflightReport;
}

export interface PlanView {
  /** Records read so far in the running pass, for the live count. */
  records: number;
  operations: number;
  summary?: PlanSummary;
  /** What the summary was computed with, so a screen knows whether it is current. */
  optionsKey: string;
  failure?: string;
}

export type CheckResult = { match: boolean; sentence: string };

export interface WalkState {
  step: StepName;
  connect: ConnectForm;
  source: SourceForm;
  hashes: HashForm;
  review: ReviewForm;
  preflight: Outcome<PreflightView>;
  detectedFormat: Outcome<SourceFormat>;
  /** Set once the operator asks to read the file; from then on the plan follows every change of its inputs. */
  planRequested: boolean;
  plan: PlanView | undefined;
  check: Outcome<CheckResult>;
  push: PushProgressView | undefined;
  pushSummary: PushSummary | undefined;
  pushFailure: string | undefined;
}

export type WalkAction =
  | { type: 'editConnect'; patch: Partial<ConnectForm> }
  | { type: 'editSource'; patch: Partial<SourceForm> }
  | { type: 'editHashes'; patch: Partial<HashForm> }
  | { type: 'editReview'; patch: Partial<ReviewForm> }
  | { type: 'goTo'; step: StepName }
  | { type: 'back' }
  | { type: 'preflightStarted' }
  | { type: 'preflightFinished'; result: PreflightView | ConnectionError | Error }
  | { type: 'formatDetected'; result: SourceFormat | Error }
  | { type: 'requestPlan' }
  | { type: 'planProgress'; optionsKey: string; records: number; operations: number }
  | { type: 'planFinished'; optionsKey: string; summary: PlanSummary }
  | { type: 'planFailed'; optionsKey: string; message: string }
  | { type: 'checkStarted' }
  | { type: 'checkFinished'; result: CheckResult | Error }
  | { type: 'pushProgress'; view: PushProgressView }
  | { type: 'pushFinished'; summary: PushSummary }
  | { type: 'pushFailed'; message: string };

export interface WalkDefaults {
  connect?: Partial<ConnectForm>;
  source?: Partial<SourceForm>;
  hashes?: Partial<HashForm>;
  review?: Partial<ReviewForm>;
}

export function initialWalkState(defaults: WalkDefaults = {}): WalkState {
  return {
    step: 'connect',
    connect: { stack: '', coreUrl: '', tenant: '', app: '', apiKey: new Secret(''), focus: 0, cursorFromEnd: 0, ...defaults.connect },
    source: { path: '', format: 'auto', focus: 0, cursorFromEnd: 0, ...defaults.source },
    hashes: {
      pasted: new Secret(''),
      pasteNote: '',
      memCost: '',
      rounds: '',
      saltSeparator: '',
      signerKey: new Secret(''),
      newPrefix: '',
      prefixRules: [],
      prefixNote: '',
      checkEmail: '',
      checkPassword: new Secret(''),
      focus: 0,
      cursorFromEnd: 0,
      ...defaults.hashes,
    },
    review: {
      concurrency: '16',
      dryRun: false,
      journalPath: 'core-migrate.journal.ndjson',
      reportPath: 'core-migrate.report.ndjson',
      credentialsPath: '',
      focus: 0,
      cursorFromEnd: 0,
      confirming: false,
      ...defaults.review,
    },
    preflight: { state: 'idle' },
    detectedFormat: { state: 'idle' },
    planRequested: false,
    plan: undefined,
    check: { state: 'idle' },
    push: undefined,
    pushSummary: undefined,
    pushFailure: undefined,
  };
}

/** Where Esc leads: one step back, except that a push in progress or done cannot be walked back into. */
function previousStep(step: StepName): StepName {
  if (step === 'push' || step === 'summary' || step === 'connect') return step;
  return stepOrder[stepOrder.indexOf(step) - 1] ?? step;
}

function errorSentence(error: Error): string {
  return error.message;
}

/** A form after an edit; a field the focus moves to starts with its cursor at the end, where typing usually goes. */
function patchForm<Form extends { focus: number; cursorFromEnd: number }>(form: Form, patch: Partial<Form>): Form {
  const next = { ...form, ...patch };
  if (patch.focus !== undefined && patch.focus !== form.focus && patch.cursorFromEnd === undefined) next.cursorFromEnd = 0;
  return next;
}

/** Whether an edit changed any of these fields (moving the cursor changes none; secrets compare by value). */
function changed<Form>(before: Form, after: Form, fields: readonly (keyof Form)[]): boolean {
  return fields.some((field) => {
    const [was, is] = [before[field], after[field]];
    return was instanceof Secret && is instanceof Secret ? was.reveal() !== is.reveal() : was !== is;
  });
}

export function walkReducer(state: WalkState, action: WalkAction): WalkState {
  switch (action.type) {
    case 'editConnect': {
      const connect = patchForm(state.connect, action.patch);
      // A changed connection makes the last pre-flight stale: it must be run again before going on.
      const touchesCore = changed(state.connect, connect, ['stack', 'coreUrl', 'tenant', 'app', 'apiKey']);
      return { ...state, connect, preflight: touchesCore ? { state: 'idle' } : state.preflight };
    }
    case 'editSource': {
      const source = patchForm(state.source, action.patch);
      return { ...state, source, detectedFormat: changed(state.source, source, ['path']) ? { state: 'idle' } : state.detectedFormat };
    }
    case 'editHashes': {
      const hashes = patchForm(state.hashes, action.patch);
      const checkInputsChanged = changed(state.hashes, hashes, [
        'checkEmail',
        'checkPassword',
        'memCost',
        'rounds',
        'saltSeparator',
        'signerKey',
        'prefixRules',
      ]);
      return { ...state, hashes, check: checkInputsChanged ? { state: 'idle' } : state.check };
    }
    case 'editReview':
      return { ...state, review: patchForm(state.review, action.patch) };
    case 'goTo':
      return { ...state, step: action.step };
    case 'back':
      return { ...state, step: previousStep(state.step) };
    case 'preflightStarted':
      return { ...state, preflight: { state: 'running' } };
    case 'preflightFinished':
      return {
        ...state,
        preflight: action.result instanceof Error ? { state: 'failed', message: errorSentence(action.result) } : { state: 'done', value: action.result },
      };
    case 'formatDetected':
      return {
        ...state,
        detectedFormat: action.result instanceof Error ? { state: 'failed', message: errorSentence(action.result) } : { state: 'done', value: action.result },
      };
    case 'requestPlan':
      return { ...state, planRequested: true };
    case 'planProgress':
      return { ...state, plan: { records: action.records, operations: action.operations, optionsKey: action.optionsKey } };
    case 'planFinished':
      return {
        ...state,
        plan: { records: action.summary.records, operations: action.summary.operations, summary: action.summary, optionsKey: action.optionsKey },
      };
    case 'planFailed':
      return {
        ...state,
        plan: { records: state.plan?.records ?? 0, operations: state.plan?.operations ?? 0, optionsKey: action.optionsKey, failure: action.message },
      };
    case 'checkStarted':
      return { ...state, check: { state: 'running' } };
    case 'checkFinished':
      return {
        ...state,
        check: action.result instanceof Error ? { state: 'failed', message: errorSentence(action.result) } : { state: 'done', value: action.result },
      };
    case 'pushProgress':
      return { ...state, push: action.view };
    case 'pushFinished':
      return { ...state, pushSummary: action.summary, step: 'summary' };
    case 'pushFailed':
      return { ...state, pushFailure: action.message };
  }
}

/** Moves the focus of a form with `count` fields by one, wrapping around. */
export function nextFocus(focus: number, count: number, step: 1 | -1): number {
  return (focus + step + count) % count;
}
