import { randomBytes } from 'node:crypto';
import { bcrypt } from 'hash-wasm';
import { CoreStatus } from '../../core-client/src/contract/names.js';
import { type DoubleAnswer, jsonAnswer, requireString } from './answers.js';
import type { HandlerContext } from './handlers.js';
import { userJson } from './store.js';

/** The double's own hashing cost for passwords it is given in plain: small, as tests need (a real core uses its config). */
const DOUBLE_BCRYPT_COST = 4;

/** A plain password as the double keeps it: a BCrypt hash, which `/recipe/signin` checks as it checks an imported one. */
export function hashPlainPassword(password: string): Promise<string> {
  return bcrypt({ password, salt: randomBytes(16), costFactor: DOUBLE_BCRYPT_COST, outputType: 'encoded' });
}

/**
 * POST /recipe/signup — a password user from a plain password, hashed here (BCrypt, with hash-wasm) so that
 * `/recipe/signin` checks it as it checks an imported hash. An email a password user has: EMAIL_ALREADY_EXISTS_ERROR.
 */
export async function signUp(context: HandlerContext): Promise<DoubleAnswer> {
  const email = requireString(context.body, 'email').trim().toLowerCase();
  const password = requireString(context.body, 'password');
  context.requireTenant();
  if (context.store.findEmailPasswordUser(context.scope, email) !== undefined) return jsonAnswer({ status: CoreStatus.emailAlreadyExists });
  const passwordHash = await hashPlainPassword(password);
  const { user } = context.store.importPasswordHash(context.scope, email, passwordHash, undefined);
  const recipeUserId = context.userShape === 'recent' ? { recipeUserId: user.externalId ?? user.id } : {};
  return jsonAnswer({ status: CoreStatus.ok, user: userJson(user, context.userShape), ...recipeUserId });
}
