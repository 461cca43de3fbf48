import { hkdfSync } from 'node:crypto';
import { type CorePath, type ScryptAlgorithmName, VENDOR_SCRYPT } from '../contract/names.js';
import type {
  EmailVerifyRemoveBody,
  PasswordHashImportBody,
  PasswordlessLoginBody,
  PasswordlessUserChangeBody,
  RoleBody,
  SignInUpBody,
  UserEmailChangeBody,
  UserIdMapBody,
  UserMetadataBody,
  UserRoleBody,
} from '../contract/requests.js';
import type { Secret } from '../secret.js';
import * as account from './account-calls.js';
import { type CallOptions, CoreChannel, type CoreClientOptions, type ProbeOptions } from './channel.js';
import * as identity from './identity-calls.js';
import * as passwordless from './passwordless-calls.js';
import * as probe from './probe-calls.js';
import type { RetryPolicy } from './retry.js';
import * as roles from './roles-calls.js';
import { describeTargets } from './target.js';
import type { UpstreamState } from './upstreams.js';

export type { CallOptions, CoreClientOptions, ProbeOptions } from './channel.js';
export type { ChangeEmailResult, ImportPasswordHashResult, SignInResult, SignInUpResult, SignUpResult, UserByEmailResult } from './account-calls.js';
export type { EmailVerifyResult, EmailVerifyTokenResult, UserIdMapResult } from './identity-calls.js';
export type { AddUserRoleResult } from './roles-calls.js';
export type { AccountInfoUser, ConsumeCodeResult, PasswordlessChangeResult, PasswordlessCode } from './passwordless-calls.js';
export type { ScryptNameProbeResult, TenantProbeResult } from './probe-calls.js';
export { TENANT_PROBE_BODY } from './probe-calls.js';

