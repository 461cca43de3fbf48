import { z } from 'zod';
import type { RecordLocation } from '../../location.js';
import type { LinkedProvider, SourceUser } from '../source-user.js';
import { dropUndefined } from '../generic/generic-record.js';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/json-depth.js';
import { isoTimeOfEpochMs } from './epoch-time.js';

/**
 * Sign-in methods Firebase lists among a user's providers that are not third-party accounts: the password
 * itself and the phone number. They are not linked, like Auth0's own `auth0` connection.
 */
const firstPartyProviders = new Set(['password', 'phone']);

export const FirebaseProviderInfoSchema = z.object({
  providerId: z.string().min(1),
  /** The user's id at the provider; a `phone` entry may give only its `phoneNumber`, and a missing one is the plan's to refuse. */
  rawId: z.string().optional(),
  email: z.string().optional(),
  /** The `phone` provider's entry carries the number (its rawId is the number too). */
  phoneNumber: z.string().optional(),
});

/**
 * The fields of a Firebase JSON user this tool reads; other fields are ignored, such as those the account API adds to
 * what `auth:export` writes (`lastRefreshAt`, `validSince`, `passwordUpdatedAt`, `emailLinkSignin`, and `federatedId`
 * in `providerUserInfo`).
 */
export const FirebaseJsonUserSchema = z.object({
  localId: z.string().min(1),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  salt: z.string().optional(),
  providerUserInfo: z.array(FirebaseProviderInfoSchema).optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  /** Milliseconds since the epoch, as text. */
  createdAt: z.string().optional(),
  lastSignedInAt: z.string().optional(),
  phoneNumber: z.string().optional(),
  /** The custom claims as a JSON text. */
  customAttributes: z.string().optional(),
  disabled: z.boolean().optional(),
  /** The account signs in by an email link (Firebase lists it as a `password` provider without a password). */
  emailLinkSignin: z.boolean().optional(),
});
export type FirebaseJsonUser = z.infer<typeof FirebaseJsonUserSchema>;
export type FirebaseProviderInfo = z.infer<typeof FirebaseProviderInfoSchema>;

export function toLinkedProviders(infos: readonly FirebaseProviderInfo[]): LinkedProvider[] {
  return infos
    .filter((info) => !firstPartyProviders.has(info.providerId))
    .map((info) => ({ providerId: info.providerId, providerUserId: info.rawId ?? '', ...(info.email ? { email: info.email } : {}) }));
}

const DIGITS = /^\s*\d+\s*$/;

/** Firebase times are milliseconds since the epoch as text; anything else (or past any date) is kept as exported. */
function isoTime(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return (DIGITS.test(value) ? isoTimeOfEpochMs(Number(value)) : undefined) ?? value;
}

/**
 * Custom claims are an object in JSON text; text that is not one is kept under `raw` rather than dropped, and so is
 * an object nested deeper than any record may be (later steps would overflow the stack walking it).
 */
function customClaims(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (nestsDeeperThan(text, MAX_RECORD_DEPTH)) return { raw: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Kept as text below.
  }
  return { raw: text };
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/** Firebase phone auth: the user's `phoneNumber`, else its `phone` provider entry's number. */
function phoneLogin(user: FirebaseJsonUser): string | undefined {
  const entry = user.providerUserInfo?.find((info) => info.providerId === 'phone');
  return nonEmpty(user.phoneNumber) ?? nonEmpty(entry?.phoneNumber) ?? nonEmpty(entry?.rawId);
}

/** A `phone` provider entry with no number in it (and none on the user): the field its number should be in. */
function phoneNumberMissingFrom(user: FirebaseJsonUser, phoneNumber: string | undefined): string | undefined {
  const at = user.providerUserInfo?.findIndex((info) => info.providerId === 'phone') ?? -1;
  return phoneNumber === undefined && at >= 0 ? `providerUserInfo[${at}].phoneNumber` : undefined;
}

export function firebaseSourceUser(user: FirebaseJsonUser, location: RecordLocation): SourceUser {
  const phoneNumber = phoneLogin(user);
  const optional = dropUndefined({
    phoneNumberMissingFrom: phoneNumberMissingFrom(user, phoneNumber),
    email: nonEmpty(user.email),
    emailVerified: user.emailVerified,
    passwordHash: nonEmpty(user.passwordHash),
    salt: nonEmpty(user.salt),
    disabled: user.disabled,
    phoneNumber,
    signsInByEmailCode: user.emailLinkSignin === true ? true : undefined,
  });
  const profile = dropUndefined({
    displayName: nonEmpty(user.displayName),
    photoUrl: nonEmpty(user.photoUrl),
    signedUpAt: isoTime(user.createdAt),
    lastSignedInAt: isoTime(user.lastSignedInAt),
    phoneNumber,
    customClaims: customClaims(user.customAttributes),
  });
  return {
    kind: 'user',
    location,
    sourceId: user.localId,
    system: 'firebase',
    ...optional,
    ...(Object.keys(profile).length === 0 ? {} : { profile }),
    providers: toLinkedProviders(user.providerUserInfo ?? []),
  };
}
