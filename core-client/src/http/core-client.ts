import { hkdfSync } from 'node:crypto';
import {
  CoreErrorTexts,
  CoreHeaders,
  type CorePath,
  CorePaths,
  CoreStatus,
  HELLO_BODY,
  PASSWORDLESS_RECIPE_ID,
  type ScryptAlgorithmName,
  VENDOR_SCRYPT,
} from '../contract/names.js';
import {
  EmailVerifyTokenBodySchema,
  type PasswordHashImportBody,
  PasswordHashImportBodySchema,
  RemoveUserBodySchema,
  type SignInUpBody,
  SignInUpBodySchema,
  type UserIdMapBody,
  UserIdMapBodySchema,
  type UserMetadataBody,
  UserMetadataBodySchema,
  type UserEmailChangeBody,
  UserEmailChangeBodySchema,
  type EmailVerifyRemoveBody,
  EmailVerifyRemoveBodySchema,
  type RoleBody,
  RoleBodySchema,
  type UserRoleBody,
  UserRoleBodySchema,
  RemoveRoleBodySchema,
  type PasswordlessLoginBody,
  PasswordlessLoginBodySchema,
  PasswordlessConsumeBodySchema,
  type PasswordlessUserChangeBody,
  PasswordlessUserChangeBodySchema,
} from '../contract/requests.js';
import {
  ApiVersionAnswerSchema,
  PasswordHashImportAnswerSchema,
  SignInAnswerSchema,
  SignUpAnswerSchema,
  AnswerStatusSchema,
  NonOkStatusAnswerSchema,
  SignInUpOkAnswerSchema,
  UserIdMapAnswerSchema,
  GetUserIdMapAnswerSchema,
  EmailVerifyTokenAnswerSchema,
  EmailVerifyAnswerSchema,
  IsEmailVerifiedAnswerSchema,
  UserMetadataAnswerSchema,
  UserByEmailAnswerSchema,
  UserCountAnswerSchema,
  RemoveUserAnswerSchema,
  UserEmailChangeAnswerSchema,
  EmailVerifyRemoveAnswerSchema,
  PutRoleAnswerSchema,
  RolePermissionsAnswerSchema,
  RolesAnswerSchema,
  RoleUsersAnswerSchema,
  AddUserRoleAnswerSchema,
  RemoveUserRoleAnswerSchema,
  RemoveRoleAnswerSchema,
  PasswordlessCodeAnswerSchema,
  PasswordlessConsumeAnswerSchema,
  PasswordlessCodesRemoveAnswerSchema,
  PasswordlessUserChangeAnswerSchema,
  UsersByAccountInfoAnswerSchema,
} from '../contract/responses.js';
import { Secret } from '../secret.js';
import { type CallOptions, CoreChannel, type CoreClientOptions, type Exchange, type ProbeOptions } from './channel.js';
import { contractViolation, quoteCoreText } from './error-mapping.js';
import { type CoreError, NotFound, RecordRejected, Unexpected } from './errors.js';
import type { RetryPolicy } from './retry.js';
import { describeTargets } from './target.js';
import type { UpstreamState } from './upstreams.js';

export type { CallOptions, CoreClientOptions, ProbeOptions } from './channel.js';

export type ImportPasswordHashResult = { outcome: 'imported' | 'alreadyExisted'; userId: string };
export type SignInUpResult = { outcome: 'created' | 'existing'; userId: string } | { outcome: 'nonOkStatus'; status: string; reason?: string };
export type SignInResult = { outcome: 'signedIn' | 'wrongCredentials' | 'notAvailable' };
export type SignUpResult = { outcome: 'created'; userId: string } | { outcome: 'emailExists' };
export type TenantProbeResult = { exists: true; note?: string } | { exists: false; error: CoreError };
/** Whether a core imports the scrypt variant under a name; `unknowable` when the import path is refused outright (403). */
export type ScryptNameProbeResult = { outcome: 'known' | 'unknown' } | { outcome: 'unknowable'; note: string };
export type UserIdMapResult =
  | { outcome: 'mapped' }
  /** This exact mapping exists already: done. */
  | { outcome: 'alreadyMapped' }
  /** The core id or the external id is mapped to something else. */
  | { outcome: 'conflict'; coreIdMapped: boolean; externalIdMapped: boolean }
  | { outcome: 'unknownUser' };
