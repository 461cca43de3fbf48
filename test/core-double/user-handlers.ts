import { CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, fieldInvalid, jsonAnswer, optionalBoolean, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { createMapping as createMappingOfFreeUser } from './identity-handlers.js';
import { type StoredUser, type UserStore, userJson } from './store.js';

/*
 * A user by id, and the removal of a user-id mapping, as a real core 10.0.7 answered the official Node SDK
 * (sdk-flows.json, flows 5 and 8).
 */

/** A GET's required query parameter, refused in the core's words. */
export function queryParameter(context: HandlerContext, name: string): string {
  const value = context.query.get(name);
  return value === null ? fail(400, `Field name '${name}' is missing in GET request`) : value;
}

/** The user as every answer gives it, with its email's verification. */
export function userAnswer(store: UserStore, user: StoredUser, shape: 'recent' | 'legacy'): Record<string, unknown> {
  return userJson(user, shape, user.email === undefined ? false : store.isVerified(user.id, user.email));
}

/** GET /user/id?userId= — by the core's own id or the external id it is mapped to. */
export function getUserById(context: HandlerContext): DoubleAnswer {
  const coreId = context.store.resolve(queryParameter(context, 'userId'));
  const user = coreId === undefined ? undefined : context.store.byCoreId(coreId);
  if (user === undefined) return jsonAnswer({ status: CoreStatus.unknownUserId });
  return jsonAnswer({ status: CoreStatus.ok, user: userAnswer(context.store, user, context.userShape) });
}

/**
 * POST /recipe/userid/map — first what a real core 10 checks of a user that already has data under its own id (read
 * off its source; the recording maps a user that has none): without `force`, a session, metadata or roles refuse the
 * mapping (`UserId is already in use in Session recipe`), as the application's data would stay under the id the user
 * no longer has; an email verification alone does not (from CDI 4.0 the core moves it to the external id, and the
 * double's follows the user anyway). Then the mapping itself (identity-handlers.ts).
 */
export function createMapping(context: HandlerContext): DoubleAnswer | Promise<DoubleAnswer> {
  const { body, store } = context;
  const coreId = body['superTokensUserId'];
  const externalId = body['externalUserId'];
  const force = optionalBoolean(body, 'force') === true;
  // Only a user the core knows, not mapped yet, to an id that is free: the other cases have answers of their own.
  const checked =
    !force &&
    typeof coreId === 'string' &&
    typeof externalId === 'string' &&
    externalId.trim() !== '' &&
    store.isCoreId(coreId) &&
    store.mappingOf(coreId, 'SUPERTOKENS') === undefined &&
    store.mappingOf(externalId.trim(), 'EXTERNAL') === undefined &&
    !store.isCoreId(externalId.trim());
  if (checked) {
    const inUse = [
      ...(store.sessions.isUsedBy(coreId) ? ['Session'] : []),
      ...store.recipesHoldingDataOf(coreId).filter((name) => name !== 'EmailVerification'),
    ];
    if (inUse[0] !== undefined) return fail(400, `UserId is already in use in ${inUse[0]} recipe`);
  }
  return createMappingOfFreeUser(context);
}

const USER_ID_TYPES = ['SUPERTOKENS', 'EXTERNAL', 'ANY'] as const;

function userIdTypeOf(body: Record<string, unknown>): (typeof USER_ID_TYPES)[number] {
  const raw = body['userIdType'];
  if (raw === undefined || raw === null) return 'ANY';
  if (typeof raw !== 'string') return fieldInvalid('userIdType');
  const type = USER_ID_TYPES.find((candidate) => candidate === raw.trim());
  return type ?? fail(400, "Field name 'userIdType' should be one of 'SUPERTOKENS', 'EXTERNAL' or 'ANY'");
}

/**
 * POST /recipe/userid/map/remove {userId, userIdType?, force?} — `didMappingExist` says whether it removed one. Without
 * `force`, a mapping whose external id a session or another recipe still uses stays, with the core's 400 naming the
 * recipe (`UserId is already in use in Session recipe`); what the other recipes hold stays with the external id.
 */
export function removeMapping(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId').trim();
  if (userId === '') return fail(400, "Field name 'userId' cannot be an empty String");
  const type = userIdTypeOf(context.body);
  const force = optionalBoolean(context.body, 'force') ?? false;
  const { store } = context;
  const mapping = store.mappingOf(userId, 'ANY');
  if (mapping === undefined) return jsonAnswer({ status: CoreStatus.ok, didMappingExist: false });
  if (!force) {
    const inUse = [...(store.sessions.isUsedBy(mapping.externalId) ? ['Session'] : []), ...store.recipesHoldingDataOf(mapping.coreId)];
    if (inUse[0] !== undefined) return fail(400, `UserId is already in use in ${inUse[0]} recipe`);
  }
  // The mapping found by either id is removed only when the id is of the type asked for (by the core's own id for ANY
  // when a user has it, else by the external id).
  const bySuperTokensId = type === 'SUPERTOKENS' || (type === 'ANY' && store.isCoreId(userId));
  const matches = bySuperTokensId ? mapping.coreId === userId : mapping.externalId === userId;
  if (matches) store.unmap(mapping.coreId);
  return jsonAnswer({ status: CoreStatus.ok, didMappingExist: matches });
}
