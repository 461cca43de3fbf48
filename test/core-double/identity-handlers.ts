import { CoreErrorTexts, CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, fieldInvalid, isJsonObject, jsonAnswer, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { userJson } from './store.js';

/**
 * The identity calls beyond the contract, answered as core-behaviour.md records them ("Keeping a migrated user's
 * identity"). Each group can be switched off, so the double answers 404 like a core without it.
 */
export const identityFeatureNames = ['mapping', 'verification', 'metadata', 'lookup', 'removal', 'roles', 'emailChange', 'passwordless'] as const;
export type IdentityFeatureName = (typeof identityFeatureNames)[number];

/** SQL storage keeps at most this many characters of an external id. */
const MAX_EXTERNAL_ID_LENGTH = 128;

function requireQuery(context: HandlerContext, name: string): string {
  const value = context.query.get(name);
  return value === null ? fieldInvalid(name) : value;
}

/** POST /recipe/userid/map */
export function createMapping(context: HandlerContext): DoubleAnswer {
  const { body, store } = context;
  const coreId = requireString(body, 'superTokensUserId');
  const externalId = requireString(body, 'externalUserId').trim();
  const info = body['externalUserIdInfo'];
  if (info !== undefined && info !== null && typeof info !== 'string') return fieldInvalid('externalUserIdInfo');
  if (externalId === '') return fail(400, CoreErrorTexts.emptyExternalUserId);
  if (externalId.length > MAX_EXTERNAL_ID_LENGTH) return fail(500, `java.sql.SQLException: value too long for external_user_id (${externalId.length})`);
  if (store.isCoreId(externalId)) return fail(400, CoreErrorTexts.externalIdIsCoreId);
  const result = store.map(coreId, externalId, typeof info === 'string' ? info : undefined);
  switch (result.status) {
    case 'OK':
      return jsonAnswer({ status: CoreStatus.ok });
    case 'unknown':
      return jsonAnswer({ status: CoreStatus.unknownSuperTokensUserId });
    case 'exists':
      return jsonAnswer({
        status: CoreStatus.mappingAlreadyExists,
        doesSuperTokensUserIdExist: result.coreIdMapped,
        doesExternalUserIdExist: result.externalIdMapped,
      });
  }
}

/** GET /recipe/userid/map?userId=&userIdType= */
export function getMapping(context: HandlerContext): DoubleAnswer {
  const userId = requireQuery(context, 'userId');
  const type = context.query.get('userIdType') ?? 'ANY';
  if (type !== 'SUPERTOKENS' && type !== 'EXTERNAL' && type !== 'ANY') return fieldInvalid('userIdType');
  const mapping = context.store.mappingOf(userId, type);
  if (mapping === undefined) return jsonAnswer({ status: CoreStatus.unknownMapping });
  return jsonAnswer({
    status: CoreStatus.ok,
    superTokensUserId: mapping.coreId,
    externalUserId: mapping.externalId,
    // A real core leaves the field out when the mapping was made without it.
    ...(mapping.info === undefined ? {} : { externalUserIdInfo: mapping.info }),
  });
}

/** POST /recipe/user/email/verify/token */
export function createVerifyToken(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId');
  const email = requireString(context.body, 'email').trim().toLowerCase();
  const token = context.store.newVerifyToken(userId, email);
  return token === 'alreadyVerified' ? jsonAnswer({ status: CoreStatus.emailAlreadyVerified }) : jsonAnswer({ status: CoreStatus.ok, token });
}

/** POST /recipe/user/email/verify */
export function verifyEmail(context: HandlerContext): DoubleAnswer {
  const method = requireString(context.body, 'method');
  if (method !== 'token') return fieldInvalid('method');
  const verified = context.store.verifyWithToken(requireString(context.body, 'token'));
  if (verified === undefined) return jsonAnswer({ status: CoreStatus.invalidVerificationToken });
  const user = context.store.byCoreId(verified.userId);
  return jsonAnswer({ status: CoreStatus.ok, userId: user?.externalId ?? verified.userId, email: verified.email });
}

/** GET /recipe/user/email/verify?userId=&email= */
export function isEmailVerified(context: HandlerContext): DoubleAnswer {
  const isVerified = context.store.isVerified(requireQuery(context, 'userId'), requireQuery(context, 'email').trim().toLowerCase());
  return jsonAnswer({ status: CoreStatus.ok, isVerified });
}

/** POST /recipe/user/email/verify/remove — OK whether or not the email was verified. */
export function unverifyEmail(context: HandlerContext): DoubleAnswer {
  context.store.unverifyEmail(requireString(context.body, 'userId'), requireString(context.body, 'email').trim().toLowerCase());
  return jsonAnswer({ status: CoreStatus.ok });
}

/** PUT /recipe/user {recipeUserId, email} — a password user's new email (the id may be the mapped old id). */
export function changeEmail(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'recipeUserId');
  // The same call takes a plain password instead (never used by a migration, so the double does not serve it).
  if (context.body['email'] === undefined && context.body['password'] === undefined) return fail(400, 'You have to provide either email or password.');
  const email = requireString(context.body, 'email').trim().toLowerCase();
  switch (context.store.changeEmail(userId, email)) {
    case 'OK':
      return jsonAnswer({ status: CoreStatus.ok });
    case 'emailTaken':
      return jsonAnswer({ status: CoreStatus.emailAlreadyExists });
    case 'unknownUser':
      return jsonAnswer({ status: CoreStatus.unknownUserId });
  }
}

