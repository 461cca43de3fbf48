import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { noKeyFlags } from '../../../tui/src/app/keys.js';
import { visiblePart } from '../../../tui/src/components/cursor.js';
import { maskOf } from '../../../tui/src/components/field-list.js';
import { applyTextKey, type TextEdit } from '../../../tui/src/components/text-edit.js';
import { wrapText } from '../../../tui/src/components/wrap.js';

const noKey: Key = noKeyFlags;
const atEnd = (value: string): TextEdit => ({ value, cursorFromEnd: 0 });

describe('applyTextKey', () => {
  it('types and pastes at the cursor, removes with Backspace, clears with Ctrl+U', () => {
    expect(applyTextKey(atEnd('ab'), 'c', noKey)).toEqual(atEnd('abc'));
    expect(applyTextKey({ value: 'ac', cursorFromEnd: 1 }, 'b', noKey)).toEqual({ value: 'abc', cursorFromEnd: 1 });
    expect(applyTextKey(atEnd(''), 'pasted-key\r\n', noKey)).toEqual(atEnd('pasted-key'));
    // A space typed alone (a password of several words) is kept.
    expect(applyTextKey(atEnd('correct'), ' ', noKey)).toEqual(atEnd('correct '));
    expect(applyTextKey(atEnd('correct'), ' ', noKey, { masked: true })).toEqual(atEnd('correct '));
    expect(applyTextKey({ value: 'a.json', cursorFromEnd: 5 }, 'users\r\n', noKey)).toEqual({ value: 'ausers.json', cursorFromEnd: 5 });
    expect(applyTextKey(atEnd('abc'), '', { ...noKey, backspace: true })).toEqual(atEnd('ab'));
    expect(applyTextKey({ value: 'abc', cursorFromEnd: 2 }, 'u', { ...noKey, ctrl: true })).toEqual(atEnd(''));
  });

  it('moves the cursor with ←/→, Home/End and Ctrl+A/Ctrl+E, and stops at both ends', () => {
    const field = { value: 'abc', cursorFromEnd: 1 };
    expect(applyTextKey(field, '', { ...noKey, leftArrow: true })).toEqual({ value: 'abc', cursorFromEnd: 2 });
    expect(applyTextKey(field, '', { ...noKey, rightArrow: true })).toEqual(atEnd('abc'));
    expect(applyTextKey(field, '', { ...noKey, home: true })).toEqual({ value: 'abc', cursorFromEnd: 3 });
    expect(applyTextKey(field, 'a', { ...noKey, ctrl: true })).toEqual({ value: 'abc', cursorFromEnd: 3 });
    expect(applyTextKey({ value: 'abc', cursorFromEnd: 3 }, '', { ...noKey, end: true })).toEqual(atEnd('abc'));
    expect(applyTextKey({ value: 'abc', cursorFromEnd: 3 }, 'e', { ...noKey, ctrl: true })).toEqual(atEnd('abc'));
    expect(applyTextKey({ value: 'abc', cursorFromEnd: 3 }, '', { ...noKey, leftArrow: true })).toBeUndefined();
    expect(applyTextKey(atEnd('abc'), '', { ...noKey, rightArrow: true })).toBeUndefined();
  });

  it('deletes before the cursor with Backspace and after it with Delete', () => {
    const field = { value: 'abcd', cursorFromEnd: 2 };
    expect(applyTextKey(field, '', { ...noKey, backspace: true })).toEqual({ value: 'acd', cursorFromEnd: 2 });
    expect(applyTextKey(field, '', { ...noKey, delete: true })).toEqual({ value: 'abd', cursorFromEnd: 1 });
    expect(applyTextKey(atEnd('abcd'), '', { ...noKey, delete: true })).toBeUndefined();
    expect(applyTextKey({ value: 'abcd', cursorFromEnd: 4 }, '', { ...noKey, backspace: true })).toBeUndefined();
  });

  it('treats an emoji as one character', () => {
    expect(applyTextKey({ value: 'a😀b', cursorFromEnd: 1 }, '', { ...noKey, backspace: true })).toEqual({ value: 'ab', cursorFromEnd: 1 });
  });

  it('only appends to and deletes from the end of a masked field, whatever the cursor says', () => {
    const secret = { value: 'abc', cursorFromEnd: 2 };
    expect(applyTextKey(secret, 'd', noKey, { masked: true })).toEqual(atEnd('abcd'));
    expect(applyTextKey(secret, '', { ...noKey, backspace: true }, { masked: true })).toEqual(atEnd('ab'));
    for (const move of ['leftArrow', 'rightArrow', 'home', 'end', 'delete'] as const) {
      expect(applyTextKey(atEnd('abc'), '', { ...noKey, [move]: true }, { masked: true })).toBeUndefined();
    }
    expect(applyTextKey(atEnd('abc'), 'a', { ...noKey, ctrl: true }, { masked: true })).toBeUndefined();
  });

  it('leaves Tab, Enter, Esc and ↑/↓ to the screen', () => {
    for (const name of ['tab', 'return', 'escape', 'upArrow', 'downArrow'] as const) {
      expect(applyTextKey(atEnd('abc'), '', { ...noKey, [name]: true })).toBeUndefined();
    }
  });

  it('keeps line breaks of a multi-line paste when asked', () => {
    expect(applyTextKey(atEnd(''), 'hash_config {\r\n  rounds: 8,\r}', noKey, { multiline: true, masked: true })?.value).toBe('hash_config {\n  rounds: 8,\n}');
  });
});

describe('what a long field shows', () => {
  const path = Array.from('exports/2024/customers/users-final.json');
  it('keeps the cursor in view, cutting the far ends with …', () => {
    expect(visiblePart(path, path.length, 12)).toEqual({ before: '…final.json', under: undefined, after: '' });
    expect(visiblePart(path, 3, 12)).toEqual({ before: 'exp', under: 'o', after: 'rts/20…' });
    const middle = visiblePart(path, 20, 12);
    expect(middle.under).toBe(path[20]);
    expect(`${middle.before}${middle.under ?? ''}${middle.after}`).toHaveLength(11);
    expect(visiblePart(Array.from('short'), 2, 12)).toEqual({ before: 'sh', under: 'o', after: 'rt' });
  });
});

describe('text wrapped for the screen', () => {
  it('wraps at spaces, breaks a word longer than the line, and never loses a character', () => {
    expect(wrapText('one two three', 9)).toEqual(['one two', 'three']);
    expect(wrapText('a'.repeat(20), 8)).toEqual(['aaaaaaaa', 'aaaaaaaa', 'aaaa']);
    const sentence = 'the password does NOT match ada@example.com (vendor_scrypt): check the signer key';
    expect(wrapText(sentence, 30).join(' ')).toBe(sentence);
    for (const line of wrapText(sentence, 30)) expect(line.length).toBeLessThanOrEqual(30);
  });
});

describe('a masked value', () => {
  it('shows a dot a character up to a limit, and never the characters', () => {
    expect(maskOf(3, 40)).toBe('•••');
    expect(maskOf(0, 40)).toBe('');
    expect(maskOf(100, 40)).toBe(`${'•'.repeat(23)}…`);
    expect(maskOf(100, 10)).toBe(`${'•'.repeat(9)}…`);
  });
});
