import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { readFailureReason, readSettingText } from '../../files/setting-text.js';
import { Problem } from '../../problem.js';
import { Secret } from '../../secret.js';

/**
 * Where a secret of the old system is read: a file (its whole content, trimmed) or an environment variable, by name.
 * Never the value itself: the settings file is shown, copied and committed, and the command line that repeats a run
 * names it.
 */
export const SecretSourceSchema = z.union(
  [z.strictObject({ file: z.string().min(1) }), z.strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) })],
  {
    error: 'a secret is never written in this file: give {"file": "<path>"} or {"env": "<VARIABLE>"}',
  },
);
export type SecretSource = z.infer<typeof SecretSourceSchema>;

/** How long one question to the old system may take, all told (connecting, the answer's headers and its body). */
const TimeoutSchema = z.number().int().min(100).max(60_000).default(10_000);

/** The hosts a plain http:// old system may be on: this machine only (an emulator, a test's server). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * A password travels in every call: https://, or http:// to this machine only (an emulator, a test's own server).
 * The words never quote the URL (a query may hold a key).
 */
const EndpointSchema = z
  .url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })
  .refine(isHttpsOrLoopback, 'must be https:// (a password is sent there); http:// is accepted only to this machine (127.0.0.1, ::1, localhost)');

/** https://, or http:// to this machine only: the one rule for every URL the old system is reached at. */
export function isHttpsOrLoopback(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)));
}

/**
 * Where a token's issuer and keys are (session migration, `old-token/`): the keys that prove every token are fetched
 * there, so https://, or http:// to this machine only (a test's own issuer, cognito-local).
 */
const TokenUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })
  .refine(
    isHttpsOrLoopback,
    'must be https:// (the keys that prove a token are fetched there); http:// is accepted only to this machine (127.0.0.1, ::1, localhost)',
  );

/** How far this machine's clock and the token issuer's may differ when a token's times are checked; default 30. */
const ClockSkewSchema = z.number().int().min(0).max(300).optional();

/** The signing algorithms an OpenID provider may use for its tokens: public-key ones only, never `none` nor a shared secret (HS*). */
export const TokenAlgorithmSchema = z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);

const FirebaseSchema = z.strictObject({
  kind: z.literal('firebase'),
  /** The project's Web API key. */
  apiKey: SecretSourceSchema,
  /** Where the Identity Toolkit API is; the emulator's is `http://HOST:PORT/identitytoolkit.googleapis.com`. */
  endpoint: EndpointSchema.default('https://identitytoolkit.googleapis.com'),
  timeoutMs: TimeoutSchema,
  /** Session migration: the project whose ID tokens are checked (issuer `https://securetoken.google.com/<id>`, audience `<id>`). */
  projectId: z
    .string()
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'a Firebase project id: 6 to 30 lowercase letters, digits and hyphens')
    .optional(),
  /** Where the ID tokens' keys are published, when not Google's own (securetoken's JWKS): a test's signing issuer. */
  tokenKeysUrl: TokenUrlSchema.optional(),
  tokenClockSkewSeconds: ClockSkewSchema,
});

const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

const CognitoSchema = z
  .strictObject({
    kind: z.literal('cognito'),
    /** The pool's region, e.g. `eu-west-1`. */
    region: z.string().regex(AWS_REGION, 'an AWS region such as eu-west-1'),
    /** The app client the users sign in through; USER_PASSWORD_AUTH must be allowed for it. */
    clientId: z.string().min(1),
    /** When the app client has a secret: each call then carries its SECRET_HASH. */
    clientSecret: SecretSourceSchema.optional(),
    /** Another endpoint than AWS's own for the region (a VPC endpoint, cognito-local). */
    endpoint: EndpointSchema.optional(),
    timeoutMs: TimeoutSchema,
    /** Session migration: the pool whose tokens are checked, e.g. `eu-west-1_AbCdEf123`. */
    userPoolId: z
      .string()
      .regex(/^[\w-]+_[0-9A-Za-z]+$/, 'a user pool id such as eu-west-1_AbCdEf123')
      .optional(),
    /** The `iss` of the pool's tokens, when not AWS's `https://cognito-idp.<region>.amazonaws.com/<userPoolId>` (cognito-local's). */
    issuer: TokenUrlSchema.optional(),
    /** The app clients whose tokens are accepted (an ID token's `aud`, an access token's `client_id`); default `clientId`. */
    tokenClientIds: z.array(z.string().min(1)).min(1).optional(),
    /** Which claim is the user's old id: `sub` (default; the export's old id when it has a sub) or `username`. */
    oldIdClaim: z.enum(['sub', 'username']).optional(),
    tokenClockSkewSeconds: ClockSkewSchema,
  })
  .refine((cognito) => poolRegionAgrees(cognito.userPoolId, cognito.region), {
    path: ['userPoolId'],
    message: 'names another region than the region field (an AWS pool id is <region>_<id>)',
  });

/** An AWS pool id begins with its region (`eu-west-1_…`); cognito-local's (`local_…`) with no region at all. */
function poolRegionAgrees(userPoolId: string | undefined, region: string): boolean {
  const prefix = userPoolId?.split('_')[0];
  return prefix === undefined || !AWS_REGION.test(prefix) || prefix === region;
}

