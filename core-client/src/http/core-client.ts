import { hkdfSync } from 'node:crypto';
import type { z } from 'zod';
import { CoreErrorTexts, CoreHeaders, type CorePath, CorePaths, CoreStatus, HELLO_BODY, REQUEST_CONTENT_TYPE } from '../contract/names.js';
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
} from '../contract/requests.js';
import {
  ApiVersionAnswerSchema,
  PasswordHashImportAnswerSchema,
  SignInAnswerSchema,
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
} from '../contract/responses.js';
import { Secret } from '../secret.js';
import { DEFAULT_MAX_ANSWER_BYTES, readAnswerBody } from './answer-body.js';
import { DeadlineWatch } from './deadline.js';
import {
  DEFAULT_MAX_RETRY_AFTER_MS,
  contractViolation,
  deadlinePassed,
  errorFromResponse,
  errorFromTransport,
  quoteCoreText,
  type ExchangeContext,
} from './error-mapping.js';
import { type CoreError, NotFound, RecordRejected, Transient, Unexpected, isCoreError } from './errors.js';
import { type RetryOptions, type RetryPolicy, RetryPolicySchema, defaultRetryPolicy, withRetry } from './retry.js';
import { CoreClientConfigError, type CoreTarget, describeTargets, resolveCoreTargets } from './target.js';
import { type Upstream, type UpstreamState, Upstreams } from './upstreams.js';

export interface CoreClientOptions {
  /**
   * http(s) address of the core, optionally with a path prefix (e.g. `https://host/core`); or several, for cores that
   * share one database: requests are spread over them (see `Upstreams`), each with its own health.
   */
  baseUrl: string | readonly string[];
  apiKey: Secret;
  tenantId?: string;
  appId?: string;
  /** One deadline per request for the headers and the whole body together (a trickling body included). Default 30 s. */
  requestTimeoutMs?: number;
  /** The longest answer body read; a longer one is a contract violation and its connection is closed. Default 1 MiB. */
  maxAnswerBytes?: number;
  /** The longest `Retry-After` honoured; a longer (or unreadable) one is retried with normal backoff. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Other secrets that must never appear in an error, as the api-key (the vendor scrypt signer key). */
  redact?: readonly (Secret | undefined)[];
  /** Connections per core. Default 64. */
  connections?: number;
  /** Default: retry Transient errors with `defaultRetryPolicy`; `false` turns retrying off. */
  retry?: RetryPolicy | false;
  /** Injectable clock, sleep, randomness and an observer of retries (tests, progress displays). */
  retryHooks?: Pick<RetryOptions, 'random' | 'sleep' | 'now' | 'onRetry'>;
  /** How long an idle connection is kept. Default 10 s. */
  keepAliveTimeoutMs?: number;
  /**
   * Certificates (PEM) of the authorities an `https://` core's certificate may be signed by, instead of the ones Node
   * trusts by default: for a core behind a private authority or a self-signed certificate.
   */
  ca?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Send to this core (its index in `coreUrls`) instead of the one with the fewest requests in flight. */
  core?: number;
  /** Overrides the client's retry setting for this call; `false` lets a caller drive retries and see every 429. */
  retry?: RetryPolicy | false;
}

/** A probe's call: where it goes, and how often it is sent again (a pre-flight waits out push-backs only). */
export type ProbeOptions = Pick<CallOptions, 'signal' | 'core' | 'retry'>;

export type ImportPasswordHashResult = { outcome: 'imported' | 'alreadyExisted'; userId: string };
export type SignInUpResult = { outcome: 'created' | 'existing'; userId: string } | { outcome: 'nonOkStatus'; status: string; reason?: string };
export type SignInResult = { outcome: 'signedIn' | 'wrongCredentials' | 'notAvailable' };
export type TenantProbeResult = { exists: true; note?: string } | { exists: false; error: CoreError };
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

interface Exchange {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  /** Values of this request that must never appear in an error (passwords, password hashes). */
  secrets?: readonly string[];
}

