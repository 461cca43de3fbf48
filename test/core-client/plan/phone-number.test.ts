import { describe, expect, it } from 'vitest';
import { normalisePhoneNumber, phoneRegionOf } from '../../../core-client/src/plan/phone-number.js';

describe('normalisePhoneNumber', () => {
  it('writes an international number in E.164, whatever its spacing and punctuation', () => {
    expect(normalisePhoneNumber(' +1 (415) 555-0123 ')).toEqual({ ok: true, phoneNumber: '+14155550123' });
    expect(normalisePhoneNumber('+44 7700 900123', 'US')).toEqual({ ok: true, phoneNumber: '+447700900123' });
  });

  it('reads a national number in the default region, and refuses it without one, naming the flag', () => {
    expect(normalisePhoneNumber('07700 900123', 'GB')).toEqual({ ok: true, phoneNumber: '+447700900123' });
    expect(normalisePhoneNumber('(415) 555-0123', 'US')).toEqual({ ok: true, phoneNumber: '+14155550123' });
    expect(normalisePhoneNumber('07700 900123')).toEqual({
      ok: false,
      reason: '"07700 900123" has no country code: write it as +<country code><number>, or name the country of such numbers with --default-region (e.g. GB)',
    });
  });

  it('refuses what is not a possible number, with a sentence that says why', () => {
    expect(normalisePhoneNumber('call me')).toEqual({ ok: false, reason: '"call me" is not a phone number' });
    expect(normalisePhoneNumber('+44 12')).toEqual({ ok: false, reason: '"+44 12" is not a possible phone number for its country (+44)' });
    expect(normalisePhoneNumber('+1 415 555 0123 4567 8989')).toEqual({ ok: false, reason: '"+1 415 555 0123 4567 8989" is too long for a phone number' });
    expect(normalisePhoneNumber('+999 1234567')).toEqual({ ok: false, reason: '"+999 1234567" has no country code a phone number can have' });
    expect(normalisePhoneNumber('+1415\u001b[2J5550123')).toMatchObject({ ok: false, reason: expect.stringMatching(/control or invisible/) });
  });
});

describe('phoneRegionOf', () => {
  it('knows ISO 3166 codes in any case, and nothing else', () => {
    expect(phoneRegionOf(' gb ')).toBe('GB');
    expect(phoneRegionOf('US')).toBe('US');
    expect(phoneRegionOf('XX')).toBeUndefined();
    expect(phoneRegionOf('United Kingdom')).toBeUndefined();
  });
});