const OpenIdSchema = z.strictObject({
  kind: z.literal('openid'),
  /** The provider's token endpoint (Keycloak `/realms/R/protocol/openid-connect/token`, Okta, Auth0 `/oauth/token`). */
  tokenEndpoint: EndpointSchema,
  clientId: z.string().min(1),
  /** A confidential client's secret, sent as HTTP Basic (or in the form with `clientAuthentication: "post"`). */
  clientSecret: SecretSourceSchema.optional(),
  clientAuthentication: z.enum(['basic', 'post']).default('basic'),
  scope: z.string().min(1).default('openid'),
  /** Auth0's connection: the password-realm grant instead of the plain password grant. */
  realm: z.string().min(1).optional(),
  audience: z.string().min(1).optional(),
  timeoutMs: TimeoutSchema,
  /** Session migration: the provider's issuer, exactly as its tokens' `iss` write it (Auth0's ends with `/`). */
  issuer: TokenUrlSchema.optional(),
  /** Where its keys are, when not found by discovery (`<issuer>/.well-known/openid-configuration` → `jwks_uri`). */
  tokenKeysUrl: TokenUrlSchema.optional(),
  /** The audiences a token may carry (an ID token's is the application's client id); default `clientId`. */
  tokenAudiences: z.array(z.string().min(1)).min(1).optional(),
  /** The algorithms the provider signs its tokens with; default RS256 (OpenID Connect's). */
  tokenAlgorithms: z.array(TokenAlgorithmSchema).min(1).optional(),
  tokenClockSkewSeconds: ClockSkewSchema,
});

const HttpSchema = z.strictObject({
  kind: z.literal('http'),
  /** The old backend's own endpoint: POST {email, password} as JSON; 2xx right, 401/403 wrong. */
  url: EndpointSchema,
  emailField: z.string().min(1).default('email'),
  passwordField: z.string().min(1).default('password'),
  /** Sent as `Authorization: Bearer …` when the endpoint wants the service to say who it is. */
  bearerToken: SecretSourceSchema.optional(),
  timeoutMs: TimeoutSchema,
});

const OktaSchema = z.strictObject({
  kind: z.literal('okta'),
  /** The org's address, e.g. `https://example.okta.com` (or its custom domain): its Authentication API is under it. */
  orgUrl: EndpointSchema,
  /**
   * An API token, for an org that answers the Authentication API only to a trusted application: sent as
   * `Authorization: SSWS …`. Without it the call is the public one an end user's sign-in page makes.
   */
  apiToken: SecretSourceSchema.optional(),
  timeoutMs: TimeoutSchema,
});

/** The `--verify-with FILE` settings: which old system is asked, where, and where its secrets are read. */
export const OldSystemSettingsSchema = z.discriminatedUnion('kind', [FirebaseSchema, CognitoSchema, OpenIdSchema, HttpSchema, OktaSchema]);
export type OldSystemSettings = z.infer<typeof OldSystemSettingsSchema>;

/** `oldSystemTokensUnset`: the settings lack what checking the old system's tokens needs (a project, a pool, an issuer). */
export type OldSystemProblemCode = 'oldSystemSettingsUnusable' | 'oldSystemSecretUnusable' | 'oldSystemTokensUnset';

/** The `--verify-with` file cannot be used: it names the file and the field at fault, never a secret. */
export class OldSystemSettingsProblem extends Problem<'verifyWith', OldSystemProblemCode> {
  override readonly name = 'OldSystemSettingsProblem';
  constructor(code: OldSystemProblemCode, sentence: string) {
    super(code, 'setting', 'verifyWith', `{setting}: ${sentence}`);
  }
}

const fullPath = (path: string, cwd: string): string => (isAbsolute(path) ? path : resolve(cwd, path));

/** Reads and checks a `--verify-with` file (JSON). Secrets are not read here: `readOldSystemSecret` does, where used. */
export async function readOldSystemSettings(path: string, cwd: string): Promise<OldSystemSettings | OldSystemSettingsProblem> {
  const file = fullPath(path, cwd);
  let text: string;
  try {
    text = await readSettingText(file);
  } catch (error) {
    return new OldSystemSettingsProblem('oldSystemSettingsUnusable', `cannot read ${file} (${readFailureReason(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new OldSystemSettingsProblem('oldSystemSettingsUnusable', `${file} is not JSON`);
  }
  const parsed = OldSystemSettingsSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  // zod's sentences name the field and what it wants; none quotes the value given.
  const issues = parsed.error.issues.map((issue) => `${issue.path.length === 0 ? 'the file' : issue.path.join('.')}: ${issue.message}`);
  return new OldSystemSettingsProblem('oldSystemSettingsUnusable', `${file}: ${issues.join('; ')}`);
}

/** A secret the settings point at, read from its file (relative to `cwd`) or its environment variable. */
export async function readOldSystemSecret(
  source: SecretSource,
  what: string,
  context: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Secret | OldSystemSettingsProblem> {
  if ('env' in source) {
    const value = context.env[source.env]?.trim() ?? '';
    if (value === '') return new OldSystemSettingsProblem('oldSystemSecretUnusable', `the ${what} is read from ${source.env}, which is not set`);
    return new Secret(value);
  }
  const file = fullPath(source.file, context.cwd);
  try {
    const value = (await readSettingText(file)).trim();
    if (value === '') return new OldSystemSettingsProblem('oldSystemSecretUnusable', `the ${what} file ${file} is empty`);
    return new Secret(value);
  } catch (error) {
    return new OldSystemSettingsProblem('oldSystemSecretUnusable', `cannot read the ${what} file ${file} (${readFailureReason(error)})`);
  }
}
