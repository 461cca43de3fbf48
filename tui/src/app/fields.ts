import { applyTextKey } from '../components/text-edit.js';
import { noKeyFlags, type KeyPress } from './keys.js';
import type { FieldSpec } from './screen.js';
import type { AppAction } from './state.js';

function cycle(choices: readonly string[], current: string, step: 1 | -1): string {
  const index = choices.indexOf(current);
  return choices[(index + step + choices.length) % choices.length] ?? current;
}

export interface FieldKeyContext {
  cursorFromEnd: number;
  dispatch: (action: AppAction) => void;
  /** The completion shown after the cursor of this field, accepted with → at the end of the value. */
  completion?: string | undefined;
}

/**
 * What a key does to the focused field: typing and the cursor keys in text, ←/→/Space through choices. Returns
 * false when the key means nothing to the field (Enter, Esc, ↑/↓, Tab), so the screen decides.
 */
export function applyFieldKey(field: FieldSpec, press: KeyPress, context: FieldKeyContext): boolean {
  const { input, key } = press;
  switch (field.kind) {
    case 'text':
    case 'path': {
      if (key.rightArrow && context.cursorFromEnd === 0 && context.completion !== undefined) {
        context.dispatch(field.set(context.completion));
        context.dispatch({ type: 'cursor', cursorFromEnd: 0 });
        return true;
      }
      const next = applyTextKey({ value: field.value, cursorFromEnd: context.cursorFromEnd }, input, key);
      if (next === undefined) return false;
      if (next.value !== field.value) context.dispatch(field.set(next.value));
      context.dispatch({ type: 'cursor', cursorFromEnd: next.cursorFromEnd });
      return true;
    }
    case 'masked': {
      const next = applyTextKey({ value: field.value.reveal(), cursorFromEnd: 0 }, input, key, { masked: true, multiline: field.multiline === true });
      if (next === undefined) return false;
      context.dispatch(field.set(next.value));
      return true;
    }
    case 'choice': {
      if (key.leftArrow || key.rightArrow || input === ' ') {
        context.dispatch(field.set(cycle(field.choices, field.value, key.leftArrow ? -1 : 1)));
        return true;
      }
      return false;
    }
    case 'action':
      return false;
  }
}

/**
 * A paste into the focused field: text fields take it at the cursor (one line), masked ones at their end. Returns
 * false when the field takes no text.
 */
export function pasteIntoField(field: FieldSpec, text: string, context: FieldKeyContext): boolean {
  if (field.kind === 'text' || field.kind === 'path') {
    const next = applyTextKey({ value: field.value, cursorFromEnd: context.cursorFromEnd }, text, noKeyFlags);
    if (next === undefined) return false;
    context.dispatch(field.set(next.value));
    context.dispatch({ type: 'cursor', cursorFromEnd: next.cursorFromEnd });
    return true;
  }
  if (field.kind === 'masked') {
    const next = applyTextKey({ value: field.value.reveal(), cursorFromEnd: 0 }, text, noKeyFlags, { masked: true, multiline: field.multiline === true });
    if (next === undefined) return false;
    context.dispatch(field.set(next.value));
    return true;
  }
  return false;
}

/** Where ↑/↓, Tab and Shift+Tab move the focus among `count` fields (wrapping around). */
export function movedFocus(focus: number, count: number, press: KeyPress): number | undefined {
  const { key } = press;
  if (count === 0) return undefined;
  if (key.downArrow || (key.tab && !key.shift)) return (focus + 1) % count;
  if (key.upArrow || (key.tab && key.shift)) return (focus - 1 + count) % count;
  return undefined;
}