/**
 * Talks to a core (or several sharing one database) over keep-alive connection pools. Methods map the core's answers
 * to outcomes or typed errors; each recipe's calls are in its own file (`account-calls.ts`, `identity-calls.ts`,
 * `roles-calls.ts`, `passwordless-calls.ts`, `probe-calls.ts`), taking this client's channel.
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

  /**
   * A key for the journal's digests, derived from the api-key (HKDF-SHA-256 with the journal's salt): whoever holds
   * only the journal cannot test a guessed email against it. The key itself is never exposed.
   */
  digestKey(salt: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#apiKey.reveal(), salt, 'core-migrate journal digests v2', 32));
  }

  /** The tenant and app this client's operations go to. */
  get scope(): { tenantId: string; appId: string } {
    return { tenantId: this.#channel.target.tenantId, appId: this.#channel.target.appId };
  }

  // The contract's accounts (account-calls.ts).
  importPasswordHash(body: PasswordHashImportBody, options: CallOptions = {}): Promise<account.ImportPasswordHashResult> {
    return account.importPasswordHash(this.#channel, body, this.#scryptAlgorithmName, options);
  }

  signInUp(body: SignInUpBody, options: CallOptions = {}): Promise<account.SignInUpResult> {
    return account.signInUp(this.#channel, body, options);
  }

  signIn(credentials: { email: string; password: Secret }, options: CallOptions = {}): Promise<account.SignInResult> {
    return account.signIn(this.#channel, credentials, options);
  }

  signUp(credentials: { email: string; password: Secret }, options: CallOptions = {}): Promise<account.SignUpResult> {
    return account.signUp(this.#channel, credentials, options);
  }

  userByEmail(email: string, options: CallOptions = {}): Promise<account.UserByEmailResult> {
    return account.userByEmail(this.#channel, email, options);
  }

  changeEmail(body: UserEmailChangeBody, options: CallOptions = {}): Promise<account.ChangeEmailResult> {
    return account.changeEmail(this.#channel, body, options);
  }

  // A migrated user's identity (identity-calls.ts).
  mapUserId(body: UserIdMapBody, options: CallOptions = {}): Promise<identity.UserIdMapResult> {
    return identity.mapUserId(this.#channel, body, options);
  }

  userIdMapping(userId: string, options: CallOptions = {}): Promise<{ coreId: string; externalId: string } | undefined> {
    return identity.userIdMapping(this.#channel, userId, options);
  }

  createEmailVerificationToken(body: { userId: string; email: string }, options: CallOptions = {}): Promise<identity.EmailVerifyTokenResult> {
    return identity.createEmailVerificationToken(this.#channel, body, options);
  }

  verifyEmail(token: Secret, options: CallOptions = {}): Promise<identity.EmailVerifyResult> {
    return identity.verifyEmail(this.#channel, token, options);
  }

  isEmailVerified(query: { userId: string; email: string }, options: CallOptions = {}): Promise<boolean> {
    return identity.isEmailVerified(this.#channel, query, options);
  }

  unverifyEmail(body: EmailVerifyRemoveBody, options: CallOptions = {}): Promise<void> {
    return identity.unverifyEmail(this.#channel, body, options);
  }

  updateUserMetadata(body: UserMetadataBody, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return identity.updateUserMetadata(this.#channel, body, options);
  }

  userMetadata(userId: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return identity.userMetadata(this.#channel, userId, options);
  }

  removeUser(userId: string, options: CallOptions = {}): Promise<void> {
    return identity.removeUser(this.#channel, userId, options);
  }

  userCount(options: CallOptions = {}): Promise<number> {
    return identity.userCount(this.#channel, options);
  }

  // User roles (roles-calls.ts).
  putRole(body: RoleBody, options: CallOptions = {}): Promise<{ created: boolean }> {
    return roles.putRole(this.#channel, body, options);
  }

  rolePermissions(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    return roles.rolePermissions(this.#channel, role, options);
  }

  listRoles(options: CallOptions = {}): Promise<string[]> {
    return roles.listRoles(this.#channel, options);
  }

  roleUsers(role: string, options: CallOptions = {}): Promise<string[] | undefined> {
    return roles.roleUsers(this.#channel, role, options);
  }

  addUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<roles.AddUserRoleResult> {
    return roles.addUserRole(this.#channel, body, options);
  }

  userRoles(userId: string, options: CallOptions = {}): Promise<string[]> {
    return roles.userRoles(this.#channel, userId, options);
  }

  removeUserRole(body: UserRoleBody, options: CallOptions = {}): Promise<{ hadRole: boolean }> {
    return roles.removeUserRole(this.#channel, body, options);
  }

  removeRole(role: string, options: CallOptions = {}): Promise<{ existed: boolean }> {
    return roles.removeRole(this.#channel, role, options);
  }

  // Passwordless users (passwordless-calls.ts).
  createPasswordlessCode(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<passwordless.PasswordlessCode> {
    return passwordless.createPasswordlessCode(this.#channel, login, options);
  }

  consumePasswordlessCode(
    code: Pick<passwordless.PasswordlessCode, 'preAuthSessionId' | 'linkCode'>,
    options: CallOptions = {},
  ): Promise<passwordless.ConsumeCodeResult> {
    return passwordless.consumePasswordlessCode(this.#channel, code, options);
  }

  removePasswordlessCodes(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<void> {
    return passwordless.removePasswordlessCodes(this.#channel, login, options);
  }

  changePasswordlessLogin(body: PasswordlessUserChangeBody, options: CallOptions = {}): Promise<passwordless.PasswordlessChangeResult> {
    return passwordless.changePasswordlessLogin(this.#channel, body, options);
  }

  usersByAccountInfo(login: PasswordlessLoginBody, options: CallOptions = {}): Promise<passwordless.AccountInfoUser[]> {
    return passwordless.usersByAccountInfo(this.#channel, login, options);
  }

  // What a core is and offers, learnt without writing (probe-calls.ts).
  hello(options: CallOptions = {}): Promise<{ roundTripMs: number }> {
    return probe.hello(this.#channel, options);
  }

  apiVersion(options: CallOptions = {}): Promise<{ versions: string[] }> {
    return probe.apiVersion(this.#channel, options);
  }

  probeTenant(options: ProbeOptions = {}): Promise<probe.TenantProbeResult> {
    return probe.probeTenant(this.#channel, options);
  }

  probeScryptName(name: ScryptAlgorithmName, options: ProbeOptions = {}): Promise<probe.ScryptNameProbeResult> {
    return probe.probeScryptName(this.#channel, name, options);
  }

  probeCall(method: 'GET' | 'POST' | 'PUT', path: CorePath, options: ProbeOptions = {}): Promise<boolean> {
    return probe.probeCall(this.#channel, method, path, options);
  }

  async close(): Promise<void> {
    await this.#channel.close();
  }
}
