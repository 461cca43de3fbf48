import { randomBytes, randomUUID } from 'node:crypto';
import type { ScryptAlgorithmName } from '../../core-client/src/contract/names.js';
import { ResetTokens, randomTokenText } from './reset-tokens.js';
import { SessionStore } from './sessions.js';

/** Which app and tenant a request is for (from its path). */
export interface Scope {
  appId: string;
  tenantId: string;
}

export interface StoredEmailPasswordUser extends Scope {
  kind: 'emailPassword';
  id: string;
  email: string;
  passwordHash: string;
  hashingAlgorithm: ScryptAlgorithmName | undefined;
  timeJoined: number;
  /** Set once `/recipe/userid/map` mapped it: every answer then names the user by this id. */
  externalId?: string;
}

export interface StoredThirdPartyUser extends Scope {
  kind: 'thirdParty';
  id: string;
  thirdPartyId: string;
  thirdPartyUserId: string;
  email: string;
  isVerified: boolean;
  timeJoined: number;
  externalId?: string;
}

/** A passwordless user: a phone number, an email, or (after a change) both; stored as given, unchecked. */
export interface StoredPasswordlessUser extends Scope {
  kind: 'passwordless';
  id: string;
  phoneNumber?: string;
  email?: string;
  timeJoined: number;
  externalId?: string;
}

export type StoredUser = StoredEmailPasswordUser | StoredThirdPartyUser | StoredPasswordlessUser;

/** A passwordless login: which kind, and its value as the core keeps it. */
export type PasswordlessLogin = { phoneNumber: string } | { email: string };

/** A one-time code for a login, until it is consumed, removed or expires. */
export interface StoredCode extends Scope {
  /** A UUID, as a real core's. */
  codeId: string;
  preAuthSessionId: string;
  linkCode: string;
  login: PasswordlessLogin;
  timeCreated: number;
}

/** How long a code lives (what a real core answered as `codeLifetime`). */
export const CODE_LIFETIME_MS = 900_000;

/**
 * The core's database: where the two storages a real core 10.0.7 was recorded on answered differently
 * (sdk-flows.json), the double answers as the one it is told. In-memory storage lists a role's permissions sorted,
 * PostgreSQL in the order they were added.
 */
export type CoreStorage = 'memory' | 'postgresql';

/** The double's in-memory user table, one namespace per app and tenant, as a core with an in-memory database. */
export class UserStore {
  /** Sessions and the keys their access tokens are signed with (sessions.ts). */
  readonly sessions = new SessionStore();
  readonly resetTokens = new ResetTokens();
  readonly storage: CoreStorage;
  readonly #emailPassword = new Map<string, StoredEmailPasswordUser>();
  readonly #thirdParty = new Map<string, StoredThirdPartyUser>();
  /** By the core's own id; `#passwordlessLogins` finds one by its phone number or email. */
  readonly #passwordless = new Map<string, StoredPasswordlessUser>();
  /** `keyOf(scope, 'phoneNumber' | 'email', value)` → the core's id of the passwordless user with that login. */
  readonly #passwordlessLogins = new Map<string, string>();
  /** preAuthSessionId → the code. */
  readonly #codes = new Map<string, StoredCode>();
  /** The core's own id → where the user is kept. */
  readonly #byId = new Map<string, { table: 'emailPassword' | 'thirdParty' | 'passwordless'; key: string }>();
  /** External id → the core's own id, with the free text given at mapping time. */
  readonly #mappings = new Map<string, { coreId: string; info: string | undefined }>();
  /** `<core id or the id as given>\n<email>` of every verified email (a third-party user's `isVerified` mirrors its current email's). */
  readonly #verified = new Set<string>();
  readonly #tokens = new Map<string, { userId: string; email: string }>();
  /** By the core's id when the user is known, else by the id as given (the core accepts any userId here). */
  readonly #metadata = new Map<string, Record<string, unknown>>();
  /** Roles are the app's (every tenant sees them): app id → role → its permissions, in the order added. */
  readonly #roles = new Map<string, Map<string, Set<string>>>();
  /** `keyOf(scope, <core id or the id as given>)` → the user's roles in that tenant (the core accepts any userId). */
  readonly #userRoles = new Map<string, Set<string>>();

  constructor(storage: CoreStorage = 'postgresql') {
    this.storage = storage;
  }