export type EmailVerifyTokenResult = { outcome: 'token'; token: Secret } | { outcome: 'alreadyVerified' };
export type EmailVerifyResult = { outcome: 'verified' } | { outcome: 'invalidToken' };
export type UserByEmailResult = { found: true; userId: string } | { found: false };
export type ChangeEmailResult = { outcome: 'changed' } | { outcome: 'emailTaken' } | { outcome: 'unknownUser' };
export type AddUserRoleResult = { outcome: 'added' | 'alreadyHad' | 'unknownRole' };
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

/** The tenant probe's import: every field present (a core checks those first), a hash of no family (refused after the tenant is found). */
export const TENANT_PROBE_BODY = { email: 'core-migrate-probe@tenant.invalid', passwordHash: 'core-migrate-probe' } as const;

/**
 * Talks to a core (or several sharing one database) over keep-alive connection pools. Methods map the core's answers
 * to outcomes or typed errors.
 */
export class CoreClient {
  readonly #channel: CoreChannel;
  readonly #apiKey: Secret;
  /** The name the core takes for the scrypt variant (the contract's until the pre-flight learns another). */
  #scryptAlgorithmName: ScryptAlgorithmName = VENDOR_SCRYPT;

  constructor(options: CoreClientOptions) {
    this.#channel = new CoreChannel(options);
    this.#apiKey = options.apiKey;
  }

  /** e.g. `http://127.0.0.1:3567 (tenant public)`, or `http://a:3567, http://b:3567 (tenant public)`; never the key. */
  describe(): string {
    return describeTargets(this.#channel.targets);
  }

  /** The cores requests go to, as normalised base URLs, in the order given. */
  get coreUrls(): readonly string[] {
    return this.#channel.targets.map((target) => target.baseUrl);
  }

  /** What this client does with a failed request unless a call says otherwise (a probe derives its own from it). */
  get retryPolicy(): RetryPolicy | false {
    return this.#channel.retryPolicy;
  }

  /** Requests in flight and sent, and health, of each core. */
  coreStates(): UpstreamState[] {
    return this.#channel.coreStates();
  }

  /** The scrypt variant's name this client sends (the plan's `vendor_scrypt` goes out as it). */
  get scryptAlgorithmName(): ScryptAlgorithmName {
    return this.#scryptAlgorithmName;
  }

  /** Sends the scrypt variant under the name the core takes, as the pre-flight learnt it (`probeScryptName`). */
  useScryptAlgorithmName(name: ScryptAlgorithmName): void {
    this.#scryptAlgorithmName = name;
  }

  async importPasswordHash(body: PasswordHashImportBody, options: CallOptions = {}): Promise<ImportPasswordHashResult> {
    const parsed = PasswordHashImportBodySchema.parse(body);
    const payload = parsed.hashingAlgorithm === undefined ? parsed : { ...parsed, hashingAlgorithm: this.#scryptAlgorithmName };
    const exchange: Exchange = {
      method: 'POST',
      path: this.#channel.recipePath(CorePaths.passwordHashImport),
      body: payload,
      secrets: [payload.passwordHash],
    };
    return this.#channel.call(exchange, options, (answer) => {
      const parsed = this.#channel.json(answer, PasswordHashImportAnswerSchema);
      return { outcome: parsed.didUserAlreadyExist ? 'alreadyExisted' : 'imported', userId: parsed.user.id };
    });
  }

