import { request } from 'undici';
import { CoreErrorTexts, CoreHeaders, CorePaths, REQUEST_CONTENT_TYPE } from '../contract/names.js';
import { errorFromResponse, errorFromTransport, type ExchangeContext } from '../http/error-mapping.js';
import { type CoreError, Unexpected, isCoreError } from '../http/errors.js';
import { describeTarget, resolveCoreTarget } from '../http/target.js';
import type { Connection } from './resolve-connection.js';

const PROBE_TIMEOUT_MS = 15_000;

export type TenantProbeResult = { exists: true; note?: string } | { exists: false; error: CoreError };

/**
 * Proves that the tenant (and app) path exists without creating anything: an empty body sent to the tenant's
 * `/recipe/signinup`. A core resolves the tenant from the path before it reads the body, so it answers
 * 400 `AppId or tenantId not found` for an unknown tenant and 400 `Field name 'thirdPartyId' is invalid` when the
 * tenant exists (core-behaviour.md, Transport); a body without the required fields can never create a user.
 * signinup is in the contract, unlike /recipe/signin, and the same route serves every tenant and app.
 */
export async function probeTenant(connection: Pick<Connection, 'coreUrl' | 'apiKey' | 'tenantId' | 'appId'>): Promise<TenantProbeResult> {
  const target = resolveCoreTarget({
    baseUrl: connection.coreUrl,
    ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
    ...(connection.appId === undefined ? {} : { appId: connection.appId }),
  });
  const path = `${target.basePath}${target.recipePrefix}${CorePaths.signInUp}`;
  const context: ExchangeContext = {
    request: `POST ${path}`,
    tenantId: target.tenantId,
    appId: target.appId,
    redact: (text) => connection.apiKey.redact(text),
  };
  const headers: Record<string, string> = { [CoreHeaders.contentType]: REQUEST_CONTENT_TYPE };
  if (!connection.apiKey.isEmpty) headers[CoreHeaders.apiKey] = connection.apiKey.reveal();

  let status: number;
  let bodyText: string;
  let retryAfter: string | undefined;
  try {
    const response = await request(`${target.origin}${path}`, {
      method: 'POST',
      headers,
      body: '{}',
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    status = response.statusCode;
    bodyText = await response.body.text();
    const header = response.headers[CoreHeaders.retryAfter];
    retryAfter = Array.isArray(header) ? header[0] : header;
  } catch (error) {
    const mapped = errorFromTransport(error, { ...context, target: describeTarget(target) });
    if (isCoreError(mapped)) return { exists: false, error: mapped };
    throw mapped;
  }

  const text = bodyText.trim();
  if (status === 400 && (text.startsWith('Field name') || text === CoreErrorTexts.invalidJson)) return { exists: true };
  if (status === 200) {
    const error = new Unexpected(
      `The core accepted an empty sign-in-up body on ${context.request}, which no authentication core does: check the core address.`,
      text,
      { status, request: context.request },
    );
    return { exists: false, error };
  }
  const error = errorFromResponse({ status, bodyText, retryAfter, nowMs: Date.now() }, context);
  // 403 means the tenant was found and its third-party recipe is off: the path exists, which is all this proves.
  if (status === 403) return { exists: true, note: error.message };
  return { exists: false, error };
}