  /** Replaces the hash of an existing user with that email (the core does the same). */
  importPasswordHash(
    scope: Scope,
    email: string,
    passwordHash: string,
    hashingAlgorithm: ScryptAlgorithmName | undefined,
  ): { user: StoredEmailPasswordUser; didUserAlreadyExist: boolean } {
    const key = keyOf(scope, email);
    const existing = this.#emailPassword.get(key);
    const user: StoredEmailPasswordUser = existing
      ? { ...existing, passwordHash, hashingAlgorithm }
      : { kind: 'emailPassword', ...scope, id: randomUUID(), email, passwordHash, hashingAlgorithm, timeJoined: Date.now() };
    this.#emailPassword.set(key, user);
    this.#byId.set(user.id, { table: 'emailPassword', key });
    return { user, didUserAlreadyExist: existing !== undefined };
  }

  /**
   * Creates the user for a new (thirdPartyId, thirdPartyUserId) pair; otherwise updates its email. As on a real core,
   * `isVerified: true` verifies that email and `false` never un-verifies it: verification belongs to the (user, email)
   * pair, so an email that comes back after a change is verified again if it was before.
   */
  signInUp(
    scope: Scope,
    thirdPartyId: string,
    thirdPartyUserId: string,
    email: string,
    isVerified: boolean,
  ): { user: StoredThirdPartyUser; createdNewUser: boolean } {
    const key = keyOf(scope, thirdPartyId, thirdPartyUserId);
    const existing = this.#thirdParty.get(key);
    const id = existing?.id ?? randomUUID();
    if (isVerified) this.#verified.add(`${id}\n${email}`);
    const verified = this.#verified.has(`${id}\n${email}`);
    const user: StoredThirdPartyUser = existing
      ? { ...existing, email, isVerified: verified }
      : { kind: 'thirdParty', ...scope, id, thirdPartyId, thirdPartyUserId, email, isVerified: verified, timeJoined: Date.now() };
    this.#thirdParty.set(key, user);
    this.#byId.set(user.id, { table: 'thirdParty', key });
    return { user, createdNewUser: existing === undefined };
  }

  /** `POST /recipe/signinup/code`: a code for the login (nothing is sent; the login is kept as given). */
  createCode(scope: Scope, login: PasswordlessLogin, now = Date.now()): StoredCode {
    const code: StoredCode = { ...scope, codeId: randomUUID(), preAuthSessionId: randomToken(), linkCode: randomToken(), login, timeCreated: now };
    this.#codes.set(code.preAuthSessionId, code);
    return code;
  }

  /**
   * `POST /recipe/signinup/code/consume`: uses the code up (with every other code of its login, as a real core
   * does) and creates the login's passwordless user, or finds the one it has. Undefined for a code that does not exist, was used or removed, or expired (`RESTART_FLOW_ERROR`).
   */
  consumeCode(
    scope: Scope,
    preAuthSessionId: string,
    linkCode: string,
    now = Date.now(),
  ): { user: StoredPasswordlessUser; createdNewUser: boolean; login: PasswordlessLogin } | undefined {
    const code = this.#codes.get(preAuthSessionId);
    if (code === undefined || code.linkCode !== linkCode || code.appId !== scope.appId || code.tenantId !== scope.tenantId) return undefined;
    this.removeCodes(code, code.login);
    if (now > code.timeCreated + CODE_LIFETIME_MS) return undefined;
    const existing = this.findPasswordlessUser(scope, code.login);
    if (existing !== undefined) return { user: existing, createdNewUser: false, login: code.login };
    const user: StoredPasswordlessUser = { kind: 'passwordless', ...scope, id: randomUUID(), ...code.login, timeJoined: now };
    this.#passwordless.set(user.id, user);
    this.#passwordlessLogins.set(loginKey(scope, code.login), user.id);
    this.#byId.set(user.id, { table: 'passwordless', key: user.id });
    // The code went to that email: it is verified, as a real core marks it.
    if ('email' in code.login) this.#verified.add(`${user.id}\n${code.login.email}`);
    return { user, createdNewUser: true, login: code.login };
  }

  /**
   * The first part of a consume on its own: the code's login loses every code, and no user is made. A real core
   * deletes the login's codes in a transaction of its own, then looks for the user and creates it in others: a
   * consume that loses the store's lock after the first has used its code up and created nobody. False when the
   * code is not there.
   */
  useCode(preAuthSessionId: string, linkCode: string): boolean {
    const code = this.#codes.get(preAuthSessionId);
    if (code === undefined || code.linkCode !== linkCode) return false;
    this.removeCodes(code, code.login);
    return true;
  }

