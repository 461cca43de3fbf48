import { CoreErrorTexts, CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, jsonAnswer, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { CODE_LIFETIME_MS, type PasswordlessLogin, userJson } from './store.js';

/**
 * The passwordless calls (feature `passwordless`), answered as a real core 10 did (core-behaviour.md, "Passwordless
 * users"; the answers the spec leaves out were read off a real core and are marked so).
 */

/** The login of a body: exactly one of `phoneNumber` (kept as given: the core does not check it) or `email` (trimmed, lower-cased). */
function loginOf(body: Record<string, unknown>, refusal: string, others: readonly string[] = []): PasswordlessLogin {
  const given = ['email', 'phoneNumber', ...others].filter((field) => body[field] !== undefined && body[field] !== null);
  if (given.length !== 1) return fail(400, refusal);
  if (given[0] === 'phoneNumber') return { phoneNumber: requireString(body, 'phoneNumber') };
  if (given[0] === 'email') return { email: requireString(body, 'email').trim().toLowerCase() };
  // A device id (a code sent again to a device) is never used by a migration; the double knows no device.
  return fail(400, 'the core double does not serve codes for a device id');
}

/** POST /recipe/signinup/code */
export function createCode(context: HandlerContext): DoubleAnswer {
  const login = loginOf(context.body, CoreErrorTexts.passwordlessCodeLogin, ['deviceId']);
  const code = context.store.createCode(context.scope, login);
  return jsonAnswer({
    status: CoreStatus.ok,
    preAuthSessionId: code.preAuthSessionId,
    codeId: code.codeId,
    deviceId: `${code.preAuthSessionId.slice(0, 43)}=`,
    userInputCode: String(100_000 + ((code.linkCode.charCodeAt(0) * 7919) % 900_000)),
    linkCode: code.linkCode,
    timeCreated: code.timeCreated,
    codeLifetime: CODE_LIFETIME_MS,
  });
}

/** POST /recipe/signinup/code/consume — by link code (the way a migration consumes one). */
export function consumeCode(context: HandlerContext): DoubleAnswer {
  const preAuthSessionId = requireString(context.body, 'preAuthSessionId');
  if (context.body['linkCode'] === undefined) return fail(400, 'Please provide exactly one of linkCode or deviceId+userInputCode');
  const linkCode = requireString(context.body, 'linkCode');
  const consumed = context.store.consumeCode(context.scope, preAuthSessionId, linkCode);
  if (consumed === undefined) return jsonAnswer({ status: CoreStatus.restartFlow });
  const { user, createdNewUser, login } = consumed;
  const userAnswer = userJson(user, context.userShape, user.email === undefined ? false : context.store.isVerified(user.id, user.email));
  const id = user.externalId ?? user.id;
  return jsonAnswer({
    status: CoreStatus.ok,
    createdNewUser,
    user: userAnswer,
    recipeUserId: id,
    consumedDevice: { preAuthSessionId, failedCodeInputAttemptCount: 0, ...login },
  });
}

/** POST /recipe/signinup/codes/remove — OK also for a login without codes (its 400 read off a real core). */
export function removeCodes(context: HandlerContext): DoubleAnswer {
  context.store.removeCodes(context.scope, loginOf(context.body, CoreErrorTexts.passwordlessCodesRemoveLogin));
  return jsonAnswer({ status: CoreStatus.ok });
}

/**
 * PUT /recipe/user with `rid: passwordless` — the user's new phone number or email. `PHONE_NUMBER_ALREADY_EXISTS_ERROR`
 * was read off a real core; a body with neither is OK there and changes nothing.
 */
export function changeLogin(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'recipeUserId');
  const changes: PasswordlessLogin[] = [];
  if (context.body['email'] !== undefined) changes.push({ email: requireString(context.body, 'email').trim().toLowerCase() });
  if (context.body['phoneNumber'] !== undefined) changes.push({ phoneNumber: requireString(context.body, 'phoneNumber') });
  if (context.store.resolve(userId) === undefined) return jsonAnswer({ status: CoreStatus.unknownUserId });
  for (const login of changes) {
    switch (context.store.changePasswordlessLogin(userId, login)) {
      case 'OK':
        break;
      case 'emailTaken':
        return jsonAnswer({ status: CoreStatus.emailAlreadyExists });
      case 'phoneNumberTaken':
        return jsonAnswer({ status: CoreStatus.phoneNumberAlreadyExists });
      case 'unknownUser':
        return jsonAnswer({ status: CoreStatus.unknownUserId });
    }
  }
  return jsonAnswer({ status: CoreStatus.ok });
}

/** GET /users/by-accountinfo?email=|phoneNumber=&doUnionOfAccountInfo= — users of every kind with that login. */
export function usersByAccountInfo(context: HandlerContext): DoubleAnswer {
  if (context.query.get('doUnionOfAccountInfo') === null) return fail(400, CoreErrorTexts.accountInfoUnionMissing);
  const union = context.query.get('doUnionOfAccountInfo') === 'true';
  const email = context.query.get('email');
  const phoneNumber = context.query.get('phoneNumber');
  const logins: PasswordlessLogin[] = [...(email === null ? [] : [{ email: email.trim().toLowerCase() }]), ...(phoneNumber === null ? [] : [{ phoneNumber }])];
  // A real core answers an empty list for no login at all; without the union, a user must have every login given.
  const matches = logins.map((login) => context.store.usersWithLogin(context.scope, login));
  const candidates = new Map(matches.flat().map((user) => [user.id, user]));
  const found = [...candidates.values()].filter((user) => union || matches.every((match) => match.some((other) => other.id === user.id)));
  const users = found.map((user) => userJson(user, context.userShape, user.email === undefined ? false : context.store.isVerified(user.id, user.email)));
  return jsonAnswer({ status: CoreStatus.ok, users });
}
