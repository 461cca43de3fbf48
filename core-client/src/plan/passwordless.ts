import type { EmailLinkPolicy } from '../choices.js';
import type { SourceUser } from '../sources/source-user.js';
import { normaliseEmail } from './email.js';
import type { PlanItem } from './operation.js';
import { normalisePhoneNumber, type CountryCode } from './phone-number.js';
import { isThirdPartyProvider } from './providers.js';
import { rejection } from './rejection.js';

export interface PasswordlessRules {
  /** False (`--no-passwordless`): phone and email-link logins are refused `passwordlessLeftOut`, listed for a reset. */
  passwordless?: boolean;
  /** What an email-only user becomes: a passwordless email user (default), or refused for a reset. */
  emailLink?: EmailLinkPolicy;
  /** The country of phone numbers written without a country code. */
  defaultRegion?: CountryCode;
}

/**
 * The record's passwordless login, if it has one: a phone number, or (for a user with no other login) an email it
 * signs in with by a code or link. `others`: what the record's password or third-party accounts became; the first
 * of them keeps the old id, and a phone login beside them becomes a separate user, as a linked account does.
 */
export function planPasswordless(user: SourceUser, key: string, rules: PasswordlessRules, others: readonly PlanItem[]): PlanItem | undefined {
  const operationKey = `${key}#pl`;
  const hasOtherAccount = others.length > 0;
  const email = normaliseEmail(user.email);
  const phone = user.phoneNumber?.trim() ?? '';
  const otherImported = others.some((item) => item.kind !== 'rejection');
  if (phone === '' && user.phoneNumberMissingFrom !== undefined) {
    const field = user.phoneNumberMissingFrom;
    const reason = `the user signs in with a code sent to its phone, but field "${field}" holds no number: add the number to the export, or the user needs a password reset`;
    return {
      ...rejection(user, operationKey, 'missingPhoneNumber', `${reason}${otherImported ? ' (its other login is imported)' : ''}`, 'passwordlessSignInUp'),
      location: { ...user.location, field },
    };
  }
  if (phone !== '') {
    if (rules.passwordless === false) {
      const reason = otherImported
        ? 'its phone login is left out (--no-passwordless); the user keeps its other login'
        : 'the user signs in with its phone number and is left out (--no-passwordless): it needs a password reset';
      return rejection(user, operationKey, 'passwordlessLeftOut', reason, 'passwordlessSignInUp');
    }
    const checked = normalisePhoneNumber(phone, rules.defaultRegion);
    if (!checked.ok) {
      return {
        ...rejection(
          user,
          operationKey,
          'invalidPhoneNumber',
          `${checked.reason}${otherImported ? ' (its other login is imported)' : ''}`,
          'passwordlessSignInUp',
        ),
        location: { ...user.location, field: 'phoneNumber' },
      };
    }
    return {
      kind: 'passwordlessSignInUp',
      operationKey,
      location: user.location,
      body: { phoneNumber: checked.phoneNumber },
      ...(email.ok ? { email: email.email } : {}),
    };
  }
  if (hasOtherAccount || !signsInByEmailCode(user) || (!email.ok && email.code === 'missingEmail')) return undefined;
  if ((rules.emailLink ?? 'passwordless') === 'reset') {
    // Keyed as it was before email-link users were imported, so a journal of that time still knows the refusal.
    return rejection(
      user,
      key,
      'withoutCredentials',
      'the user has an email and neither a password hash nor a linked provider (an email-link user); --email-link reset: it needs a password reset',
      'passwordlessSignInUp',
    );
  }
  if (rules.passwordless === false) {
    return rejection(
      user,
      operationKey,
      'passwordlessLeftOut',
      'the user signs in with an email link and is left out (--no-passwordless): it needs a password reset',
      'passwordlessSignInUp',
    );
  }
  if (!email.ok) return rejection(user, operationKey, email.code, `${email.reason} (an email-link user)`, 'passwordlessSignInUp');
  return { kind: 'passwordlessSignInUp', operationKey, location: user.location, body: { email: email.email }, email: email.email };
}

/** What the old system says, else: an email with neither a password hash nor a third-party provider. */
function signsInByEmailCode(user: SourceUser): boolean {
  if (user.signsInByEmailCode !== undefined) return user.signsInByEmailCode;
  const hasHash = (user.passwordHash ?? '').trim() !== '';
  return !hasHash && !user.providers.some((provider) => isThirdPartyProvider(provider.providerId));
}
