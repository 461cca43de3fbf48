import { CorePaths, CoreStatus, type ScryptAlgorithmName } from '../contract/names.js';
import {
  type PasswordHashImportBody,
  PasswordHashImportBodySchema,
  type SignInUpBody,
  SignInUpBodySchema,
  type UserEmailChangeBody,
  UserEmailChangeBodySchema,
} from '../contract/requests.js';
import {
  PasswordHashImportAnswerSchema,
  SignInAnswerSchema,
  SignUpAnswerSchema,
  AnswerStatusSchema,
  NonOkStatusAnswerSchema,
  SignInUpOkAnswerSchema,
  UserByEmailAnswerSchema,
  UserEmailChangeAnswerSchema,
} from '../contract/responses.js';
import type { Secret } from '../secret.js';
import type { CallOptions, CoreChannel, Exchange } from './channel.js';
import { quoteCoreText } from './error-mapping.js';
import { NotFound } from './errors.js';

/** The calls that create a user or sign one in (the contract's import, sign-in-up, sign-in and sign-up), and a password user's lookup and new email. */

export type ImportPasswordHashResult = { outcome: 'imported' | 'alreadyExisted'; userId: string };
export type SignInUpResult = { outcome: 'created' | 'existing'; userId: string } | { outcome: 'nonOkStatus'; status: string; reason?: string };
export type SignInResult = { outcome: 'signedIn' | 'wrongCredentials' | 'notAvailable' };
export type SignUpResult = { outcome: 'created'; userId: string } | { outcome: 'emailExists' };
export type UserByEmailResult = { found: true; userId: string } | { found: false };
export type ChangeEmailResult = { outcome: 'changed' } | { outcome: 'emailTaken' } | { outcome: 'unknownUser' };

/** The contract's import; a scrypt hash goes out under `scryptAlgorithmName`, the name this core takes (the pre-flight learns it). */
export async function importPasswordHash(
  channel: CoreChannel,
  body: PasswordHashImportBody,
  scryptAlgorithmName: ScryptAlgorithmName,
  options: CallOptions,
): Promise<ImportPasswordHashResult> {
  const parsed = PasswordHashImportBodySchema.parse(body);
  const payload = parsed.hashingAlgorithm === undefined ? parsed : { ...parsed, hashingAlgorithm: scryptAlgorithmName };
  const exchange: Exchange = {
    method: 'POST',
    path: channel.recipePath(CorePaths.passwordHashImport),
    body: payload,
    secrets: [payload.passwordHash],
  };
  return channel.call(exchange, options, (answer) => {
    const parsed = channel.json(answer, PasswordHashImportAnswerSchema);
    return { outcome: parsed.didUserAlreadyExist ? 'alreadyExisted' : 'imported', userId: parsed.user.id };
  });
}

export async function signInUp(channel: CoreChannel, body: SignInUpBody, options: CallOptions): Promise<SignInUpResult> {
  const payload = SignInUpBodySchema.parse(body);
  const exchange: Exchange = { method: 'POST', path: channel.recipePath(CorePaths.signInUp), body: payload };
  return channel.call(exchange, options, (answer): SignInUpResult => {
    const json = channel.jsonBody(answer);
    // Choose the schema by status first, so a broken OK answer is reported as such (not as "a non-OK status").
    if (channel.conform(answer, AnswerStatusSchema, json).status === CoreStatus.ok) {
      const ok = channel.conform(answer, SignInUpOkAnswerSchema, json);
      return { outcome: ok.createdNewUser ? 'created' : 'existing', userId: ok.user.id };
    }
    const parsed = channel.conform(answer, NonOkStatusAnswerSchema, json);
    // Both go to the report: redacted and shortened like any text of the core's.
    const status = quoteCoreText(parsed.status, answer.context.redact);
    const reason = typeof parsed.reason === 'string' ? quoteCoreText(parsed.reason, answer.context.redact) : undefined;
    return reason === undefined ? { outcome: 'nonOkStatus', status } : { outcome: 'nonOkStatus', status, reason };
  });
}

/** Proves that a known account logs in after an import. A core without `/recipe/signin` gives `notAvailable`. */
export async function signIn(channel: CoreChannel, credentials: { email: string; password: Secret }, options: CallOptions): Promise<SignInResult> {
  const password = credentials.password.reveal();
  const exchange: Exchange = {
    method: 'POST',
    path: channel.recipePath(CorePaths.signIn),
    body: { email: credentials.email, password },
    secrets: [password],
  };
  try {
    return await channel.call(exchange, options, (answer): SignInResult => {
      const parsed = channel.json(answer, SignInAnswerSchema);
      return { outcome: parsed.status === CoreStatus.ok ? 'signedIn' : 'wrongCredentials' };
    });
  } catch (error) {
    if (error instanceof NotFound) return { outcome: 'notAvailable' };
    throw error;
  }
}

/**
 * `POST /recipe/signup`: a new password user from a plain password, which the core hashes with its own algorithm (a
 * login-time migration). The password is redacted from any error; an email a password user has is `emailExists`.
 */
export async function signUp(channel: CoreChannel, credentials: { email: string; password: Secret }, options: CallOptions): Promise<SignUpResult> {
  const password = credentials.password.reveal();
  const exchange: Exchange = {
    method: 'POST',
    path: channel.recipePath(CorePaths.signUp),
    body: { email: credentials.email, password },
    secrets: [password],
  };
  return channel.call(exchange, options, (answer): SignUpResult => {
    const parsed = channel.json(answer, SignUpAnswerSchema);
    return parsed.status === CoreStatus.ok ? { outcome: 'created', userId: parsed.user.id } : { outcome: 'emailExists' };
  });
}

/**
 * `GET /recipe/user?email=` (read-only): the password user with that email in the tenant, named as every answer
 * names it. The one lookup for both `--existing skip` and the check that a journal's users are on its core; a core
 * without the call answers 404 (`NotFound`, thrown).
 */
export async function userByEmail(channel: CoreChannel, email: string, options: CallOptions): Promise<UserByEmailResult> {
  const exchange: Exchange = { method: 'GET', path: channel.recipePath(CorePaths.userByEmail, { email }) };
  return channel.call(exchange, options, (answer): UserByEmailResult => {
    const parsed = channel.json(answer, UserByEmailAnswerSchema);
    return parsed.status === CoreStatus.ok ? { found: true, userId: parsed.user.id } : { found: false };
  });
}

/**
 * `PUT /recipe/user` with a new email for a password user (by its core id or mapped old id). The user keeps its id,
 * password, mapping and metadata; the new email is unverified (verification belongs to an email). `emailTaken`:
 * another user has that email; `unknownUser`: no password user has that id.
 */
export async function changeEmail(channel: CoreChannel, body: UserEmailChangeBody, options: CallOptions): Promise<ChangeEmailResult> {
  const payload = UserEmailChangeBodySchema.parse(body);
  const exchange: Exchange = { method: 'PUT', path: channel.recipePath(CorePaths.userEmailChange), body: payload };
  return channel.call(exchange, options, (answer): ChangeEmailResult => {
    const parsed = channel.json(answer, UserEmailChangeAnswerSchema);
    if (parsed.status === CoreStatus.ok) return { outcome: 'changed' };
    return parsed.status === CoreStatus.emailAlreadyExists ? { outcome: 'emailTaken' } : { outcome: 'unknownUser' };
  });
}