  async signInUp(body: SignInUpBody, options: CallOptions = {}): Promise<SignInUpResult> {
    const payload = SignInUpBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.signInUp), body: payload };
    return this.#channel.call(exchange, options, (answer): SignInUpResult => {
      const json = this.#channel.jsonBody(answer);
      // Choose the schema by status first, so a broken OK answer is reported as such (not as "a non-OK status").
      if (this.#channel.conform(answer, AnswerStatusSchema, json).status === CoreStatus.ok) {
        const ok = this.#channel.conform(answer, SignInUpOkAnswerSchema, json);
        return { outcome: ok.createdNewUser ? 'created' : 'existing', userId: ok.user.id };
      }
      const parsed = this.#channel.conform(answer, NonOkStatusAnswerSchema, json);
      // Both go to the report: redacted and shortened like any text of the core's.
      const status = quoteCoreText(parsed.status, answer.context.redact);
      const reason = typeof parsed.reason === 'string' ? quoteCoreText(parsed.reason, answer.context.redact) : undefined;
      return reason === undefined ? { outcome: 'nonOkStatus', status } : { outcome: 'nonOkStatus', status, reason };
    });
  }

  /** A cheap liveness probe (`GET /hello`, no key needed). */
  async hello(options: CallOptions = {}): Promise<{ roundTripMs: number }> {
    const exchange: Exchange = { method: 'GET', path: CorePaths.hello };
    return this.#channel.call(exchange, options, (answer, startedAt) => {
      if (answer.bodyText.trim() !== HELLO_BODY) {
        throw contractViolation(`expected "${HELLO_BODY}" from ${exchange.path}`, answer.context, answer.status);
      }
      return { roundTripMs: performance.now() - startedAt };
    });
  }

  /** `GET /apiversion`; needs a valid key, so it also proves the key. */
  async apiVersion(options: CallOptions = {}): Promise<{ versions: string[] }> {
    const exchange: Exchange = { method: 'GET', path: CorePaths.apiVersion };
    return this.#channel.call(exchange, options, (answer) => ({ versions: [...this.#channel.json(answer, ApiVersionAnswerSchema).versions] }));
  }

  /** Proves that a known account logs in after an import. A core without `/recipe/signin` gives `notAvailable`. */
  async signIn(credentials: { email: string; password: Secret }, options: CallOptions = {}): Promise<SignInResult> {
    const password = credentials.password.reveal();
    const exchange: Exchange = {
      method: 'POST',
      path: this.#channel.recipePath(CorePaths.signIn),
      body: { email: credentials.email, password },
      secrets: [password],
    };
    try {
      return await this.#channel.call(exchange, options, (answer): SignInResult => {
        const parsed = this.#channel.json(answer, SignInAnswerSchema);
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
  async signUp(credentials: { email: string; password: Secret }, options: CallOptions = {}): Promise<SignUpResult> {
    const password = credentials.password.reveal();
    const exchange: Exchange = {
      method: 'POST',
      path: this.#channel.recipePath(CorePaths.signUp),
      body: { email: credentials.email, password },
      secrets: [password],
    };
    return this.#channel.call(exchange, options, (answer): SignUpResult => {
      const parsed = this.#channel.json(answer, SignUpAnswerSchema);
      return parsed.status === CoreStatus.ok ? { outcome: 'created', userId: parsed.user.id } : { outcome: 'emailExists' };
    });
  }

  /**
   * A key for the journal's digests, derived from the api-key (HKDF-SHA-256 with the journal's salt): whoever holds
   * only the journal cannot test a guessed email against it. The key itself is never exposed.
   */
  digestKey(salt: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#apiKey.reveal(), salt, 'core-migrate journal digests v2', 32));
  }

  /**
   * `POST /recipe/userid/map`: the old system's id becomes the user's id in every later answer. A mapping that
   * exists exactly like this one (both ids mapped, to each other) is `alreadyMapped`, which the caller treats as done.
   */
  async mapUserId(body: UserIdMapBody, options: CallOptions = {}): Promise<UserIdMapResult> {
    const payload = UserIdMapBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.userIdMap), body: payload };
    return this.#channel.call(exchange, options, (answer): UserIdMapResult => {
      const parsed = this.#channel.json(answer, UserIdMapAnswerSchema);
      if (parsed.status === CoreStatus.ok) return { outcome: 'mapped' };
      if (parsed.status === CoreStatus.unknownSuperTokensUserId) return { outcome: 'unknownUser' };
      if (parsed.doesSuperTokensUserIdExist && parsed.doesExternalUserIdExist) return { outcome: 'alreadyMapped' };
      return { outcome: 'conflict', coreIdMapped: parsed.doesSuperTokensUserIdExist, externalIdMapped: parsed.doesExternalUserIdExist };
    });
  }

  /** `GET /recipe/userid/map`: the external id a user is mapped to, if any (also the pre-flight's probe). */
  async userIdMapping(userId: string, options: CallOptions = {}): Promise<{ coreId: string; externalId: string } | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.userIdMap, { userId, userIdType: 'ANY' }) };
    return this.#channel.call(exchange, options, (answer) => {
      const parsed = this.#channel.json(answer, GetUserIdMapAnswerSchema);
      return parsed.status === CoreStatus.ok ? { coreId: parsed.superTokensUserId, externalId: parsed.externalUserId } : undefined;
    });
  }

  /** `POST /recipe/user/email/verify/token`; the token is a Secret: whoever holds it can verify the email. */
  async createEmailVerificationToken(body: { userId: string; email: string }, options: CallOptions = {}): Promise<EmailVerifyTokenResult> {
    const payload = EmailVerifyTokenBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.emailVerifyToken), body: payload };
    return this.#channel.call(exchange, options, (answer): EmailVerifyTokenResult => {
      const parsed = this.#channel.json(answer, EmailVerifyTokenAnswerSchema);
      return parsed.status === CoreStatus.ok ? { outcome: 'token', token: new Secret(parsed.token) } : { outcome: 'alreadyVerified' };
    });
  }

  /** `POST /recipe/user/email/verify` with a token from `createEmailVerificationToken`. */
  async verifyEmail(token: Secret, options: CallOptions = {}): Promise<EmailVerifyResult> {
    const revealed = token.reveal();
    const exchange: Exchange = {
      method: 'POST',
      path: this.#channel.recipePath(CorePaths.emailVerify),
      body: { method: 'token', token: revealed },
      secrets: [revealed],
    };
    return this.#channel.call(exchange, options, (answer): EmailVerifyResult => {
      const parsed = this.#channel.json(answer, EmailVerifyAnswerSchema);
      return parsed.status === CoreStatus.ok ? { outcome: 'verified' } : { outcome: 'invalidToken' };
    });
  }

  /** `GET /recipe/user/email/verify`. */
  async isEmailVerified(query: { userId: string; email: string }, options: CallOptions = {}): Promise<boolean> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.emailVerify, query) };
    return this.#channel.call(exchange, options, (answer) => this.#channel.json(answer, IsEmailVerifiedAnswerSchema).isVerified);
  }

  /** `PUT /recipe/user/metadata`: merges top-level keys; answers the merged metadata. */
  async updateUserMetadata(body: UserMetadataBody, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const payload = UserMetadataBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#channel.recipePath(CorePaths.userMetadata), body: payload };
    return this.#channel.call(exchange, options, (answer) => this.#channel.json(answer, UserMetadataAnswerSchema).metadata);
  }

  /** `GET /recipe/user/metadata` (`{}` when none). */
  async userMetadata(userId: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.userMetadata, { userId }) };
    return this.#channel.call(exchange, options, (answer) => this.#channel.json(answer, UserMetadataAnswerSchema).metadata);
  }

  /**
   * `GET /recipe/user?email=` (read-only): the password user with that email in the tenant, named as every answer
   * names it. The one lookup for both `--existing skip` and the check that a journal's users are on its core; a core
   * without the call answers 404 (`NotFound`, thrown).
   */
  async userByEmail(email: string, options: CallOptions = {}): Promise<UserByEmailResult> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.userByEmail, { email }) };
    return this.#channel.call(exchange, options, (answer): UserByEmailResult => {
      const parsed = this.#channel.json(answer, UserByEmailAnswerSchema);
      return parsed.status === CoreStatus.ok ? { found: true, userId: parsed.user.id } : { found: false };
    });
  }

  /**
   * `GET /users/count` (read-only): how many users the tenant has. The journal's check that the users it records as
   * created are still on the core at its address; a core without the call answers 404 (`NotFound`, thrown).
   */
  async userCount(options: CallOptions = {}): Promise<number> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.userCount) };
    return this.#channel.call(exchange, options, (answer) => this.#channel.json(answer, UserCountAnswerSchema).count);
  }

  /** `POST /user/remove`: the user with its mapping, metadata and verification state; OK also for an unknown id. */
  async removeUser(userId: string, options: CallOptions = {}): Promise<void> {
    const payload = RemoveUserBodySchema.parse({ userId });
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.removeUser), body: payload };
    return this.#channel.call(exchange, options, (answer) => {
      this.#channel.json(answer, RemoveUserAnswerSchema);
    });
  }

  /**
   * `PUT /recipe/user` with a new email for a password user (by its core id or mapped old id). The user keeps its id,
   * password, mapping and metadata; the new email is unverified (verification belongs to an email). `emailTaken`:
   * another user has that email; `unknownUser`: no password user has that id.
   */
  async changeEmail(body: UserEmailChangeBody, options: CallOptions = {}): Promise<ChangeEmailResult> {
    const payload = UserEmailChangeBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#channel.recipePath(CorePaths.userEmailChange), body: payload };
    return this.#channel.call(exchange, options, (answer): ChangeEmailResult => {
      const parsed = this.#channel.json(answer, UserEmailChangeAnswerSchema);
      if (parsed.status === CoreStatus.ok) return { outcome: 'changed' };
      return parsed.status === CoreStatus.emailAlreadyExists ? { outcome: 'emailTaken' } : { outcome: 'unknownUser' };
    });
  }

  /** `POST /recipe/user/email/verify/remove`: the email is unverified afterwards (OK also when it was not verified). */
  async unverifyEmail(body: EmailVerifyRemoveBody, options: CallOptions = {}): Promise<void> {
    const payload = EmailVerifyRemoveBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.emailVerifyRemove), body: payload };
    return this.#channel.call(exchange, options, (answer) => {
      this.#channel.json(answer, EmailVerifyRemoveAnswerSchema);
    });
  }

  /**
   * `PUT /recipe/role`: creates the role with these permissions, or adds them to an existing role's own (the core
   * never removes one here). `created` is false for a role that existed. A name the core refuses is a RecordRejected.
   */
  async putRole(body: RoleBody, options: CallOptions = {}): Promise<{ created: boolean }> {
    const payload = RoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#channel.recipePath(CorePaths.role), body: payload };
    return this.#channel.call(exchange, options, (answer) => ({ created: this.#channel.json(answer, PutRoleAnswerSchema).createdNewRole }));
  }

  /** `GET /recipe/role/permissions`: a role's permissions, or undefined when the core has no such role. */
  async rolePermissions(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.rolePermissions, { role }) };
    return this.#channel.call(exchange, options, (answer) => {
      const parsed = this.#channel.json(answer, RolePermissionsAnswerSchema);
      return parsed.status === CoreStatus.ok ? [...parsed.permissions] : undefined;
    });
  }

  /** `GET /recipe/roles`: every role of the app (also the probe that the core has the roles recipe). */
  async listRoles(options: CallOptions = {}): Promise<string[]> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.roles) };
    return this.#channel.call(exchange, options, (answer) => [...this.#channel.json(answer, RolesAnswerSchema).roles]);
  }

  /** `GET /recipe/role/users`: the ids of the tenant's users that have the role, or undefined when there is no such role. */
  async roleUsers(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.roleUsers, { role }) };
    return this.#channel.call(exchange, options, (answer) => {
      const parsed = this.#channel.json(answer, RoleUsersAnswerSchema);
      return parsed.status === CoreStatus.ok ? [...parsed.users] : undefined;
    });
  }

  /** `PUT /recipe/user/role`: `unknownRole` when the role does not exist (create it first with `putRole`). */
  async addUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<AddUserRoleResult> {
    const payload = UserRoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#channel.recipePath(CorePaths.userRole), body: payload };
    return this.#channel.call(exchange, options, (answer): AddUserRoleResult => {
      const parsed = this.#channel.json(answer, AddUserRoleAnswerSchema);
      if (parsed.status === CoreStatus.unknownRole) return { outcome: 'unknownRole' };
      return { outcome: parsed.didUserAlreadyHaveRole ? 'alreadyHad' : 'added' };
    });
  }

  /** `GET /recipe/user/roles`: the user's roles in this client's tenant. */
  async userRoles(userId: string, options: CallOptions = {}): Promise<string[]> {
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.userRoles, { userId }) };
    return this.#channel.call(exchange, options, (answer) => [...this.#channel.json(answer, RolesAnswerSchema).roles]);
  }

  /** `POST /recipe/user/role/remove`: `hadRole` false also for a role that does not exist (no user can have it). */
  async removeUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<{ hadRole: boolean }> {
    const payload = UserRoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.userRoleRemove), body: payload };
    return this.#channel.call(exchange, options, (answer) => {
      const parsed = this.#channel.json(answer, RemoveUserRoleAnswerSchema);
      return { hadRole: parsed.status === CoreStatus.ok && parsed.didUserHaveRole };
    });
  }

  /** `POST /recipe/role/remove`: the role goes, and with it every user's assignment of it. */
  async removeRole(role: string, options: CallOptions = {}): Promise<{ existed: boolean }> {
    const payload = RemoveRoleBodySchema.parse({ role });
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.roleRemove), body: payload };
    return this.#channel.call(exchange, options, (answer) => ({ existed: this.#channel.json(answer, RemoveRoleAnswerSchema).didRoleExist }));
  }

  /**
   * `POST /recipe/signinup/code`: a one-time code for a phone number or an email (the core sends nothing). The login is
   * stored as given: the plan normalises it first.
   */
  async createPasswordlessCode(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<PasswordlessCode> {
    const payload = PasswordlessLoginBodySchema.parse(login);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.passwordlessCode), body: payload };
    return this.#channel.call(exchange, options, (answer): PasswordlessCode => {
      const parsed = this.#channel.json(answer, PasswordlessCodeAnswerSchema);
      return { preAuthSessionId: new Secret(parsed.preAuthSessionId), linkCode: new Secret(parsed.linkCode), lifetimeMs: parsed.codeLifetime };
    });
  }

  /**
   * `POST /recipe/signinup/code/consume` by link code: creates the login's passwordless user (`created`), or finds the
   * one it has (`existing`); `codeGone` for a code that was used, removed or expired (`RESTART_FLOW_ERROR`).
   */
  async consumePasswordlessCode(code: Pick<PasswordlessCode, 'preAuthSessionId' | 'linkCode'>, options: CallOptions = {}): Promise<ConsumeCodeResult> {
    const payload = PasswordlessConsumeBodySchema.parse({ preAuthSessionId: code.preAuthSessionId.reveal(), linkCode: code.linkCode.reveal() });
    const exchange: Exchange = {
      method: 'POST',
      path: this.#channel.recipePath(CorePaths.passwordlessConsume),
      body: payload,
      secrets: [payload.preAuthSessionId, payload.linkCode],
    };
    return this.#channel.call(exchange, options, (answer): ConsumeCodeResult => {
      const parsed = this.#channel.json(answer, PasswordlessConsumeAnswerSchema);
      if (parsed.status === CoreStatus.restartFlow) return { outcome: 'codeGone' };
      return { outcome: parsed.createdNewUser ? 'created' : 'existing', userId: parsed.user.id };
    });
  }

  /** `POST /recipe/signinup/codes/remove`: every code of the login goes (OK also when it has none). */
  async removePasswordlessCodes(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<void> {
    const payload = PasswordlessLoginBodySchema.parse(login);
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.passwordlessCodesRemove), body: payload };
    return this.#channel.call(exchange, options, (answer) => {
      this.#channel.json(answer, PasswordlessCodesRemoveAnswerSchema);
    });
  }

  /**
   * `PUT /recipe/user` with `rid: passwordless`: a passwordless user's new phone number or email; it keeps its id,
   * mapping, metadata and roles. Without the header the same path is the password user's update.
   */
  async changePasswordlessLogin(body: PasswordlessUserChangeBody, options: CallOptions = {}): Promise<PasswordlessChangeResult> {
    const payload = PasswordlessUserChangeBodySchema.parse(body);
    const exchange: Exchange = {
      method: 'PUT',
      path: this.#channel.recipePath(CorePaths.passwordlessUserChange),
      body: payload,
      headers: { [CoreHeaders.recipeId]: PASSWORDLESS_RECIPE_ID },
    };
    return this.#channel.call(exchange, options, (answer): PasswordlessChangeResult => {
      const parsed = this.#channel.json(answer, PasswordlessUserChangeAnswerSchema);
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
  async usersByAccountInfo(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<AccountInfoUser[]> {
    const query = { ...PasswordlessLoginBodySchema.parse(login), doUnionOfAccountInfo: 'true' };
    const exchange: Exchange = { method: 'GET', path: this.#channel.recipePath(CorePaths.usersByAccountInfo, query) };
    return this.#channel.call(exchange, options, (answer) =>
      this.#channel.json(answer, UsersByAccountInfoAnswerSchema).users.map((user) => ({
        userId: user.id,
        recipes: user.loginMethods
          .filter((method) => ('phoneNumber' in login ? method.phoneNumber === login.phoneNumber : method.email === login.email))
          .map((method) => method.recipeId),
      })),
    );
  }

  /** The tenant and app this client's operations go to. */
  get scope(): { tenantId: string; appId: string } {
    return { tenantId: this.#channel.target.tenantId, appId: this.#channel.target.appId };
  }

  /**
   * Proves that the tenant (and app) path exists without creating anything: a password import whose hash no core
   * takes (`TENANT_PROBE_BODY`), sent to the tenant's path. A real core checks that the body's fields are there, then
   * finds the tenant, then reads the hash: it answers 400 `AppId or tenantId not found` for an unknown tenant and
   * 400 `Password hash is in invalid format` when the tenant exists. (An empty body is refused before the tenant is
   * looked at, so it proves nothing.) A 403 (the recipe is off for the tenant) also proves the path exists. Network
   * failures are thrown as for every call.
   */
  async probeTenant(options: ProbeOptions = {}): Promise<TenantProbeResult> {
    const exchange: Exchange = { method: 'POST', path: this.#channel.recipePath(CorePaths.passwordHashImport), body: TENANT_PROBE_BODY };
    const answer = await this.#channel.refusal(exchange, options);
    const text = answer.bodyText.trim();
    if (answer.status === 400 && text === CoreErrorTexts.invalidPasswordHash) return { exists: true };
    if (answer.status === 200) {
      const error = new Unexpected(
        `The core accepted the password hash "${TENANT_PROBE_BODY.passwordHash}" on ${answer.context.request}, which no authentication core does: check the core address.`,
        text,
        { status: answer.status, request: answer.context.request },
      );
      return { exists: false, error };
    }
    const error = this.#channel.errorOf(answer);
    return answer.status === 403 ? { exists: true, note: error.message } : { exists: false, error };
  }

  /**
   * Whether the core imports the scrypt variant under `name`, learnt without writing: an import of a hash no core
   * reads, under that name. A real core 10.0.7 answers 400 `Unsupported password hashing algorithm` to a name it does
   * not know, and 400 `Password hash is in invalid … format` to one it knows (core-transcripts/scrypt-names.json). A
   * 403 (the recipe is off for the tenant) tells nothing; any other answer is thrown as its core error.
   */
  async probeScryptName(name: ScryptAlgorithmName, options: ProbeOptions = {}): Promise<ScryptNameProbeResult> {
    const body = { ...TENANT_PROBE_BODY, hashingAlgorithm: name };
    const answer = await this.#channel.refusal({ method: 'POST', path: this.#channel.recipePath(CorePaths.passwordHashImport), body }, options);
    const text = answer.bodyText.trim();
    if (answer.status === 400 && text === CoreErrorTexts.unsupportedHashingAlgorithm) return { outcome: 'unknown' };
    if (answer.status === 400 && text.startsWith(CoreErrorTexts.invalidHashPrefix)) return { outcome: 'known' };
    if (answer.status === 200) {
      throw new Unexpected(
        `The core accepted the password hash "${TENANT_PROBE_BODY.passwordHash}" on ${answer.context.request}, which no authentication core does: check the core address.`,
        text,
        { status: answer.status, request: answer.context.request },
      );
    }
    const error = this.#channel.errorOf(answer);
    if (answer.status === 403) return { outcome: 'unknowable', note: error.message };
    throw error;
  }

  /**
   * Whether the core has a call, learnt without the core doing anything: the call goes out with nothing to act on (an
   * empty JSON object; a read without its query), which a core that has the call refuses with 400 and its sentence,
   * and a core without it answers 404 `Not found` (core-behaviour.md). Push-backs are waited out as the retry policy
   * says; any other answer is thrown as its core error, a 200 to an empty write as `Unexpected` (no core does that).
   */
  async probeCall(method: 'GET' | 'POST' | 'PUT', path: CorePath, options: ProbeOptions = {}): Promise<boolean> {
    const exchange: Exchange = { method, path: this.#channel.recipePath(path), ...(method === 'GET' ? {} : { body: {} }) };
    const answer = await this.#channel.refusal(exchange, options);
    if (answer.status === 200) {
      if (method === 'GET') return true;
      throw new Unexpected(
        `The core carried out ${answer.context.request} with an empty body, which no authentication core does: check the core address.`,
        answer.bodyText.trim(),
        { status: answer.status, request: answer.context.request },
      );
    }
    const error = this.#channel.errorOf(answer);
    if (error instanceof RecordRejected) return true;
    // 405: the path is there for another method (a lookup's GET), not for this one: the call is not.
    if (error instanceof NotFound || answer.status === 405) return false;
    throw error;
  }

  async close(): Promise<void> {
    await this.#channel.close();
  }
}
