import { z } from 'zod';
import type { RecordLocation } from '../../location.js';
import type { LinkedProvider, SourceUser } from '../source-user.js';
import { dropUndefined } from '../generic/generic-record.js';

/**
 * Sign-in methods Firebase lists among a user's providers that are not third-party accounts: the password
 * itself and the phone number. They are not linked, like Auth0's own `auth0` connection.
 */
const firstPartyProviders = new Set(['password', 'phone']);

export const FirebaseProviderInfoSchema = z.object({
  providerId: z.string().min(1),
  rawId: z.string().min(1),
  email: z.string().optional(),
});

/** The fields of a Firebase auth:export JSON user this tool reads; other fields are ignored. */
export const FirebaseJsonUserSchema = z.object({
  localId: z.string().min(1),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  salt: z.string().optional(),
  providerUserInfo: z.array(FirebaseProviderInfoSchema).optional(),
});
export type FirebaseJsonUser = z.infer<typeof FirebaseJsonUserSchema>;
export type FirebaseProviderInfo = z.infer<typeof FirebaseProviderInfoSchema>;

export function toLinkedProviders(infos: readonly FirebaseProviderInfo[]): LinkedProvider[] {
  return infos
    .filter((info) => !firstPartyProviders.has(info.providerId))
    .map((info) => ({ providerId: info.providerId, providerUserId: info.rawId, ...(info.email ? { email: info.email } : {}) }));
}

export function firebaseSourceUser(user: FirebaseJsonUser, location: RecordLocation): SourceUser {
  const optional = dropUndefined({
    email: user.email === '' ? undefined : user.email,
    emailVerified: user.emailVerified,
    passwordHash: user.passwordHash === '' ? undefined : user.passwordHash,
    salt: user.salt === '' ? undefined : user.salt,
  });
  return { kind: 'user', location, sourceId: user.localId, ...optional, providers: toLinkedProviders(user.providerUserInfo ?? []) };
}
