import { CorePaths, CoreStatus } from '../contract/names.js';
import {
  EmailVerifyTokenBodySchema,
  RemoveUserBodySchema,
  type UserIdMapBody,
  UserIdMapBodySchema,
  type UserMetadataBody,
  UserMetadataBodySchema,
  type EmailVerifyRemoveBody,
  EmailVerifyRemoveBodySchema,
} from '../contract/requests.js';
import {
  UserIdMapAnswerSchema,
  GetUserIdMapAnswerSchema,
  EmailVerifyTokenAnswerSchema,
  EmailVerifyAnswerSchema,
  IsEmailVerifiedAnswerSchema,
  UserMetadataAnswerSchema,
  UserCountAnswerSchema,
  RemoveUserAnswerSchema,
  EmailVerifyRemoveAnswerSchema,
} from '../contract/responses.js';
import { Secret } from '../secret.js';
import type { CallOptions, CoreChannel, Exchange } from './channel.js';

/** The calls that keep a migrated user's identity: its id mapping, email verification and metadata; and counting and removing users. */

export type UserIdMapResult =
  | { outcome: 'mapped' }
  /** This exact mapping exists already: done. */
  | { outcome: 'alreadyMapped' }
  /** The core id or the external id is mapped to something else. */
  | { outcome: 'conflict'; coreIdMapped: boolean; externalIdMapped: boolean }
  | { outcome: 'unknownUser' };
export type EmailVerifyTokenResult = { outcome: 'token'; token: Secret } | { outcome: 'alreadyVerified' };
export type EmailVerifyResult = { outcome: 'verified' } | { outcome: 'invalidToken' };

/**
 * `POST /recipe/userid/map`: the old system's id becomes the user's id in every later answer. A mapping that
 * exists exactly like this one (both ids mapped, to each other) is `alreadyMapped`, which the caller treats as done.
 */
export async function mapUserId(channel: CoreChannel, body: UserIdMapBody, options: CallOptions): Promise<UserIdMapResult> {
  const payload = UserIdMapBodySchema.parse(body);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.userIdMap), body: payload };
  return channel.call(exchange, options, (answer): UserIdMapResult => {
    const parsed = channel.json(answer, UserIdMapAnswerSchema);
    if (parsed.status === CoreStatus.ok) return { outcome: 'mapped' };
    if (parsed.status === CoreStatus.unknownSuperTokensUserId) return { outcome: 'unknownUser' };
    if (parsed.doesSuperTokensUserIdExist && parsed.doesExternalUserIdExist) return { outcome: 'alreadyMapped' };
    return { outcome: 'conflict', coreIdMapped: parsed.doesSuperTokensUserIdExist, externalIdMapped: parsed.doesExternalUserIdExist };
  });
}

/** `GET /recipe/userid/map`: the external id a user is mapped to, if any (also the pre-flight's probe). */
export async function userIdMapping(channel: CoreChannel, userId: string, options: CallOptions): Promise<{ coreId: string; externalId: string } | undefined> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.userIdMap, { userId, userIdType: 'ANY' }) };
  return channel.call(exchange, options, (answer) => {
    const parsed = channel.json(answer, GetUserIdMapAnswerSchema);
    return parsed.status === CoreStatus.ok ? { coreId: parsed.superTokensUserId, externalId: parsed.externalUserId } : undefined;
  });
}

/** `POST /recipe/user/email/verify/token`; the token is a Secret: whoever holds it can verify the email. */
export async function createEmailVerificationToken(
  channel: CoreChannel,
  body: { userId: string; email: string },
  options: CallOptions,
): Promise<EmailVerifyTokenResult> {
  const payload = EmailVerifyTokenBodySchema.parse(body);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.emailVerifyToken), body: payload };
  return channel.call(exchange, options, (answer): EmailVerifyTokenResult => {
    const parsed = channel.json(answer, EmailVerifyTokenAnswerSchema);
    return parsed.status === CoreStatus.ok ? { outcome: 'token', token: new Secret(parsed.token) } : { outcome: 'alreadyVerified' };
  });
}

/** `POST /recipe/user/email/verify` with a token from `createEmailVerificationToken`. */
export async function verifyEmail(channel: CoreChannel, token: Secret, options: CallOptions): Promise<EmailVerifyResult> {
  const revealed = token.reveal();
  const exchange: Exchange = {
    method: 'POST',
    path: channel.recipePath(CorePaths.emailVerify),
    body: { method: 'token', token: revealed },
    secrets: [revealed],
  };
  return channel.call(exchange, options, (answer): EmailVerifyResult => {
    const parsed = channel.json(answer, EmailVerifyAnswerSchema);
    return parsed.status === CoreStatus.ok ? { outcome: 'verified' } : { outcome: 'invalidToken' };
  });
}

/** `GET /recipe/user/email/verify`. */
export async function isEmailVerified(channel: CoreChannel, query: { userId: string; email: string }, options: CallOptions): Promise<boolean> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.emailVerify, query) };
  return channel.call(exchange, options, (answer) => channel.json(answer, IsEmailVerifiedAnswerSchema).isVerified);
}

/** `POST /recipe/user/email/verify/remove`: the email is unverified afterwards (OK also when it was not verified). */
export async function unverifyEmail(channel: CoreChannel, body: EmailVerifyRemoveBody, options: CallOptions): Promise<void> {
  const payload = EmailVerifyRemoveBodySchema.parse(body);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.emailVerifyRemove), body: payload };
  return channel.call(exchange, options, (answer) => {
    channel.json(answer, EmailVerifyRemoveAnswerSchema);
  });
}

/** `PUT /recipe/user/metadata`: merges top-level keys; answers the merged metadata. */
export async function updateUserMetadata(channel: CoreChannel, body: UserMetadataBody, options: CallOptions): Promise<Record<string, unknown>> {
  const payload = UserMetadataBodySchema.parse(body);
  const exchange: Exchange = { method: 'PUT', path: channel.recipePath(CorePaths.userMetadata), body: payload };
  return channel.call(exchange, options, (answer) => channel.json(answer, UserMetadataAnswerSchema).metadata);
}

/** `GET /recipe/user/metadata` (`{}` when none). */
export async function userMetadata(channel: CoreChannel, userId: string, options: CallOptions): Promise<Record<string, unknown>> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.userMetadata, { userId }) };
  return channel.call(exchange, options, (answer) => channel.json(answer, UserMetadataAnswerSchema).metadata);
}

/** `POST /user/remove`: the user with its mapping, metadata and verification state; OK also for an unknown id. */
export async function removeUser(channel: CoreChannel, userId: string, options: CallOptions): Promise<void> {
  const payload = RemoveUserBodySchema.parse({ userId });
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.removeUser), body: payload };
  return channel.call(exchange, options, (answer) => {
    channel.json(answer, RemoveUserAnswerSchema);
  });
}

/**
 * `GET /users/count` (read-only): how many users the tenant has. The journal's check that the users it records as
 * created are still on the core at its address; a core without the call answers 404 (`NotFound`, thrown).
 */
export async function userCount(channel: CoreChannel, options: CallOptions): Promise<number> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.userCount) };
  return channel.call(exchange, options, (answer) => channel.json(answer, UserCountAnswerSchema).count);
}
