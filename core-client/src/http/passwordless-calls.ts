import { CoreHeaders, CorePaths, CoreStatus, PASSWORDLESS_RECIPE_ID } from '../contract/names.js';
import {
  type PasswordlessLoginBody,
  PasswordlessLoginBodySchema,
  PasswordlessConsumeBodySchema,
  type PasswordlessUserChangeBody,
  PasswordlessUserChangeBodySchema,
} from '../contract/requests.js';
import {
  PasswordlessCodeAnswerSchema,
  PasswordlessConsumeAnswerSchema,
  PasswordlessCodesRemoveAnswerSchema,
  PasswordlessUserChangeAnswerSchema,
  UsersByAccountInfoAnswerSchema,
} from '../contract/responses.js';
import { Secret } from '../secret.js';
import type { CallOptions, CoreChannel, Exchange } from './channel.js';

/** The passwordless recipe: one-time codes that create a login's user, a passwordless user's new login, and the users of a login. */

/** A one-time code's handles: whoever holds them signs in as the login's user, so both are Secrets. */
export interface PasswordlessCode {
  preAuthSessionId: Secret;
  linkCode: Secret;
  lifetimeMs: number;
}
export type ConsumeCodeResult = { outcome: 'created' | 'existing'; userId: string } | { outcome: 'codeGone' };
export type PasswordlessChangeResult = { outcome: 'changed' | 'emailTaken' | 'phoneNumberTaken' | 'unknownUser' };
/** A user the core holds for a login: its id (as every answer names it) and the recipes of its login methods with that login. */
export interface AccountInfoUser {
  userId: string;
  /** `passwordless`, `emailpassword`, `thirdparty`: the login methods that hold the login asked for. */
  recipes: string[];
}

/**
 * `POST /recipe/signinup/code`: a one-time code for a phone number or an email (the core sends nothing). The login is
 * stored as given: the plan normalises it first.
 */
export async function createPasswordlessCode(channel: CoreChannel, login: PasswordlessLoginBody, options: CallOptions): Promise<PasswordlessCode> {
  const payload = PasswordlessLoginBodySchema.parse(login);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.passwordlessCode), body: payload };
  return channel.call(exchange, options, (answer): PasswordlessCode => {
    const parsed = channel.json(answer, PasswordlessCodeAnswerSchema);
    return { preAuthSessionId: new Secret(parsed.preAuthSessionId), linkCode: new Secret(parsed.linkCode), lifetimeMs: parsed.codeLifetime };
  });
}

/**
 * `POST /recipe/signinup/code/consume` by link code: creates the login's passwordless user (`created`), or finds the
 * one it has (`existing`); `codeGone` for a code that was used, removed or expired (`RESTART_FLOW_ERROR`).
 */
export async function consumePasswordlessCode(
  channel: CoreChannel,
  code: Pick<PasswordlessCode, 'preAuthSessionId' | 'linkCode'>,
  options: CallOptions,
): Promise<ConsumeCodeResult> {
  const payload = PasswordlessConsumeBodySchema.parse({ preAuthSessionId: code.preAuthSessionId.reveal(), linkCode: code.linkCode.reveal() });
  const exchange: Exchange = {
    method: 'POST',
    path: channel.recipePath(CorePaths.passwordlessConsume),
    body: payload,
    secrets: [payload.preAuthSessionId, payload.linkCode],
  };
  return channel.call(exchange, options, (answer): ConsumeCodeResult => {
    const parsed = channel.json(answer, PasswordlessConsumeAnswerSchema);
    if (parsed.status === CoreStatus.restartFlow) return { outcome: 'codeGone' };
    return { outcome: parsed.createdNewUser ? 'created' : 'existing', userId: parsed.user.id };
  });
}

/** `POST /recipe/signinup/codes/remove`: every code of the login goes (OK also when it has none). */
export async function removePasswordlessCodes(channel: CoreChannel, login: PasswordlessLoginBody, options: CallOptions): Promise<void> {
  const payload = PasswordlessLoginBodySchema.parse(login);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.passwordlessCodesRemove), body: payload };
  return channel.call(exchange, options, (answer) => {
    channel.json(answer, PasswordlessCodesRemoveAnswerSchema);
  });
}

/**
 * `PUT /recipe/user` with `rid: passwordless`: a passwordless user's new phone number or email; it keeps its id,
 * mapping, metadata and roles. Without the header the same path is the password user's update.
 */
export async function changePasswordlessLogin(channel: CoreChannel, body: PasswordlessUserChangeBody, options: CallOptions): Promise<PasswordlessChangeResult> {
  const payload = PasswordlessUserChangeBodySchema.parse(body);
  const exchange: Exchange = {
    method: 'PUT',
    path: channel.recipePath(CorePaths.passwordlessUserChange),
    body: payload,
    headers: { [CoreHeaders.recipeId]: PASSWORDLESS_RECIPE_ID },
  };
  return channel.call(exchange, options, (answer): PasswordlessChangeResult => {
    const parsed = channel.json(answer, PasswordlessUserChangeAnswerSchema);
    switch (parsed.status) {
      case CoreStatus.ok:
        return { outcome: 'changed' };
      case CoreStatus.emailAlreadyExists:
        return { outcome: 'emailTaken' };
      case CoreStatus.phoneNumberAlreadyExists:
        return { outcome: 'phoneNumberTaken' };
      case CoreStatus.unknownUserId:
        return { outcome: 'unknownUser' };
    }
  });
}

/**
 * `GET /users/by-accountinfo` (read-only): the users of every kind that sign in with this phone number or email,
 * each with the recipes of its login methods that hold it (a password user and a passwordless user may share an email).
 */
export async function usersByAccountInfo(channel: CoreChannel, login: PasswordlessLoginBody, options: CallOptions): Promise<AccountInfoUser[]> {
  const query = { ...PasswordlessLoginBodySchema.parse(login), doUnionOfAccountInfo: 'true' };
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.usersByAccountInfo, query) };
  return channel.call(exchange, options, (answer) =>
    channel.json(answer, UsersByAccountInfoAnswerSchema).users.map((user) => ({
      userId: user.id,
      recipes: user.loginMethods
        .filter((method) => ('phoneNumber' in login ? method.phoneNumber === login.phoneNumber : method.email === login.email))
        .map((method) => method.recipeId),
    })),
  );
}
