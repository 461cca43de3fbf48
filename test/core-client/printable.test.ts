import { describe, expect, it } from 'vitest';
import { hasUnprintable, printable, printableJson, printableLines } from '../../core-client/src/printable.js';

describe('printable', () => {
  it('escapes C0, DEL, C1, bidi overrides, zero-width and line separators', () => {
    expect(printable('a\u001b[31mb\u0000c\u007fd\u0085e\u202ef\u200bg\u2028h\ti')).toBe('a\\x1b[31mb\\x00c\\x7fd\\x85e\\u{202e}f\\u{200b}g\\u{2028}h\\x09i');
    expect(printable('plain ascii and ünïcödé')).toBe('plain ascii and ünïcödé');
    expect(hasUnprintable('ok@example.com')).toBe(false);
    expect(hasUnprintable('\u202eok@example.com')).toBe(true);
  });

  it('printableLines keeps newlines only; printableJson stays valid JSON', () => {
    expect(printableLines('one\u001b\ntwo\r\n')).toBe('one\\x1b\ntwo\\x0d\n');
    const json = printableJson({ email: '\u202ex\u0085' });
    expect(json).toBe('{"email":"\\u202ex\\u0085"}');
    expect(JSON.parse(json)).toEqual({ email: '\u202ex\u0085' });
  });
});
