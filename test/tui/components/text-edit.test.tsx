import type { Key } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Secret } from 'core-client';
import { MaskedInput } from '../../../tui/src/components/masked-input.js';
import { applyTextKey } from '../../../tui/src/components/text-edit.js';

const noKey: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
};

describe('applyTextKey', () => {
  it('appends typed and pasted text, removes with Backspace, clears with Ctrl+U', () => {
    expect(applyTextKey('ab', 'c', noKey)).toBe('abc');
    expect(applyTextKey('', 'pasted-key\r\n', noKey)).toBe('pasted-key');
    expect(applyTextKey('abc', '', { ...noKey, backspace: true })).toBe('ab');
    expect(applyTextKey('abc', 'u', { ...noKey, ctrl: true })).toBe('');
  });

  it('leaves navigation and Enter to the screen', () => {
    for (const name of ['tab', 'return', 'escape', 'upArrow', 'downArrow', 'leftArrow', 'rightArrow'] as const) {
      expect(applyTextKey('abc', '', { ...noKey, [name]: true })).toBeUndefined();
    }
  });

  it('keeps line breaks of a multi-line paste when asked', () => {
    expect(applyTextKey('', 'hash_config {\r\n  rounds: 8,\r}', noKey, true)).toBe('hash_config {\n  rounds: 8,\n}');
  });
});

describe('MaskedInput', () => {
  it('shows the same *** whatever the secret and its length', () => {
    const short = render(<MaskedInput value={new Secret('abc')} focus={false} />).lastFrame();
    const long = render(<MaskedInput value={new Secret('a-much-longer-secret-value')} focus={false} />).lastFrame();
    expect(short).toBe('***');
    expect(long).toBe('***');
    expect(render(<MaskedInput value={new Secret('')} focus={false} />).lastFrame()).toBe('(empty)');
  });
});
