import { isSupportedCountry, ParseError, parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js';
import { hasUnprintable, printable } from '../printable.js';
import { optional } from '../optional.js';

export type { CountryCode };

export type PhoneNumberCheck = { ok: true; phoneNumber: string } | { ok: false; reason: string };

/**
 * The core stores a passwordless user's number as it is given, without checking it (core-behaviour.md): the plan
 * writes it in E.164 (`+` and digits) by the number's country rules, so one person has one spelling of their number.
 * A number without a country code is read in `defaultRegion`'s plan, or refused.
 */
export function normalisePhoneNumber(raw: string, defaultRegion?: CountryCode): PhoneNumberCheck {
  const text = raw.trim();
  if (hasUnprintable(text)) {
    return { ok: false, reason: `the phone number "${printable(text)}" holds control or invisible formatting characters (shown escaped)` };
  }
  try {
    const parsed = parsePhoneNumberWithError(text, optional('defaultCountry', defaultRegion));
    if (!parsed.isPossible()) return { ok: false, reason: `"${text}" is not a possible phone number for its country (+${parsed.countryCallingCode})` };
    return { ok: true, phoneNumber: parsed.number };
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return { ok: false, reason: parseFailure(text, error.message, defaultRegion) };
  }
}

function parseFailure(text: string, code: string, defaultRegion: CountryCode | undefined): string {
  switch (code) {
    case 'INVALID_COUNTRY':
      return text.startsWith('+') || defaultRegion !== undefined
        ? `"${text}" has no country code a phone number can have`
        : `"${text}" has no country code: write it as +<country code><number>, or name the country of such numbers with --default-region (e.g. GB)`;
    case 'TOO_SHORT':
      return `"${text}" is too short for a phone number`;
    case 'TOO_LONG':
      return `"${text}" is too long for a phone number`;
    default:
      return `"${text}" is not a phone number`;
  }
}

/** `--default-region`: an ISO 3166 country code the phone library knows, in any case (`gb` is GB). */
export function phoneRegionOf(text: string): CountryCode | undefined {
  const code = text.trim().toUpperCase();
  return isSupportedCountry(code) ? code : undefined;
}