interface Answer {
  status: number;
  contentType: string;
  bodyText: string;
  context: ExchangeContext;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** How a core starts its 400 for a missing or mistyped field (`Field name 'email' is invalid in JSON input`). */
/** The tenant probe's import: every field present (a core checks those first), a hash of no family (refused after the tenant is found). */
export const TENANT_PROBE_BODY = { email: 'core-migrate-probe@tenant.invalid', passwordHash: 'core-migrate-probe' } as const;
const DEFAULT_CONNECTIONS = 64;
const DEFAULT_KEEP_ALIVE_MS = 10_000;
/** Shorter texts are not redacted: masking every "ab" in a message would garble it and protect nothing. */
const MIN_REDACTED_LENGTH = 4;

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new CoreClientConfigError(`The ${what} must be a whole number above 0, not ${value}.`);
  }
  return value;
}

/** setTimeout fires at once above this (a signed 32-bit count of milliseconds). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function timerMs(value: number | undefined, fallback: number, what: string): number {
  const ms = positiveInteger(value, fallback, what);
  if (ms > MAX_TIMER_MS)
    throw new CoreClientConfigError(`The ${what} must be at most ${MAX_TIMER_MS} (about 24 days), not ${ms}: a longer timer fires at once.`);
  return ms;
}

function checkRetry(retry: RetryPolicy | false | undefined): RetryPolicy | false {
  if (retry === undefined) return defaultRetryPolicy;
  if (retry === false) return false;
  const result = RetryPolicySchema.safeParse(retry);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CoreClientConfigError(`The retry policy is not valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}.`);
  }
  return result.data;
}

/**
 * Talks to a core (or several sharing one database) over keep-alive connection pools. Methods map the core's answers
 * to outcomes or typed errors.
 */
export class CoreClient {
  readonly #upstreams: Upstreams;
  readonly #apiKey: Secret;
  readonly #targets: readonly CoreTarget[];
  /** Tenant, app and the recipe prefix: the same on every core. */
  readonly #target: CoreTarget;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy | false;
  readonly #retryHooks: CoreClientOptions['retryHooks'];
  readonly #maxAnswerBytes: number;
  readonly #maxRetryAfterMs: number;
  readonly #alsoRedacted: readonly Secret[];
  readonly #deadlines: DeadlineWatch;

