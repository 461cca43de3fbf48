import { CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, fail, jsonAnswer, optionalString, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { hashPlainPassword } from './signup-handlers.js';

/*
 * The password recipe's calls the official Node SDK makes beyond sign-up and sign-in: the reset tokens and
 * `updateEmailOrPassword`, answered as a real core 10.0.7 did (sdk-flows.json, flows 3 and 4).
 */

const RESET_PASSWORD_INVALID_TOKEN = 'RESET_PASSWORD_INVALID_TOKEN_ERROR';

/** POST /recipe/user/password/reset/token {userId, email} — any user the core knows, by either id; the email is kept as given. */
export function createResetToken(context: HandlerContext): DoubleAnswer {
  const userId = requireString(context.body, 'userId');
  context.requireTenant();
  const coreId = context.store.resolve(userId);
  if (coreId === undefined) return jsonAnswer({ status: CoreStatus.unknownUserId });
  const email = requireString(context.body, 'email');
  return jsonAnswer({ status: CoreStatus.ok, token: context.store.resetTokens.create(coreId, email) });
}

/** POST /recipe/user/password/reset/token/consume {token} — the user (by its external id once mapped) and the token's email. */
export function consumeResetToken(context: HandlerContext): DoubleAnswer {
  const token = requireString(context.body, 'token');
  context.requireTenant();
  const used = context.store.resetTokens.consume(token);
  if (used === undefined) return jsonAnswer({ status: RESET_PASSWORD_INVALID_TOKEN });
  const user = context.store.byCoreId(used.userId);
  return jsonAnswer({ status: CoreStatus.ok, userId: user?.externalId ?? used.userId, email: used.email });
}

/**
 * PUT /recipe/user with `rid: emailpassword` {recipeUserId, email?, password?} — a password user's new email, new
 * password, or both (the email first: a taken email changes nothing). Only a password user has either.
 */
export async function updateEmailOrPassword(context: HandlerContext): Promise<DoubleAnswer> {
  const userId = requireString(context.body, 'recipeUserId');
  const email = optionalString(context.body, 'email')?.trim().toLowerCase();
  const password = optionalString(context.body, 'password');
  if (email === undefined && password === undefined) return fail(400, 'You have to provide either email or password.');
  const coreId = context.store.resolve(userId);
  const user = coreId === undefined ? undefined : context.store.byCoreId(coreId);
  if (coreId === undefined || user?.kind !== 'emailPassword') return jsonAnswer({ status: CoreStatus.unknownUserId });
  if (email !== undefined) {
    const changed = context.store.changeEmail(coreId, email);
    if (changed === 'emailTaken') return jsonAnswer({ status: CoreStatus.emailAlreadyExists });
    if (changed === 'unknownUser') return jsonAnswer({ status: CoreStatus.unknownUserId });
  }
  if (password !== undefined) {
    const current = context.store.byCoreId(coreId);
    if (current?.kind !== 'emailPassword') return jsonAnswer({ status: CoreStatus.unknownUserId });
    context.store.importPasswordHash(current, current.email, await hashPlainPassword(password), undefined);
  }
  return jsonAnswer({ status: CoreStatus.ok });
}
