import { z } from 'zod';
import { APP_PATH_SEGMENT_PREFIX, DEFAULT_APP_ID, DEFAULT_TENANT_ID } from '../contract/names.js';
import { Problem } from '../problem.js';

/** The settings of the settings table a client option comes from: the core's address, the tenant and the app. */
export type ClientSetting = 'core' | 'tenant' | 'app';

/** What a client refuses at its construction: an address, a tenant or app id, or an option of a library caller. */
export type ClientConfigCode = 'coreUrlInvalid' | 'coreUrlMissing' | 'tenantInvalid' | 'appInvalid' | 'clientOptionInvalid';

/**
 * The client was given settings it cannot work with; the message says which and why, `setting` which setting gave it
 * (none for an option only a library caller sets: a timeout, a pool size, a retry policy).
 */
export class CoreClientConfigError extends Problem<ClientSetting, ClientConfigCode> {
  override readonly name = 'CoreClientConfigError';
  constructor(code: ClientConfigCode, setting: ClientSetting | undefined, message: string) {
    super(code, 'setting', setting, message);
  }
}

/**
 * Words a tenant id must not be. A core reads the first path segment as a tenant unless it is one of its own
 * route roots, so a tenant named like a route root (`/recipe/...`, `/hello`, `/apiversion`, `/users`, `/user`,
 * `/config`) would make paths ambiguous, and `appid-...` is how app segments are spelled.
 */
export const RESERVED_TENANT_IDS: readonly string[] = ['recipe', 'config', 'hello', 'apiversion', 'users', 'user'];

const ID_PATTERN = /^[a-z0-9-]{1,64}$/;

export const TenantIdSchema = z
  .string()
  .regex(ID_PATTERN, 'a tenant id is 1 to 64 characters of lower-case a-z, 0-9 and "-"')
  .refine((id) => !RESERVED_TENANT_IDS.includes(id), 'the core uses this word in its own paths, so it cannot be a tenant id')
  .refine((id) => !id.startsWith(APP_PATH_SEGMENT_PREFIX), `a tenant id cannot start with "${APP_PATH_SEGMENT_PREFIX}"`);

export const AppIdSchema = z.string().regex(ID_PATTERN, 'an app id is 1 to 64 characters of lower-case a-z, 0-9 and "-"');

/** Where requests go: pool origin, the base URL's own path prefix, and the tenant/app prefix of recipe paths. */
export interface CoreTarget {
  origin: string;
  /** The base URL's path without a trailing slash, e.g. `/core` (or empty). */
  basePath: string;
  /** `''`, `/<tenantId>` or `/appid-<appId>/<tenantId>`. */
  recipePrefix: string;
  tenantId: string;
  appId: string;
  /** The base URL as given, normalised, without credentials (it never has any). */
  baseUrl: string;
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CoreClientConfigError('coreUrlInvalid', 'core', `The core address "${baseUrl}" is not a URL; give one like http://127.0.0.1:3567.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CoreClientConfigError('coreUrlInvalid', 'core', `The core address must start with http:// or https://, not ${url.protocol}//.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new CoreClientConfigError('coreUrlInvalid', 'core', 'The core address must not contain a user name or password; give the api-key separately.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new CoreClientConfigError('coreUrlInvalid', 'core', 'The core address must not have a query (?...) or fragment (#...).');
  }
  return url;
}

function checkId(schema: z.ZodType<string>, value: string, setting: 'tenant' | 'app'): string {
  const result = schema.safeParse(value);
  if (!result.success) {
    const reason = result.error.issues[0]?.message ?? 'it is not valid';
    throw new CoreClientConfigError(`${setting}Invalid`, setting, `The ${setting} id "${value}" cannot be used: ${reason}.`);
  }
  return result.data;
}

export function resolveCoreTarget(settings: { baseUrl: string; tenantId?: string; appId?: string }): CoreTarget {
  const url = parseBaseUrl(settings.baseUrl);
  const tenantId = checkId(TenantIdSchema, settings.tenantId ?? DEFAULT_TENANT_ID, 'tenant');
  const appId = checkId(AppIdSchema, settings.appId ?? DEFAULT_APP_ID, 'app');
  const basePath = url.pathname.replace(/\/+$/, '');
  // Once an app segment is present the core expects the tenant right after it, even for `public`.
  const recipePrefix = appId !== DEFAULT_APP_ID ? `/${APP_PATH_SEGMENT_PREFIX}${appId}/${tenantId}` : tenantId !== DEFAULT_TENANT_ID ? `/${tenantId}` : '';
  return { origin: url.origin, basePath, recipePrefix, tenantId, appId, baseUrl: `${url.origin}${basePath}` };
}

/**
 * The targets of several base URLs (cores sharing one database): the same tenant and app on each, duplicates (after
 * normalising) dropped, in the order given.
 */
export function resolveCoreTargets(settings: { baseUrl: string | readonly string[]; tenantId?: string; appId?: string }): CoreTarget[] {
  const urls = typeof settings.baseUrl === 'string' ? [settings.baseUrl] : settings.baseUrl;
  if (urls.length === 0) throw new CoreClientConfigError('coreUrlMissing', 'core', 'No core address was given; give one like http://127.0.0.1:3567.');
  const targets = new Map<string, CoreTarget>();
  for (const baseUrl of urls) {
    const target = resolveCoreTarget({ ...settings, baseUrl });
    if (!targets.has(target.baseUrl)) targets.set(target.baseUrl, target);
  }
  return [...targets.values()];
}

function scopeOf(target: Pick<CoreTarget, 'tenantId' | 'appId'>): string {
  return target.appId === DEFAULT_APP_ID ? `tenant ${target.tenantId}` : `app ${target.appId}, tenant ${target.tenantId}`;
}

export function describeTarget(target: CoreTarget): string {
  return `${target.baseUrl} (${scopeOf(target)})`;
}

/** `http://a:3567, http://b:3567 (tenant public)`: every core, then the scope they share. */
export function describeTargets(targets: readonly CoreTarget[]): string {
  const first = targets[0];
  if (first === undefined) return '(no core)';
  return `${targets.map((target) => target.baseUrl).join(', ')} (${scopeOf(first)})`;
}

/**
 * Reads a description back (a journal's header keeps one): its base URLs and its scope. A base URL holds no space (the
 * URL parser escapes it), so ", " separates them exactly.
 */
export function parseTargetDescription(text: string): { baseUrls: string[]; scope: string } | undefined {
  const match = /^(.+) \(([^()]+)\)$/.exec(text);
  if (match === null) return undefined;
  const baseUrls = (match[1] ?? '').split(', ').filter((url) => url !== '');
  return baseUrls.length === 0 ? undefined : { baseUrls, scope: match[2] ?? '' };
}
