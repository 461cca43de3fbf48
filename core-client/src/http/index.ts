export * from './errors.js';
export * from './retry.js';
export { parseRetryAfterMs } from './retry-after.js';
export {
  CoreClientConfigError,
  RESERVED_TENANT_IDS,
  TenantIdSchema,
  AppIdSchema,
  resolveCoreTarget,
  resolveCoreTargets,
  describeTarget,
  describeTargets,
  parseTargetDescription,
  type CoreTarget,
} from './target.js';
export type { UpstreamState } from './upstreams.js';
export {
  CoreClient,
  type CoreClientOptions,
  type CallOptions,
  type ImportPasswordHashResult,
  type SignInUpResult,
  type SignInResult,
  type TenantProbeResult,
  type UserIdMapResult,
  type EmailVerifyTokenResult,
  type EmailVerifyResult,
  type UserByEmailResult,
  type ChangeEmailResult,
  type AddUserRoleResult,
} from './core-client.js';
