import { hasUnprintable, printable } from '../printable.js';

/** The core trims and lower-cases emails and then stores them as they are; the plan does the same, and validates. */
export const MAX_EMAIL_LENGTH = 256;

// Deliberately simple: one @, no spaces, a dot in the domain. Anything stricter refuses real addresses.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

export type EmailCheck = { ok: true; email: string } | { ok: false; code: 'missingEmail' | 'invalidEmail'; reason: string };

export function normaliseEmail(raw: string | undefined): EmailCheck {
  const email = (raw ?? '').trim().toLowerCase();
  if (email.length === 0) return { ok: false, code: 'missingEmail', reason: 'the record has no email address' };
  if (email.length > MAX_EMAIL_LENGTH) {
    return { ok: false, code: 'invalidEmail', reason: `the email is ${email.length} characters long; the core stores at most ${MAX_EMAIL_LENGTH}` };
  }
  // ESC, NUL, U+202E and the like: no mail system delivers to them, and printed they act on the operator's terminal.
  if (hasUnprintable(email)) {
    return { ok: false, code: 'invalidEmail', reason: `"${printable(email)}" holds control or invisible formatting characters (shown escaped)` };
  }
  if (!EMAIL_SHAPE.test(email)) return { ok: false, code: 'invalidEmail', reason: `"${email}" is not an email address` };
  return { ok: true, email };
}