  constructor(options: CoreClientOptions) {
    if (!(options.apiKey instanceof Secret)) {
      throw new CoreClientConfigError('The api-key must be given as a Secret, so that it can never be printed.');
    }
    this.#targets = resolveCoreTargets(options);
    this.#target = this.#targets[0] as CoreTarget;
    this.#apiKey = options.apiKey;
    this.#timeoutMs = timerMs(options.requestTimeoutMs, DEFAULT_TIMEOUT_MS, 'request timeout (ms)');
    const connections = positiveInteger(options.connections, DEFAULT_CONNECTIONS, 'number of connections');
    const keepAliveTimeout = positiveInteger(options.keepAliveTimeoutMs, DEFAULT_KEEP_ALIVE_MS, 'keep-alive timeout (ms)');
    this.#retry = checkRetry(options.retry);
    this.#retryHooks = options.retryHooks;
    this.#deadlines = new DeadlineWatch(Math.max(10, Math.min(1_000, Math.floor(this.#timeoutMs / 4))));
    this.#maxAnswerBytes = positiveInteger(options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES, 'answer size limit (bytes)');
    this.#maxRetryAfterMs = timerMs(options.maxRetryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS, 'Retry-After cap (ms)');
    this.#alsoRedacted = (options.redact ?? []).filter((secret): secret is Secret => secret instanceof Secret && !secret.isEmpty);
    this.#upstreams = new Upstreams(this.#targets, {
      connections,
      pipelining: 1,
      keepAliveTimeout,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      connect: { timeout: this.#timeoutMs, ...(options.ca === undefined ? {} : { ca: options.ca }) },
    });
  }

  /** e.g. `http://127.0.0.1:3567 (tenant public)`, or `http://a:3567, http://b:3567 (tenant public)`; never the key. */
  describe(): string {
    return describeTargets(this.#targets);
  }

  /** The cores requests go to, as normalised base URLs, in the order given. */
  get coreUrls(): readonly string[] {
    return this.#targets.map((target) => target.baseUrl);
  }

  /** What this client does with a failed request unless a call says otherwise (a probe derives its own from it). */
  get retryPolicy(): RetryPolicy | false {
    return this.#retry;
  }

  /** Requests in flight and sent, and health, of each core. */
  coreStates(): UpstreamState[] {
    return this.#upstreams.states(performance.now());
  }

  async importPasswordHash(body: PasswordHashImportBody, options: CallOptions = {}): Promise<ImportPasswordHashResult> {
    const payload = PasswordHashImportBodySchema.parse(body);
    const exchange: Exchange = {
      method: 'POST',
      path: this.#recipePath(CorePaths.passwordHashImport),
      body: payload,
      secrets: [payload.passwordHash],
    };
    return this.#call(exchange, options, (answer) => {
      const parsed = this.#json(answer, PasswordHashImportAnswerSchema);
      return { outcome: parsed.didUserAlreadyExist ? 'alreadyExisted' : 'imported', userId: parsed.user.id };
    });
  }

  async signInUp(body: SignInUpBody, options: CallOptions = {}): Promise<SignInUpResult> {
    const payload = SignInUpBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.signInUp), body: payload };
    return this.#call(exchange, options, (answer): SignInUpResult => {
      const json = this.#jsonBody(answer);
      // Choose the schema by status first, so a broken OK answer is reported as such (not as "a non-OK status").
      if (this.#conform(answer, AnswerStatusSchema, json).status === CoreStatus.ok) {
        const ok = this.#conform(answer, SignInUpOkAnswerSchema, json);
        return { outcome: ok.createdNewUser ? 'created' : 'existing', userId: ok.user.id };
      }
      const parsed = this.#conform(answer, NonOkStatusAnswerSchema, json);
      // Both go to the report: redacted and shortened like any text of the core's.
      const status = quoteCoreText(parsed.status, answer.context.redact);
      const reason = typeof parsed.reason === 'string' ? quoteCoreText(parsed.reason, answer.context.redact) : undefined;
      return reason === undefined ? { outcome: 'nonOkStatus', status } : { outcome: 'nonOkStatus', status, reason };
    });
  }

  /** A cheap liveness probe (`GET /hello`, no key needed). */
  async hello(options: CallOptions = {}): Promise<{ roundTripMs: number }> {
    const exchange: Exchange = { method: 'GET', path: this.#rootPath(CorePaths.hello) };
    return this.#call(exchange, options, (answer, startedAt) => {
      if (answer.bodyText.trim() !== HELLO_BODY) {
        throw contractViolation(`expected "${HELLO_BODY}" from ${exchange.path}`, answer.context, answer.status);
      }
      return { roundTripMs: performance.now() - startedAt };
    });
  }

  /** `GET /apiversion`; needs a valid key, so it also proves the key. */
  async apiVersion(options: CallOptions = {}): Promise<{ versions: string[] }> {
    const exchange: Exchange = { method: 'GET', path: this.#rootPath(CorePaths.apiVersion) };
    return this.#call(exchange, options, (answer) => ({ versions: [...this.#json(answer, ApiVersionAnswerSchema).versions] }));
  }

  /** Proves that a known account logs in after an import. A core without `/recipe/signin` gives `notAvailable`. */
  async signIn(credentials: { email: string; password: Secret }, options: CallOptions = {}): Promise<SignInResult> {
    const password = credentials.password.reveal();
    const exchange: Exchange = {
      method: 'POST',
      path: this.#recipePath(CorePaths.signIn),
      body: { email: credentials.email, password },
      secrets: [password],
    };
    try {
      return await this.#call(exchange, options, (answer): SignInResult => {
        const parsed = this.#json(answer, SignInAnswerSchema);
        return { outcome: parsed.status === CoreStatus.ok ? 'signedIn' : 'wrongCredentials' };
      });
    } catch (error) {
      if (error instanceof NotFound) return { outcome: 'notAvailable' };
      throw error;
    }
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
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.userIdMap), body: payload };
    return this.#call(exchange, options, (answer): UserIdMapResult => {
      const parsed = this.#json(answer, UserIdMapAnswerSchema);
      if (parsed.status === CoreStatus.ok) return { outcome: 'mapped' };
      if (parsed.status === CoreStatus.unknownSuperTokensUserId) return { outcome: 'unknownUser' };
      if (parsed.doesSuperTokensUserIdExist && parsed.doesExternalUserIdExist) return { outcome: 'alreadyMapped' };
      return { outcome: 'conflict', coreIdMapped: parsed.doesSuperTokensUserIdExist, externalIdMapped: parsed.doesExternalUserIdExist };
    });
  }

  /** `GET /recipe/userid/map`: the external id a user is mapped to, if any (also the pre-flight's probe). */
  async userIdMapping(userId: string, options: CallOptions = {}): Promise<{ coreId: string; externalId: string } | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.userIdMap, { userId, userIdType: 'ANY' }) };
    return this.#call(exchange, options, (answer) => {
      const parsed = this.#json(answer, GetUserIdMapAnswerSchema);
      return parsed.status === CoreStatus.ok ? { coreId: parsed.superTokensUserId, externalId: parsed.externalUserId } : undefined;
    });
  }

  /** `POST /recipe/user/email/verify/token`; the token is a Secret: whoever holds it can verify the email. */
  async createEmailVerificationToken(body: { userId: string; email: string }, options: CallOptions = {}): Promise<EmailVerifyTokenResult> {
    const payload = EmailVerifyTokenBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.emailVerifyToken), body: payload };
    return this.#call(exchange, options, (answer): EmailVerifyTokenResult => {
      const parsed = this.#json(answer, EmailVerifyTokenAnswerSchema);
      return parsed.status === CoreStatus.ok ? { outcome: 'token', token: new Secret(parsed.token) } : { outcome: 'alreadyVerified' };
    });
  }

  /** `POST /recipe/user/email/verify` with a token from `createEmailVerificationToken`. */
  async verifyEmail(token: Secret, options: CallOptions = {}): Promise<EmailVerifyResult> {
    const revealed = token.reveal();
    const exchange: Exchange = {
      method: 'POST',
      path: this.#recipePath(CorePaths.emailVerify),
      body: { method: 'token', token: revealed },
      secrets: [revealed],
    };
    return this.#call(exchange, options, (answer): EmailVerifyResult => {
      const parsed = this.#json(answer, EmailVerifyAnswerSchema);
      return parsed.status === CoreStatus.ok ? { outcome: 'verified' } : { outcome: 'invalidToken' };
    });
  }

  /** `GET /recipe/user/email/verify`. */
  async isEmailVerified(query: { userId: string; email: string }, options: CallOptions = {}): Promise<boolean> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.emailVerify, query) };
    return this.#call(exchange, options, (answer) => this.#json(answer, IsEmailVerifiedAnswerSchema).isVerified);
  }

  /** `PUT /recipe/user/metadata`: merges top-level keys; answers the merged metadata. */
  async updateUserMetadata(body: UserMetadataBody, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const payload = UserMetadataBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#recipePath(CorePaths.userMetadata), body: payload };
    return this.#call(exchange, options, (answer) => this.#json(answer, UserMetadataAnswerSchema).metadata);
  }

  /** `GET /recipe/user/metadata` (`{}` when none). */
  async userMetadata(userId: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.userMetadata, { userId }) };
    return this.#call(exchange, options, (answer) => this.#json(answer, UserMetadataAnswerSchema).metadata);
  }

  /**
   * `GET /recipe/user?email=` (read-only): the password user with that email in the tenant, named as every answer
   * names it. The one lookup for both `--existing skip` and the check that a journal's users are on its core; a core
   * without the call answers 404 (`NotFound`, thrown).
   */
  async userByEmail(email: string, options: CallOptions = {}): Promise<UserByEmailResult> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.userByEmail, { email }) };
    return this.#call(exchange, options, (answer): UserByEmailResult => {
      const parsed = this.#json(answer, UserByEmailAnswerSchema);
      return parsed.status === CoreStatus.ok ? { found: true, userId: parsed.user.id } : { found: false };
    });
  }

  /**
   * `GET /users/count` (read-only): how many users the tenant has. The journal's check that the users it records as
   * created are still on the core at its address; a core without the call answers 404 (`NotFound`, thrown).
   */
  async userCount(options: CallOptions = {}): Promise<number> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.userCount) };
    return this.#call(exchange, options, (answer) => this.#json(answer, UserCountAnswerSchema).count);
  }

  /** `POST /user/remove`: the user with its mapping, metadata and verification state; OK also for an unknown id. */
  async removeUser(userId: string, options: CallOptions = {}): Promise<void> {
    const payload = RemoveUserBodySchema.parse({ userId });
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.removeUser), body: payload };
    return this.#call(exchange, options, (answer) => {
      this.#json(answer, RemoveUserAnswerSchema);
    });
  }

  /**
   * `PUT /recipe/user` with a new email for a password user (by its core id or mapped old id). The user keeps its id,
   * password, mapping and metadata; the new email is unverified (verification belongs to an email). `emailTaken`:
   * another user has that email; `unknownUser`: no password user has that id.
   */
  async changeEmail(body: UserEmailChangeBody, options: CallOptions = {}): Promise<ChangeEmailResult> {
    const payload = UserEmailChangeBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#recipePath(CorePaths.userEmailChange), body: payload };
    return this.#call(exchange, options, (answer): ChangeEmailResult => {
      const parsed = this.#json(answer, UserEmailChangeAnswerSchema);
      if (parsed.status === CoreStatus.ok) return { outcome: 'changed' };
      return parsed.status === CoreStatus.emailAlreadyExists ? { outcome: 'emailTaken' } : { outcome: 'unknownUser' };
    });
  }

  /** `POST /recipe/user/email/verify/remove`: the email is unverified afterwards (OK also when it was not verified). */
  async unverifyEmail(body: EmailVerifyRemoveBody, options: CallOptions = {}): Promise<void> {
    const payload = EmailVerifyRemoveBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.emailVerifyRemove), body: payload };
    return this.#call(exchange, options, (answer) => {
      this.#json(answer, EmailVerifyRemoveAnswerSchema);
    });
  }

  /**
   * `PUT /recipe/role`: creates the role with these permissions, or adds them to an existing role's own (the core
   * never removes one here). `created` is false for a role that existed. A name the core refuses is a RecordRejected.
   */
  async putRole(body: RoleBody, options: CallOptions = {}): Promise<{ created: boolean }> {
    const payload = RoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#recipePath(CorePaths.role), body: payload };
    return this.#call(exchange, options, (answer) => ({ created: this.#json(answer, PutRoleAnswerSchema).createdNewRole }));
  }

  /** `GET /recipe/role/permissions`: a role's permissions, or undefined when the core has no such role. */
  async rolePermissions(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.rolePermissions, { role }) };
    return this.#call(exchange, options, (answer) => {
      const parsed = this.#json(answer, RolePermissionsAnswerSchema);
      return parsed.status === CoreStatus.ok ? [...parsed.permissions] : undefined;
    });
  }

  /** `GET /recipe/roles`: every role of the app (also the probe that the core has the roles recipe). */
  async listRoles(options: CallOptions = {}): Promise<string[]> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.roles) };
    return this.#call(exchange, options, (answer) => [...this.#json(answer, RolesAnswerSchema).roles]);
  }

  /** `GET /recipe/role/users`: the ids of the tenant's users that have the role, or undefined when there is no such role. */
  async roleUsers(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.roleUsers, { role }) };
    return this.#call(exchange, options, (answer) => {
      const parsed = this.#json(answer, RoleUsersAnswerSchema);
      return parsed.status === CoreStatus.ok ? [...parsed.users] : undefined;
    });
  }

  /** `PUT /recipe/user/role`: `unknownRole` when the role does not exist (create it first with `putRole`). */
  async addUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<AddUserRoleResult> {
    const payload = UserRoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'PUT', path: this.#recipePath(CorePaths.userRole), body: payload };
    return this.#call(exchange, options, (answer): AddUserRoleResult => {
      const parsed = this.#json(answer, AddUserRoleAnswerSchema);
      if (parsed.status === CoreStatus.unknownRole) return { outcome: 'unknownRole' };
      return { outcome: parsed.didUserAlreadyHaveRole ? 'alreadyHad' : 'added' };
    });
  }

  /** `GET /recipe/user/roles`: the user's roles in this client's tenant. */
  async userRoles(userId: string, options: CallOptions = {}): Promise<string[]> {
    const exchange: Exchange = { method: 'GET', path: this.#recipePath(CorePaths.userRoles, { userId }) };
    return this.#call(exchange, options, (answer) => [...this.#json(answer, RolesAnswerSchema).roles]);
  }

  /** `POST /recipe/user/role/remove`: `hadRole` false also for a role that does not exist (no user can have it). */
  async removeUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<{ hadRole: boolean }> {
    const payload = UserRoleBodySchema.parse(body);
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.userRoleRemove), body: payload };
    return this.#call(exchange, options, (answer) => {
      const parsed = this.#json(answer, RemoveUserRoleAnswerSchema);
      return { hadRole: parsed.status === CoreStatus.ok && parsed.didUserHaveRole };
    });
  }

  /** `POST /recipe/role/remove`: the role goes, and with it every user's assignment of it. */
  async removeRole(role: string, options: CallOptions = {}): Promise<{ existed: boolean }> {
    const payload = RemoveRoleBodySchema.parse({ role });
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.roleRemove), body: payload };
    return this.#call(exchange, options, (answer) => ({ existed: this.#json(answer, RemoveRoleAnswerSchema).didRoleExist }));
  }

  /** The tenant and app this client's operations go to. */
  get scope(): { tenantId: string; appId: string } {
    return { tenantId: this.#target.tenantId, appId: this.#target.appId };
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
    const exchange: Exchange = { method: 'POST', path: this.#recipePath(CorePaths.passwordHashImport), body: TENANT_PROBE_BODY };
    const answer = await this.#refusal(exchange, options);
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
    const error = errorFromResponse(this.#errorResponse(answer), answer.context);
    return answer.status === 403 ? { exists: true, note: error.message } : { exists: false, error };
  }

  /**
   * Whether the core has a call, learnt without the core doing anything: the call goes out with nothing to act on (an
   * empty JSON object; a read without its query), which a core that has the call refuses with 400 and its sentence,
   * and a core without it answers 404 `Not found` (core-behaviour.md). Push-backs are waited out as the retry policy
   * says; any other answer is thrown as its core error, a 200 to an empty write as `Unexpected` (no core does that).
   */
  async probeCall(method: 'GET' | 'POST' | 'PUT', path: CorePath, options: ProbeOptions = {}): Promise<boolean> {
    const exchange: Exchange = { method, path: this.#recipePath(path), ...(method === 'GET' ? {} : { body: {} }) };
    const answer = await this.#refusal(exchange, options);
    if (answer.status === 200) {
      if (method === 'GET') return true;
      throw new Unexpected(
        `The core carried out ${answer.context.request} with an empty body, which no authentication core does: check the core address.`,
        answer.bodyText.trim(),
        { status: answer.status, request: answer.context.request },
      );
    }
    const error = errorFromResponse(this.#errorResponse(answer), answer.context);
    if (error instanceof RecordRejected) return true;
    // 405: the path is there for another method (a lookup's GET), not for this one: the call is not.
    if (error instanceof NotFound || answer.status === 405) return false;
    throw error;
  }

  async close(): Promise<void> {
    await this.#upstreams.close();
  }

  /** A path at the core's root; each core's own base path is put in front when the request leaves. */
  #rootPath(path: string): string {
    return path;
  }

  #recipePath(path: string, query?: Record<string, string>): string {
    const search = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
    return `${this.#target.recipePrefix}${path}${search}`;
  }

  async #call<T>(exchange: Exchange, options: CallOptions, interpret: (answer: Answer, startedAt: number) => T): Promise<T> {
    return this.#retrying(options, async () => {
      const startedAt = performance.now();
      const answer = await this.#exchange(exchange, options);
      if (answer.status !== 200) throw errorFromResponse(this.#errorResponse(answer), answer.context);
      return interpret(answer, startedAt);
    });
  }

  /** An exchange whose refusal is what the caller reads (a probe): only transient failures are thrown, and retried. */
  async #refusal(exchange: Exchange, options: ProbeOptions): Promise<Answer & { retryAfter: string | undefined }> {
    return this.#retrying(options, async () => {
      const answer = await this.#exchange(exchange, options);
      const error = answer.status === 200 ? undefined : errorFromResponse(this.#errorResponse(answer), answer.context);
      if (error instanceof Transient) throw error;
      return answer;
    });
  }

  /** The one place a request is sent again: the call's retry setting, else the client's. */
  async #retrying<T>(options: Pick<CallOptions, 'signal' | 'retry'>, once: () => Promise<T>): Promise<T> {
    const policy = options.retry === undefined ? this.#retry : checkRetry(options.retry);
    if (policy === false) return once();
    return withRetry(once, policy, { ...this.#retryHooks, ...(options.signal ? { signal: options.signal } : {}) });
  }

  #errorResponse(answer: Answer & { retryAfter: string | undefined }) {
    return { status: answer.status, bodyText: answer.bodyText, retryAfter: answer.retryAfter, nowMs: Date.now(), maxRetryAfterMs: this.#maxRetryAfterMs };
  }

  #redactor(secrets: readonly string[]): (text: string) => string {
    const hidden = [this.#apiKey.reveal(), ...this.#alsoRedacted.map((secret) => secret.reveal()), ...secrets].filter(
      (value) => value.length >= MIN_REDACTED_LENGTH,
    );
    return (text) => hidden.reduce((clean, value) => clean.split(value).join('***'), text);
  }

  async #exchange(exchange: Exchange, options: Pick<CallOptions, 'signal' | 'core'>): Promise<Answer & { retryAfter: string | undefined }> {
    const { signal } = options;
    const upstream = this.#upstreams.pick(performance.now(), options.core);
    const path = `${upstream.target.basePath}${exchange.path}`;
    const context: ExchangeContext = {
      request: `${exchange.method} ${path}`,
      tenantId: this.#target.tenantId,
      appId: this.#target.appId,
      redact: this.#redactor(exchange.secrets ?? []),
    };
    const headers: Record<string, string> = {};
    if (!this.#apiKey.isEmpty) headers[CoreHeaders.apiKey] = this.#apiKey.reveal();
    if (exchange.body !== undefined) headers[CoreHeaders.contentType] = REQUEST_CONTENT_TYPE;
    // Every call goes through here, so the deadline and the size limit hold for any request this client makes. The
    // headers come within undici's headersTimeout (a whole-wait timeout); the body within what is left of the same
    // deadline, enforced here, because undici's bodyTimeout restarts with every byte and a trickle never trips it.
    const startedAt = performance.now();
    let expired = false;
    let unwatch: (() => void) | undefined;
    upstream.inFlight += 1;
    upstream.requests += 1;
    try {
      const response = await upstream.pool.request({
        method: exchange.method,
        path,
        headers,
        body: exchange.body === undefined ? null : JSON.stringify(exchange.body),
        signal: signal ?? null,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      // A gateway's 502 or 504 says the core behind it could not be reached; any other answer says it could.
      if (response.statusCode === 502 || response.statusCode === 504) this.#upstreams.unreachable(upstream, performance.now());
      else this.#upstreams.answered(upstream);
      unwatch = this.#deadlines.watch(startedAt + this.#timeoutMs, () => {
        expired = true;
        response.body.destroy(new Error(`deadline of ${this.#timeoutMs} ms passed`));
      });
      // Always read the body, even of errors, so the connection goes back to the pool clean (or is closed when too long).
      const body = await readAnswerBody(response.body, headerText(response.headers['content-length']), this.#maxAnswerBytes);
      if (!body.ok) {
        throw contractViolation(
          `the answer is longer than ${sizeText(this.#maxAnswerBytes)}, where every answer of the contract is a few hundred; the rest was not read`,
          context,
          response.statusCode,
        );
      }
      return {
        status: response.statusCode,
        contentType: headerText(response.headers[CoreHeaders.contentType]) ?? '',
        retryAfter: headerText(response.headers[CoreHeaders.retryAfter]),
        bodyText: body.text,
        context,
      };
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason ?? error;
      throw this.#failure(error, expired, upstream, context);
    } finally {
      upstream.inFlight -= 1;
      unwatch?.();
    }
  }

  /** The error for a request that got no usable answer; a core that could not be reached rests (see Upstreams). */
  #failure(error: unknown, expired: boolean, upstream: Upstream, context: ExchangeContext): unknown {
    const located = { ...context, target: upstream.description };
    const mapped = expired ? deadlinePassed(located, this.#timeoutMs) : isCoreError(error) ? error : errorFromTransport(error, located);
    if (mapped instanceof Transient && (mapped.reason === 'network' || mapped.reason === 'timeout')) {
      this.#upstreams.unreachable(upstream, performance.now());
    }
    return mapped;
  }

  /** The body of a 200 as JSON, or a ContractViolation when it is not JSON at all. */
  #jsonBody(answer: Answer): unknown {
    if (!answer.contentType.toLowerCase().startsWith('application/json')) {
      throw contractViolation(`expected JSON but got content type "${answer.contentType || '(none)'}"`, answer.context, answer.status);
    }
    try {
      return JSON.parse(answer.bodyText) as unknown;
    } catch {
      throw contractViolation('the body is not valid JSON', answer.context, answer.status);
    }
  }

  #conform<S extends z.ZodType>(answer: Answer, schema: S, value: unknown): z.infer<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length === 0 ? '(body)' : issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw contractViolation(`unexpected body (${issues})`, answer.context, answer.status);
  }

  #json<S extends z.ZodType>(answer: Answer, schema: S): z.infer<S> {
    return this.#conform(answer, schema, this.#jsonBody(answer));
  }
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
