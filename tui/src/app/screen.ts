import type { ReactNode } from 'react';
import type { Secret } from 'core-client';
import { settingName, type SettingKey } from 'core-client/settings';
import type { KeyHint } from '../components/key-hints.js';
import type { KeyPress } from './keys.js';
import type { AppAction, AppState, ScreenId } from './state.js';

/*
 * The shapes the screens and their fields share, in one place: a field's action runs with the screen's context, and a
 * screen is made of fields. How a key changes a field lives in fields.ts, which takes these shapes from here.
 */

interface FieldBase {
  /** Unique on its screen. */
  id: string;
  label: string;
  /** The setting it edits, so an error about that setting can lead here. */
  setting?: SettingKey;
  /** A problem with its value, shown beside it (and in full on the message line when focused). */
  problem?: string | undefined;
  /** A short word after the value (e.g. "detected: ndjson"). */
  note?: string | undefined;
}

/**
 * The id, label and setting of a field that edits one setting: the label is the settings table's, the same the app's
 * sentences name it by, so a field and its flag's help cannot drift apart.
 */
export function settingField<Key extends SettingKey>(key: Key): { id: Key; label: string; setting: Key } {
  return { id: key, label: settingName(key, 'app'), setting: key };
}

export interface TextFieldSpec extends FieldBase {
  kind: 'text' | 'path';
  value: string;
  /** Shown in grey while the value is empty; it is never part of the value. */
  placeholder?: string;
  set: (value: string) => AppAction;
}

export interface MaskedFieldSpec extends FieldBase {
  kind: 'masked';
  value: Secret;
  placeholder?: string;
  /** Keeps line breaks (a pasted block). */
  multiline?: boolean;
  set: (value: string) => AppAction;
}

export interface ChoiceFieldSpec extends FieldBase {
  kind: 'choice';
  value: string;
  choices: readonly string[];
  /** How a choice reads, e.g. "yes: nothing is written". */
  describe?: (choice: string) => string;
  set: (value: string) => AppAction;
}

/** A row that does something on Enter (open the report, remove a rule). */
export interface ActionFieldSpec extends FieldBase {
  kind: 'action';
  value: string;
  activate: (context: ScreenContext) => void;
}

export type FieldSpec = TextFieldSpec | MaskedFieldSpec | ChoiceFieldSpec | ActionFieldSpec;

export function isTextual(field: FieldSpec | undefined): field is TextFieldSpec | MaskedFieldSpec {
  return field !== undefined && (field.kind === 'text' || field.kind === 'path' || field.kind === 'masked');
}

/** What the app can start on behalf of a screen; each is long work whose results arrive as actions. */
export interface AppCommands {
  /** The pre-flight of the connection fields; with `advance`, on to Source once it passes. */
  checkConnection: (advance: boolean) => void;
  /** Read the export and count its plan (and follow every later change); with `advance`, on to Hashes when done. */
  readPlan: (advance: boolean) => void;
  checkPassword: () => void;
  /** Ask y/n, then run exactly what `core-migrate push` (or `sync`) with these settings would. */
  startPush: () => void;
  /** Work out the delta a sync would send (a dry run: nothing is written). */
  previewSync: () => void;
  togglePause: () => void;
  /** First call: stop safely (resumable); second: abandon the requests in flight. */
  stopPush: () => void;
  /** Count from the journal what a rollback removes, then ask y/n. */
  askRollback: () => void;
  startRollback: () => void;
  openReport: () => void;
  /** Go to the screen and field that fix a setting. */
  fix: (setting: string | undefined) => void;
  quit: () => void;
}

export interface ScreenContext {
  /** The state after every action so far, also those React has not rendered yet. */
  state: AppState;
  dispatch: (action: AppAction) => void;
  commands: AppCommands;
  cwd: string;
  /** The terminal's size now. */
  columns: number;
  rows: number;
}

/** What a screen's fields are built from: the state, and how to change it (nothing that runs work). */
export type FieldsContext = Pick<ScreenContext, 'state' | 'dispatch'>;

export interface BodyProps {
  state: AppState;
  fields: readonly FieldSpec[];
  columns: number;
  /** The rows the body has (the frame's size less its own lines). */
  rows: number;
}

/** A screen of the walk: its fields, what Enter and Esc do there, its own keys, its help, and how it looks. */
export interface ScreenSpec {
  id: ScreenId;
  title: string;
  fields: (context: FieldsContext) => FieldSpec[];
  /** Enter on a field that does not take it. */
  enter?: (context: ScreenContext) => void;
  /** Esc. Default: one step back. */
  back?: (context: ScreenContext) => void;
  /** Keys of the screen itself (handled before the focused field's); true when the key was taken. */
  keys?: (press: KeyPress, context: ScreenContext) => boolean;
  hints: (state: AppState) => KeyHint[];
  /** What the screen is for, for the help (`?`). */
  help: readonly string[];
  /** The message line: a question, the screen's status. Default: the focused field's problem. */
  message?: (state: AppState, fields: readonly FieldSpec[]) => { text: string; tone: 'error' | 'warning' | 'ok' | 'muted' | 'plain' } | undefined;
  Body: (props: BodyProps) => ReactNode;
}