/** PUT /recipe/user/metadata — merges top-level keys; accepts any userId, as the core does. */
export function updateMetadata(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId');
  const update = context.body['metadataUpdate'];
  if (!isJsonObject(update)) return fieldInvalid('metadataUpdate');
  return jsonAnswer({ status: CoreStatus.ok, metadata: context.store.updateMetadata(userId, update) });
}

/** GET /recipe/user/metadata?userId= */
export function getMetadata(context: HandlerContext): DoubleAnswer {
  return jsonAnswer({ status: CoreStatus.ok, metadata: context.store.metadataOf(requireQuery(context, 'userId')) });
}

/** GET /recipe/user?email= (password users of the tenant) */
export function userByEmail(context: HandlerContext): DoubleAnswer {
  // A real core also finds a user by `?userId=`; the double serves the look-up by email only (the one a migration makes).
  const query = context.query.get('email');
  if (query === null) return fail(400, 'Please provide one of userId or email');
  const email = query.trim().toLowerCase();
  const user = context.store.findEmailPasswordUser(context.scope, email);
  if (user === undefined) return jsonAnswer({ status: CoreStatus.unknownEmail });
  return jsonAnswer({ status: CoreStatus.ok, user: userJson(user, context.userShape, context.store.isVerified(user.id, user.email)) });
}

/** POST /user/remove — OK also for an id it does not know. */
export function removeUser(context: HandlerContext): DoubleAnswer {
  context.store.remove(requireString(context.body, 'userId'));
  return jsonAnswer({ status: CoreStatus.ok });
}

/** GET /users?limit=&paginationToken= — the token is the position of the next user, base64. */
export function listUsers(context: HandlerContext): DoubleAnswer {
  const limit = Number(context.query.get('limit') ?? '100');
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return fail(400, 'limit must a positive integer with min value 1 and max value 500');
  const token = context.query.get('paginationToken');
  const start = token === null ? 0 : Number(Buffer.from(token, 'base64').toString('utf8'));
  if (!Number.isInteger(start) || start < 0) return fail(400, 'invalid pagination token');
  const users = context.store.inScope(context.scope);
  const page = users.slice(start, start + limit).map((user) => userJson(user, context.userShape, context.store.isVerified(user.id, user.email ?? '')));
  const next = start + limit < users.length ? { nextPaginationToken: Buffer.from(String(start + limit)).toString('base64') } : {};
  return jsonAnswer({ status: CoreStatus.ok, users: page, ...next });
}

/** GET /users/count */
export function countUsers(context: HandlerContext): DoubleAnswer {
  return jsonAnswer({ status: CoreStatus.ok, count: context.store.inScope(context.scope).length });
}
