import { describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { initialWalkState, nextFocus, walkReducer, type WalkAction, type WalkState } from '../../../tui/src/screens/walk-state.js';

function run(state: WalkState, ...actions: WalkAction[]): WalkState {
  return actions.reduce(walkReducer, state);
}

describe('the walk reducer', () => {
  it('goes back with Esc without losing what was typed on any screen', () => {
    const state = run(
      initialWalkState(),
      { type: 'editConnect', patch: { coreUrl: 'http://127.0.0.1:3567', apiKey: new Secret('k'.repeat(24)) } },
      { type: 'goTo', step: 'source' },
      { type: 'editSource', patch: { path: 'users.json', format: 'firebase-json' } },
      { type: 'goTo', step: 'hashes' },
      { type: 'editHashes', patch: { rounds: '8' } },
      { type: 'back' },
      { type: 'back' },
    );
    expect(state.step).toBe('connect');
    expect(state.connect.coreUrl).toBe('http://127.0.0.1:3567');
    expect(state.source).toMatchObject({ path: 'users.json', format: 'firebase-json' });
    expect(state.hashes.rounds).toBe('8');
  });

  it('does not walk back out of a push or its summary', () => {
    expect(run(initialWalkState(), { type: 'goTo', step: 'push' }, { type: 'back' }).step).toBe('push');
    expect(run(initialWalkState(), { type: 'goTo', step: 'summary' }, { type: 'back' }).step).toBe('summary');
  });

  it('forgets a pre-flight when the connection it checked is edited', () => {
    const failed = run(initialWalkState(), { type: 'preflightFinished', result: new Error('unreachable') });
    expect(failed.preflight).toEqual({ state: 'failed', message: 'unreachable' });
    expect(run(failed, { type: 'editConnect', patch: { focus: 2 } }).preflight.state).toBe('failed');
    expect(run(failed, { type: 'editConnect', patch: { tenant: 'eu' } }).preflight.state).toBe('idle');
  });

  it('forgets a password check when its inputs change', () => {
    const checked = run(initialWalkState(), { type: 'checkFinished', result: { match: true, sentence: 'matches' } });
    expect(run(checked, { type: 'editHashes', patch: { focus: 3 } }).check.state).toBe('done');
    expect(run(checked, { type: 'editHashes', patch: { signerKey: new Secret('other') } }).check.state).toBe('idle');
  });

  it('puts the cursor at the end of a field the focus moves to, and keeps it when only the text changes', () => {
    const editing = run(initialWalkState(), { type: 'editSource', patch: { path: 'users.json', cursorFromEnd: 5 } });
    expect(run(editing, { type: 'editSource', patch: { path: 'users-old.json' } }).source.cursorFromEnd).toBe(5);
    expect(run(editing, { type: 'editSource', patch: { focus: 1 } }).source.cursorFromEnd).toBe(0);
    expect(run(editing, { type: 'editSource', patch: { focus: 0 } }).source.cursorFromEnd).toBe(5);
  });

  it('keeps a pre-flight and a password check when only the cursor moves', () => {
    const checked = run(
      initialWalkState(),
      { type: 'editConnect', patch: { coreUrl: 'http://127.0.0.1:3567' } },
      { type: 'preflightFinished', result: new Error('unreachable') },
      { type: 'checkFinished', result: { match: true, sentence: 'matches' } },
    );
    expect(run(checked, { type: 'editConnect', patch: { coreUrl: 'http://127.0.0.1:3567', cursorFromEnd: 4 } }).preflight.state).toBe('failed');
    expect(run(checked, { type: 'editHashes', patch: { checkEmail: '', cursorFromEnd: 0 } }).check.state).toBe('done');
    expect(run(checked, { type: 'editHashes', patch: { checkPassword: new Secret('') } }).check.state).toBe('done');
  });

  it('keeps the plan count of the request it belongs to', () => {
    const state = run(
      initialWalkState(),
      { type: 'requestPlan' },
      { type: 'planProgress', optionsKey: 'a', records: 10, operations: 12 },
      { type: 'planFailed', optionsKey: 'a', message: 'users.json, line 3: truncated JSON' },
    );
    expect(state.planRequested).toBe(true);
    expect(state.plan).toEqual({ records: 10, operations: 12, optionsKey: 'a', failure: 'users.json, line 3: truncated JSON' });
  });

  it('moves focus around a form, wrapping at both ends', () => {
    expect(nextFocus(0, 5, -1)).toBe(4);
    expect(nextFocus(4, 5, 1)).toBe(0);
  });
});