  /** `POST /recipe/signinup/codes/remove`: every code of the login goes. */
  removeCodes(scope: Scope, login: PasswordlessLogin): void {
    const key = loginKey(scope, login);
    for (const [id, code] of this.#codes) if (loginKey(code, code.login) === key) this.#codes.delete(id);
  }

  /** The codes not consumed nor removed (expired ones too), for assertions. */
  codes(): StoredCode[] {
    return [...this.#codes.values()].map((code) => ({ ...code }));
  }

  findPasswordlessUser(scope: Scope, login: PasswordlessLogin): StoredPasswordlessUser | undefined {
    const id = this.#passwordlessLogins.get(loginKey(scope, login));
    return id === undefined ? undefined : this.#passwordless.get(id);
  }

  /**
   * `PUT /recipe/user` with `rid: passwordless`: the user's new phone number or email (the other login kept); a login
   * another passwordless user has is taken. A new email starts unverified, as on a real core.
   */
  changePasswordlessLogin(userId: string, login: PasswordlessLogin): 'OK' | 'emailTaken' | 'phoneNumberTaken' | 'unknownUser' {
    const id = this.resolve(userId);
    const user = id === undefined ? undefined : this.#passwordless.get(id);
    if (user === undefined) return 'unknownUser';
    const [field, value] = 'phoneNumber' in login ? (['phoneNumber', login.phoneNumber] as const) : (['email', login.email] as const);
    if (user[field] === value) return 'OK';
    const taken = this.#passwordlessLogins.get(loginKey(user, login));
    if (taken !== undefined && taken !== user.id) return field === 'email' ? 'emailTaken' : 'phoneNumberTaken';
    const earlier = user[field];
    if (earlier !== undefined) this.#passwordlessLogins.delete(loginKey(user, field === 'email' ? { email: earlier } : { phoneNumber: earlier }));
    user[field] = value;
    this.#passwordlessLogins.set(loginKey(user, login), user.id);
    return 'OK';
  }

  /** `GET /users/by-accountinfo`: the users of every kind in the scope that sign in with that email or phone number. */
  usersWithLogin(scope: Scope, login: PasswordlessLogin): StoredUser[] {
    return this.inScope(scope).filter((user) =>
      'phoneNumber' in login ? user.kind === 'passwordless' && user.phoneNumber === login.phoneNumber : user.email === login.email,
    );
  }

  findEmailPasswordUser(scope: Scope, email: string): StoredEmailPasswordUser | undefined {
    return this.#emailPassword.get(keyOf(scope, email));
  }

  /** A user by the core's own id. */
  byCoreId(id: string): StoredUser | undefined {
    const place = this.#byId.get(id);
    if (place === undefined) return undefined;
    if (place.table === 'passwordless') return this.#passwordless.get(place.key);
    return place.table === 'emailPassword' ? this.#emailPassword.get(place.key) : this.#thirdParty.get(place.key);
  }

  /**
   * The core's own id for an id a caller gives: an external id once mapped (every later call takes it), else the
   * core's id of a user that is not mapped. Undefined for an id the core does not know.
   */
  resolve(userId: string): string | undefined {
    const mapped = this.#mappings.get(userId);
    if (mapped !== undefined) return mapped.coreId;
    const user = this.byCoreId(userId);
    return user === undefined ? undefined : user.id;
  }

  /** `POST /recipe/userid/map`, with the core's answers (core-behaviour.md). */
  map(
    coreId: string,
    externalId: string,
    info: string | undefined,
  ): { status: 'OK' } | { status: 'exists'; coreIdMapped: boolean; externalIdMapped: boolean } | { status: 'unknown' } {
    const user = this.byCoreId(coreId);
    if (user === undefined) return { status: 'unknown' };
    const externalIdMapped = this.#mappings.has(externalId);
    const coreIdMapped = user.externalId !== undefined;
    if (externalIdMapped || coreIdMapped) return { status: 'exists', coreIdMapped, externalIdMapped };
    this.#mappings.set(externalId, { coreId, info });
    // Verification state and metadata are kept by the core's own id, so they follow the user to its new name.
    user.externalId = externalId;
    return { status: 'OK' };
  }

  mappingOf(userId: string, type: 'SUPERTOKENS' | 'EXTERNAL' | 'ANY'): { coreId: string; externalId: string; info: string | undefined } | undefined {
    if (type !== 'SUPERTOKENS') {
      const mapped = this.#mappings.get(userId);
      if (mapped !== undefined) return { coreId: mapped.coreId, externalId: userId, info: mapped.info };
    }
    if (type !== 'EXTERNAL') {
      const externalId = this.byCoreId(userId)?.externalId;
      if (externalId !== undefined) return { coreId: userId, externalId, info: this.#mappings.get(externalId)?.info };
    }
    return undefined;
  }

  isCoreId(id: string): boolean {
    return this.#byId.has(id);
  }

  /** Users of a scope in the order they were created, for `GET /users`. */
  inScope(scope: Scope): StoredUser[] {
    return this.all().filter((user) => user.appId === scope.appId && user.tenantId === scope.tenantId);
  }

  newVerifyToken(userId: string, email: string): string | 'alreadyVerified' {
    const id = this.resolve(userId) ?? userId;
    if (this.isVerified(userId, email)) return 'alreadyVerified';
    const token = randomTokenText();
    this.#tokens.set(token, { userId: id, email });
    return token;
  }

  /** Uses a token up; the user and email it was made for, or undefined for an unknown or used token. */
  verifyWithToken(token: string): { userId: string; email: string } | undefined {
    const entry = this.#tokens.get(token);
    if (entry === undefined) return undefined;
    this.#tokens.delete(token);
    this.#verified.add(`${entry.userId}\n${entry.email}`);
    const user = this.byCoreId(entry.userId);
    if (user?.kind === 'thirdParty' && user.email === entry.email) user.isVerified = true;
    return entry;
  }

  isVerified(userId: string, email: string): boolean {
    const id = this.resolve(userId) ?? userId;
    return this.#verified.has(`${id}\n${email}`);
  }

  /** Merges top-level keys; a key set to null is removed. */
  updateMetadata(userId: string, update: Record<string, unknown>): Record<string, unknown> {
    const id = this.resolve(userId) ?? userId;
    const merged = { ...this.#metadata.get(id) };
    for (const [key, value] of Object.entries(update)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    this.#metadata.set(id, merged);
    return merged;
  }

  metadataOf(userId: string): Record<string, unknown> {
    return { ...this.#metadata.get(this.resolve(userId) ?? userId) };
  }

  /**
   * `PUT /recipe/user` with an email: the password user keeps its id, hash, mapping and metadata; the new email starts
   * unverified, because verification is kept per email. Third-party users are not the password recipe's: unknown.
   */
  changeEmail(userId: string, email: string): 'OK' | 'emailTaken' | 'unknownUser' {
    const id = this.resolve(userId);
    const user = id === undefined ? undefined : this.byCoreId(id);
    if (user?.kind !== 'emailPassword') return 'unknownUser';
    if (user.email === email) return 'OK';
    const key = keyOf(user, email);
    if (this.#emailPassword.has(key)) return 'emailTaken';
    this.#emailPassword.delete(keyOf(user, user.email));
    this.#emailPassword.set(key, { ...user, email });
    this.#byId.set(user.id, { table: 'emailPassword', key });
    return 'OK';
  }

  /** `POST /recipe/user/email/verify/remove`: OK whether or not the email was verified. */
  unverifyEmail(userId: string, email: string): void {
    const id = this.resolve(userId) ?? userId;
    this.#verified.delete(`${id}\n${email}`);
    const user = this.byCoreId(id);
    if (user?.kind === 'thirdParty' && user.email === email) user.isVerified = false;
  }

  /** Creates a role, or adds the permissions to those it has (none is removed); true when it was created. */
  putRole(appId: string, role: string, permissions: readonly string[]): boolean {
    const roles = this.#appRoles(appId);
    const existing = roles.get(role);
    const own = existing ?? new Set<string>();
    for (const permission of permissions) own.add(permission);
    roles.set(role, own);
    return existing === undefined;
  }

  /** A role's permissions, or undefined when the app has no such role. */
  permissionsOf(appId: string, role: string): string[] | undefined {
    const own = this.#roles.get(appId)?.get(role);
    if (own === undefined) return undefined;
    return this.storage === 'memory' ? [...own].sort() : [...own];
  }

  rolesOf(appId: string): string[] {
    return [...(this.#roles.get(appId)?.keys() ?? [])];
  }

  /** Gives a user a role of the app; the role must exist. */
  addUserRole(scope: Scope, userId: string, role: string): 'unknownRole' | { alreadyHad: boolean } {
    if (this.#roles.get(scope.appId)?.has(role) !== true) return 'unknownRole';
    const key = keyOf(scope, this.resolve(userId) ?? userId);
    const own = this.#userRoles.get(key) ?? new Set<string>();
    const alreadyHad = own.has(role);
    own.add(role);
    this.#userRoles.set(key, own);
    return { alreadyHad };
  }

  userRolesOf(scope: Scope, userId: string): string[] {
    return [...(this.#userRoles.get(keyOf(scope, this.resolve(userId) ?? userId)) ?? [])];
  }

  /** The ids (as every answer names the user: the external id once mapped) of the tenant's users that have the role. */
  usersWithRole(scope: Scope, role: string): string[] {
    const users: string[] = [];
    for (const [key, own] of this.#userRoles) {
      const [appId, tenantId, id] = JSON.parse(key) as [string, string, string];
      if (appId !== scope.appId || tenantId !== scope.tenantId || !own.has(role)) continue;
      users.push(this.byCoreId(id)?.externalId ?? id);
    }
    return users;
  }

  /** True when the user had the role (in that tenant). */
  removeUserRole(scope: Scope, userId: string, role: string): boolean {
    return this.#userRoles.get(keyOf(scope, this.resolve(userId) ?? userId))?.delete(role) ?? false;
  }

  /** Removes a role of the app, and with it every user's assignment of it; true when it existed. */
  removeRole(appId: string, role: string): boolean {
    const existed = this.#roles.get(appId)?.delete(role) ?? false;
    for (const [key, own] of this.#userRoles) if ((JSON.parse(key) as string[])[0] === appId) own.delete(role);
    return existed;
  }

  #appRoles(appId: string): Map<string, Set<string>> {
    const existing = this.#roles.get(appId);
    if (existing !== undefined) return existing;
    const created = new Map<string, Set<string>>();
    this.#roles.set(appId, created);
    return created;
  }

  /** Removes a user with its mapping, metadata, verification state and roles; nothing for an unknown id. */
  remove(userId: string): void {
    const id = this.resolve(userId);
    if (id === undefined) return;
    const user = this.byCoreId(id);
    const place = this.#byId.get(id);
    if (user === undefined || place === undefined) return;
    if (place.table === 'emailPassword') this.#emailPassword.delete(place.key);
    else if (place.table === 'thirdParty') this.#thirdParty.delete(place.key);
    else {
      this.#passwordless.delete(place.key);
      for (const [key, holder] of this.#passwordlessLogins) if (holder === id) this.#passwordlessLogins.delete(key);
    }
    this.#byId.delete(id);
    if (user.externalId !== undefined) this.#mappings.delete(user.externalId);
    this.sessions.forget([id, ...(user.externalId === undefined ? [] : [user.externalId])]);
    this.resetTokens.forgetUser(id);
    this.#metadata.delete(id);
    for (const key of this.#verified) if (key.startsWith(`${id}\n`)) this.#verified.delete(key);
    for (const key of this.#userRoles.keys()) {
      const [appId, , roleUserId] = JSON.parse(key) as string[];
      if (appId === user.appId && roleUserId === id) this.#userRoles.delete(key);
    }
  }

  /** How many users it holds (the store that locks slows as it fills). */
  get size(): number {
    return this.#byId.size;
  }

  all(): StoredUser[] {
    return [...this.#emailPassword.values(), ...this.#thirdParty.values(), ...this.#passwordless.values()].map((user) => ({ ...user }));
  }

  clear(): void {
    this.#emailPassword.clear();
    this.#thirdParty.clear();
    this.#passwordless.clear();
    this.#passwordlessLogins.clear();
    this.#codes.clear();
    this.#byId.clear();
    this.#mappings.clear();
    this.#verified.clear();
    this.#tokens.clear();
    this.#metadata.clear();
    this.#roles.clear();
    this.#userRoles.clear();
    this.sessions.clear();
    this.resetTokens.clear();
  }

  /**
   * The recipes besides sessions that hold something for a user (the core's own id), in the order a real core checks
   * them before it removes a user-id mapping: `UserMetadata`, `UserRoles`, `EmailVerification`.
   */
  recipesHoldingDataOf(coreId: string): string[] {
    const roles = [...this.#userRoles].some(([key, own]) => (JSON.parse(key) as string[])[2] === coreId && own.size > 0);
    const verification =
      [...this.#verified].some((key) => key.startsWith(`${coreId}\n`)) || [...this.#tokens.values()].some((entry) => entry.userId === coreId);
    return [...(this.#metadata.has(coreId) ? ['UserMetadata'] : []), ...(roles ? ['UserRoles'] : []), ...(verification ? ['EmailVerification'] : [])];
  }

  /**
   * `POST /recipe/userid/map/remove`: the user is named by the core's own id again. What the other recipes hold for it
   * stays with the external id, as on a real core, which keeps those rows under the id they were written with.
   */
  unmap(coreId: string): void {
    const user = this.byCoreId(coreId);
    const externalId = user?.externalId;
    if (user === undefined || externalId === undefined) return;
    this.#mappings.delete(externalId);
    delete user.externalId;
    const metadata = this.#metadata.get(coreId);
    if (metadata !== undefined) this.#metadata.set(externalId, metadata);
    this.#metadata.delete(coreId);
    for (const key of [...this.#verified].filter((entry) => entry.startsWith(`${coreId}\n`))) {
      this.#verified.delete(key);
      this.#verified.add(`${externalId}${key.slice(coreId.length)}`);
    }
    for (const entry of this.#tokens.values()) if (entry.userId === coreId) entry.userId = externalId;
    for (const [key, own] of [...this.#userRoles]) {
      const [appId, tenantId, roleUserId] = JSON.parse(key) as [string, string, string];
      if (roleUserId !== coreId) continue;
      this.#userRoles.delete(key);
      this.#userRoles.set(keyOf({ appId, tenantId }, externalId), own);
    }
  }
}

function keyOf(scope: Scope, ...parts: string[]): string {
  return JSON.stringify([scope.appId, scope.tenantId, ...parts]);
}

function loginKey(scope: Scope, login: PasswordlessLogin): string {
  return 'phoneNumber' in login ? keyOf(scope, 'phoneNumber', login.phoneNumber) : keyOf(scope, 'email', login.email);
}

/** A url-safe random handle, as long as a real core's. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The user object a recent core returns, or the flat one of older cores. Once mapped, the user is named by its
 * external id everywhere (core-behaviour.md). `verified` is the password user's verification state.
 */
export function userJson(user: StoredUser, shape: 'recent' | 'legacy', verified = false): Record<string, unknown> {
  const id = user.externalId ?? user.id;
  if (user.kind === 'passwordless') return passwordlessUserJson(user, shape, verified);
  if (shape === 'legacy') return { id, email: user.email, timeJoined: user.timeJoined };
  const thirdParty = user.kind === 'thirdParty' ? [{ id: user.thirdPartyId, userId: user.thirdPartyUserId }] : [];
  return {
    id,
    isPrimaryUser: false,
    tenantIds: [user.tenantId],
    timeJoined: user.timeJoined,
    emails: [user.email],
    phoneNumbers: [],
    thirdParty,
    loginMethods: [
      {
        recipeId: user.kind === 'thirdParty' ? 'thirdparty' : 'emailpassword',
        recipeUserId: id,
        email: user.email,
        verified: user.kind === 'thirdParty' ? user.isVerified : verified,
        tenantIds: [user.tenantId],
        timeJoined: user.timeJoined,
        ...(user.kind === 'thirdParty' ? { thirdParty: thirdParty[0] } : {}),
      },
    ],
  };
}

/**
 * A passwordless user as a real core 10 answered it: its phone number and email (each when it has one), one login
 * method whose `verified` is its email's (true for a phone-only user).
 */
function passwordlessUserJson(user: StoredPasswordlessUser, shape: 'recent' | 'legacy', emailVerified: boolean): Record<string, unknown> {
  const id = user.externalId ?? user.id;
  const logins = { ...(user.email === undefined ? {} : { email: user.email }), ...(user.phoneNumber === undefined ? {} : { phoneNumber: user.phoneNumber }) };
  if (shape === 'legacy') return { id, ...logins, timeJoined: user.timeJoined };
  return {
    id,
    isPrimaryUser: false,
    tenantIds: [user.tenantId],
    timeJoined: user.timeJoined,
    emails: user.email === undefined ? [] : [user.email],
    phoneNumbers: user.phoneNumber === undefined ? [] : [user.phoneNumber],
    thirdParty: [],
    loginMethods: [
      {
        tenantIds: [user.tenantId],
        recipeUserId: id,
        verified: user.email === undefined ? true : emailVerified,
        timeJoined: user.timeJoined,
        recipeId: 'passwordless',
        ...logins,
      },
    ],
  };
}
